import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, expectAccessible, screenshot, startE2E, type E2E } from './harness'

describe.skipIf(!browserAvailable())('library and component screens in Chromium', () => {
  let e: E2E
  beforeAll(async () => {
    e = await startE2E()
    const { components } = e.server.storage
    for (let i = 0; i < 600; i++) {
      const ohms = [1, 2.2, 4.7, 10, 22, 47, 100][i % 7]!
      await components.create({
        name: `R ${ohms}k 0603 #${String(i).padStart(3, '0')}`,
        category: i % 2 ? 'Resistors' : 'Passives',
        status: i % 3 ? 'active' : 'draft',
        tags: i % 5 ? ['smd'] : ['smd', 'precision'],
        parameters: [{ type: 'Resistance', value: `${ohms}k`, unit: 'Ω' }],
        mpns: [{ manufacturer: i % 2 ? 'Yageo' : 'Vishay', partNumber: `RC0603-${i}` }],
      })
    }
  })
  afterAll(async () => {
    await e?.close()
  })

  it('shows the library page at / with the first rows and the total', async () => {
    const { page } = e
    await page.goto(e.base + '/')
    await expect.poll(() => page.getByText('600 components', { exact: true }).isVisible()).toBe(true)
    // Virtualised: far fewer rows in the page than in the library.
    const rendered = await page.locator('[role=row][aria-rowindex]').count()
    expect(rendered).toBeGreaterThan(10)
    expect(rendered).toBeLessThan(100)
    await expectAccessible(page, 'library')
  })

  it('scrolls to the end of 600 rows, fetching pages as they come into view', async () => {
    const { page } = e
    await page.locator('.vtable').evaluate((el) => el.scrollTo(0, el.scrollHeight))
    await expect.poll(() => page.locator('[role=row][aria-rowindex="601"]').textContent(), { timeout: 10_000 }).toMatch(/R \d/)
  })

  it('sorts by the server when a column header is pressed', async () => {
    const { page } = e
    await page.locator('.vtable').evaluate((el) => el.scrollTo(0, 0))
    await page.getByRole('button', { name: /^IPN/ }).click()
    await expect.poll(() => page.locator('[role=row][aria-rowindex="2"] [role=cell]').nth(1).textContent()).toBe('CMP-00001')
    await page.getByRole('button', { name: /^IPN/ }).click()
    await expect.poll(() => page.locator('[role=row][aria-rowindex="2"] [role=cell]').nth(1).textContent()).toBe('CMP-00600')
  })

  it('searches as you type, with suggestions that open a component', async () => {
    const { page } = e
    const search = page.getByRole('combobox', { name: 'Search' })
    await search.fill('RC0603-42')
    await expect.poll(() => page.getByText(/^\d+ components?$/).textContent()).toMatch(/^(1 component|1[01] components)$/)
    await expect(page.getByRole('option').first().textContent()).resolves.toMatch(/#042/)
    await search.press('ArrowDown')
    await search.press('Enter')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('R 1k 0603 #042')
    await page.goBack()
    await search.fill('')
  })

  it('filters by status, tag and an SI-aware parameter range (10k..47k)', async () => {
    const { page } = e
    await page.goto(e.base + '/#/')
    await page.getByText('Filters', { exact: true }).click()
    await page.getByRole('button', { name: 'Add a range' }).click()
    await page.getByLabel('Parameter', { exact: true }).fill('Resistance')
    await page.getByLabel('From').fill('10k')
    await page.getByLabel('to', { exact: true }).fill('47k')
    await page.getByRole('textbox', { name: 'Tag', exact: true }).fill('precision')
    await page.getByRole('checkbox', { name: 'active', exact: true }).check()
    await page.getByRole('button', { name: 'Apply filters' }).click()
    // 10k, 22k and 47k are i mod 7 in {3,4,5}; "precision" is every 5th; active every row but each 3rd.
    const expected = Array.from({ length: 600 }, (_, i) => i).filter((i) => i % 5 === 0 && [3, 4, 5].includes(i % 7) && i % 3 !== 0).length
    await expect.poll(() => page.getByText(/components matching the ranges/).textContent()).toBe(`${expected} components matching the ranges`)
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await expect.poll(() => page.getByText(/^600 components/).isVisible()).toBe(true)
  })

  it('creates a component, then edits it, and the history shows each change', async () => {
    const { page } = e
    await page.goto(e.base + '/#/')
    await page.getByRole('link', { name: 'New component' }).click()
    await page.getByLabel('Name').fill('LM358 dual op-amp')
    await page.getByLabel('Category').fill('Amplifiers')
    await page.getByLabel('Tags (comma separated)').fill('opamp, dip8')
    await page.getByRole('button', { name: 'Add parameter' }).click()
    await page.getByLabel('Parameters 1: Parameter').fill('Supply voltage')
    await page.getByLabel('Parameters 1: Value').fill('32')
    await page.getByLabel('Parameters 1: Unit').fill('V')
    await page.getByRole('button', { name: 'Create component' }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('LM358 dual op-amp')
    const id = page.url().split('/').at(-1)!
    const stored = await e.server.storage.components.get(id)
    expect(stored).toMatchObject({ category: 'Amplifiers', tags: ['opamp', 'dip8'], status: 'draft', parameters: [{ type: 'Supply voltage', value: '32', unit: 'V' }] })

    // Status offers only the allowed moves: from draft, only active.
    const statuses = await page.getByLabel('Status').locator('option').allTextContents()
    expect(statuses).toEqual(['draft', 'active'])
    await page.getByLabel('Status').selectOption('active')
    await page.getByLabel('Description').fill('Dual operational amplifier, DIP-8')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Saved version 2.')
    expect(await e.server.storage.components.get(id)).toMatchObject({ status: 'active', description: 'Dual operational amplifier, DIP-8', version: 2 })
    expect(await page.getByLabel('Status').locator('option').allTextContents()).toEqual(['active', 'not recommended for new designs (nrnd)', 'obsolete'])
    await expect.poll(() => page.getByRole('list', { name: 'Changes in version 2' }).innerText()).toBe('Description: (empty) → Dual operational amplifier, DIP-8\nStatus: draft → active')
    await expectAccessible(page, 'component')
    await screenshot(page, 'component')
  })

  it('shows the field errors of a refused save', async () => {
    const { page } = e
    await page.goto(e.base + '/#/components/new')
    await page.getByLabel('Name').fill('Bad IPN')
    await page.getByLabel('IPN').fill('has space')
    await page.getByRole('button', { name: 'Create component' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/Not saved.*ipn.*no spaces/s)
  })

  it('a save that meets a newer version (412) says so, overwrites nothing and reloads on request', async () => {
    const { page } = e
    const c = await e.server.storage.components.create({ name: 'BC547 NPN', category: 'Transistors' })
    await page.goto(`${e.base}/#/components/${c.id}`)
    await expect.poll(() => page.getByLabel('Name').inputValue()).toBe('BC547 NPN')
    // Someone else saves meanwhile.
    await e.server.storage.components.update(c.id, { description: 'saved elsewhere' })
    await page.getByLabel('Category').fill('BJTs')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/Someone saved a newer version/)
    await screenshot(page, 'component-conflict')
    const after = await e.server.storage.components.get(c.id)
    expect(after).toMatchObject({ category: 'Transistors', description: 'saved elsewhere', version: 2 })
    await page.getByRole('button', { name: 'Reload the latest version' }).click()
    await expect.poll(() => page.getByLabel('Description').inputValue()).toBe('saved elsewhere')
    expect(await page.getByLabel('Category').inputValue()).toBe('Transistors')
  })

  it('duplicates, deletes and restores', async () => {
    const { page } = e
    const c = await e.server.storage.components.create({ name: 'NE555 timer' })
    await page.goto(`${e.base}/#/components/${c.id}`)
    await page.getByRole('button', { name: 'Delete' }).first().click()
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/Deleted/)
    expect((await e.server.storage.components.get(c.id, { includeDeleted: true })).deletedAt).not.toBeNull()
    await page.getByRole('button', { name: 'Restore' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Restored.')
    await page.getByRole('button', { name: 'Duplicate' }).click()
    await expect.poll(() => page.url()).not.toContain(c.id)
    await expect.poll(() => page.getByLabel('Name').inputValue()).toMatch(/NE555 timer/)
  })
})
