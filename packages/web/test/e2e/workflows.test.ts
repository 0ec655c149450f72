import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, expectAccessible, screenshot, startE2E, type E2E } from './harness'

/** Components as the API lists them (`GET /api/components`). */
async function list(e: E2E, query: string): Promise<Array<{ id: string; ipn: string; category: string | null; tags: string[]; parameters: Array<{ value: string }> }>> {
  return (await fetch(`${e.base}/api/components?${query}`)).json() as never
}

describe.skipIf(!browserAvailable())('bulk edit, import, locations and KiCad in Chromium', () => {
  let e: E2E
  beforeAll(async () => {
    e = await startE2E()
    for (const [i, name] of ['C 100n 0402', 'C 1u 0603', 'C 10u 0805', 'L 10u 1210'].entries()) {
      await e.server.storage.components.create({ name, category: name.startsWith('C') ? 'Capacitors' : 'Inductors', tags: i === 0 ? ['old'] : [] })
    }
  })
  afterAll(async () => {
    await e?.close()
  })

  it('bulk edits the selected rows: a dry run first, then apply', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/`)
    for (const name of ['C 100n 0402', 'C 1u 0603', 'C 10u 0805']) await page.getByRole('checkbox', { name: `Select ${name}` }).check()
    await expect.poll(() => page.getByText('3 selected').isVisible()).toBe(true)
    await page.getByRole('link', { name: 'Bulk edit selected' }).click()
    await expect.poll(() => page.getByText('3 components selected').isVisible()).toBe(true)
    await page.getByRole('radio', { name: 'Set to' }).first().check()
    await page.getByLabel('New category').fill('MLCC')
    await page.getByLabel('Add tags (comma separated)').fill('reviewed')
    await page.getByLabel('Remove tags (comma separated)').fill('old')
    await page.getByRole('button', { name: 'Preview (dry run)' }).click()
    await expect.poll(() => page.getByRole('heading', { name: /Dry run: 3 components would change/ }).isVisible()).toBe(true)
    expect(await page.locator('.panel tbody tr').first().textContent()).toContain('category: Capacitors → MLCC; tags: old → reviewed')
    // Nothing saved by the dry run.
    const before = await list(e, 'limit=10')
    expect(before.filter((c) => c.category === 'MLCC')).toEqual([])
    await expectAccessible(page, 'bulk edit')
    await screenshot(page, 'bulk-edit')
    await page.getByRole('button', { name: 'Apply to 3 components' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Done: 3 of 3 applied.')
    const after = await list(e, 'limit=10')
    expect(after.filter((c) => c.category === 'MLCC').map((c) => c.tags)).toEqual([['reviewed'], ['reviewed'], ['reviewed']])
  })

  it('imports a CSV: detected format and mapping, every row outcome, a changed mapping, commit', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/import`)
    const csv = 'name,ipn,status,category,Resistance\nR 1k 0603,IMP-1,active,Resistors,1k\nR 2k2 0603,IMP-2,bogus,Resistors,2k2\nR 4k7 0603,IMP-3,draft,Resistors,4k7\n'
    await page.getByLabel('File (CSV or JSON)').setInputFiles({ name: 'parts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    await expect.poll(() => page.getByText(/detected CSV, 3 rows/).isVisible()).toBe(true)
    const outcomes = await page.locator('tbody tr').allTextContents()
    expect(outcomes).toHaveLength(3)
    // Rows are numbered as in the file, the header being row 1.
    expect(outcomes[0]).toMatch(/^2create/)
    expect(outcomes[1]).toMatch(/^3invalid.*status/)
    expect(await page.getByLabel('Column “Resistance”').inputValue()).toBe('parameter')
    // A plain spreadsheet's column no field knows is a parameter, and the mapping says so beside it.
    expect(await page.locator('[data-unknown-column="Resistance"]').textContent()).toBe('Not recognised: kept as the parameter “Resistance”.')
    expect(await page.locator('[data-unknown-column]').count()).toBe(1)
    // An invalid row blocks the commit until the file or the mapping is fixed.
    expect(await page.getByRole('button', { name: 'Commit the import' }).isDisabled()).toBe(true)
    await expectAccessible(page, 'import')
    await screenshot(page, 'import')
    // Change the mapping: the status column is left out, so every row is valid.
    await page.getByLabel('Column “status”').selectOption('ignore')
    await expect.poll(() => page.getByText(/Committing would create 3, update 0\.$/).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Commit the import' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('parts.csv: detected CSV, 3 rows. Imported: 3 created, 0 updated.')
    const imported = await list(e, 'q=IMP-&limit=10')
    expect(imported.map((c) => [c.ipn, c.category, c.parameters[0]?.value]).sort()).toEqual([
      ['IMP-1', 'Resistors', '1k'],
      ['IMP-2', 'Resistors', '2k2'],
      ['IMP-3', 'Resistors', '4k7'],
    ])
  })

  it('a peer\'s export: its flattened lists are one choice each, the columns it leaves out fold away, an unknown column says it is ignored', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/import`)
    const csv = [
      'id;name;manufacturer_product_number;parameters.0.name;parameters.0.value_typical;parameters.0.unit;parameters.1.name;parameters.1.value_text;comment;favorite;Frobnication',
      '41;R 1k 0402;RC0402FR-071KL;Resistance;1000;Ω;Tolerance;1%;;false;x',
    ].join('\n')
    await page.getByLabel('File (CSV or JSON)').setInputFiles({ name: 'partdb.csv', mimeType: 'text/csv', buffer: Buffer.from(`${csv}\n`) })
    await expect.poll(() => page.getByText(/detected CSV, 1 row\./).isVisible()).toBe(true)
    expect(await page.getByLabel('Columns “parameters.*” (5)').inputValue()).toBe('parameters')
    expect(await page.locator('[data-unknown-column="Frobnication"]').textContent()).toBe('Not recognised: ignored. Choose a field to keep it.')
    const leftOut = page.locator('details.ignored-columns')
    expect(await leftOut.locator('summary').textContent()).toBe('2 columns the partdb format leaves out')
    expect(await page.getByLabel('Column “comment”').isVisible()).toBe(false)
    await leftOut.locator('summary').click()
    expect(await page.getByLabel('Column “comment”').inputValue()).toBe('ignore')
    await screenshot(page, 'import-peer')
  })

  it('shows the outcome of every row of a file longer than the preview, and offers the KiCad fields as targets', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/import`)
    const lines = ['name,ipn,KiCad value']
    for (let i = 0; i < 30; i++) lines.push(`C ${i}n,LONG-${i},${i}n`)
    await page.getByLabel('File (CSV or JSON)').setInputFiles({ name: 'long.csv', mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\n')}\n`) })
    await expect.poll(() => page.getByText(/detected CSV, 30 rows/).isVisible()).toBe(true)
    await expect.poll(() => page.locator('tbody tr').count()).toBe(30)
    expect(await page.locator('tbody tr').nth(29).textContent()).toMatch(/^31createC 29n/)
    const choices = await page.getByLabel('Column “KiCad value”').locator('option').allTextContents()
    expect(choices).toEqual(expect.arrayContaining(['kicadValue', 'excludeFromBom', 'excludeFromBoard', 'excludeFromSim']))
  })

  it('downloads the CSV export', async () => {
    const { page } = e
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download components (CSV)' }).click()])
    expect(download.suggestedFilename()).toBe('components.csv')
    expect(readFileSync((await download.path())!, 'utf8')).toContain('IMP-3')
  })

  it('builds the location tree and shows the stock of a location', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/locations`)
    await page.getByLabel('New location').fill('Shelf 1')
    await page.getByRole('button', { name: 'Add location' }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Shelf 1' }).isVisible()).toBe(true)
    await page.getByLabel('New location').fill('Bin A')
    await page.getByLabel('Inside').selectOption({ label: 'Shelf 1' })
    await page.getByRole('button', { name: 'Add location' }).click()
    await expect.poll(() => page.locator('.tree li li').textContent()).toBe('Bin A')
    // Stock set on the component's page.
    const [c] = await list(e, 'q=L%2010u&limit=1')
    await page.goto(`${e.base}/#/components/${c!.id}`)
    await page.getByLabel('Location').selectOption({ label: 'Bin A' })
    await page.getByLabel('Quantity').fill('25')
    await page.getByRole('button', { name: 'Set stock' }).click()
    await expect.poll(() => page.locator('.extras table').textContent()).toContain('Shelf 1 / Bin A25')
    await page.goto(`${e.base}/#/locations`)
    await page.getByRole('button', { name: 'Bin A' }).click()
    await expect.poll(() => page.locator('.panel table').last().textContent()).toMatch(/L 10u 1210.*25/)
    expect(await page.getByText('1 component, 25 pieces').isVisible()).toBe(true)
    await expectAccessible(page, 'locations')
    await screenshot(page, 'locations')
  })

  it('produces the .kicad_httplib file for this server', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/kicad`)
    // The category as KiCad lists it (the parts without a symbol name their category too).
    await expect.poll(() => page.locator('li', { hasText: /^Inductors ·/ }).isVisible()).toBe(true)
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^Download complib\.kicad_httplib/ }).click()])
    const file = JSON.parse(readFileSync((await download.path())!, 'utf8'))
    expect(file).toEqual({ meta: { version: 1 }, name: 'complib', description: expect.any(String), source: { type: 'REST_API', api_version: 'v1', root_url: `${e.base}/api/kicad`, token: '' } })
    // KiCad's first request, to the root the file names, works.
    expect((await fetch(`${file.source.root_url}/v1/categories.json`)).status).toBe(200)
    await expectAccessible(page, 'KiCad')
    await screenshot(page, 'kicad')
  })
})
