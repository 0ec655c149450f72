import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, expectAccessible, screenshot, startE2E, type E2E } from './harness'

describe.skipIf(!browserAvailable())('a file of more than one chunk in Chromium', () => {
  let e: E2E
  beforeAll(async () => {
    e = await startE2E()
  })
  afterAll(async () => {
    await e?.close()
  })

  it('shows the warnings beside the mapping, the progress of the job, and the result at the top', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/import`)
    // No name column, and an internal Part Number beside the MPN: 1,500 rows, planned and committed as jobs.
    const lines = ['Part Number,MPN,Manufacturer,Description']
    for (let i = 0; i < 1500; i++) lines.push(`INT-${i},RC0603-${i},Yageo,resistor ${i}`)
    await page.getByLabel('File (CSV or JSON)').setInputFiles({ name: 'library.csv', mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\n')}\n`) })
    await expect.poll(() => page.getByText(/Committing would create 1,500, update 0\./).isVisible(), { timeout: 60_000 }).toBe(true)
    expect(await page.getByLabel('Column “Part Number”').inputValue()).toBe('ipn')
    await expect.poll(() => page.getByRole('note').first().textContent()).toMatch(/no column gives names: each part is named after its MPN/)
    await expectAccessible(page, 'import of a large file')
    await page.getByRole('button', { name: 'Commit the import' }).click()
    await expect.poll(() => page.getByText(/^(Planning|Committing): [\d,]+ of 1,500$/).first().isVisible(), { timeout: 20_000 }).toBe(true)
    // While the job runs the screen says how far it is; once committed, the result leads the screen.
    await expect.poll(() => page.getByRole('status').first().textContent(), { timeout: 60_000 }).toMatch(/^library\.csv: detected CSV, 1,500 rows\. Imported: 1,500 created, 0 updated\.$/)
    // The result sits above the rows' table on the screen.
    const status = await page.locator('[role="status"].ok').first().boundingBox()
    const table = await page.locator('table.simple').first().boundingBox()
    expect(status && table && status.y < table.y).toBe(true)
    await screenshot(page, 'import-large')
    const listed = (await (await fetch(`${e.base}/api/components?q=INT-1499&limit=5`)).json()) as Array<{ ipn: string; name: string }>
    expect(listed.map((c) => [c.ipn, c.name])).toEqual([['INT-1499', 'RC0603-1499']])
  }, 120_000)
})
