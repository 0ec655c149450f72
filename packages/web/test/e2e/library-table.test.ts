import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, expectAccessible, screenshot, startE2E, type E2E } from './harness'

/** The library table as a librarian uses it: filters, sorting, selection, trash, views, export, dark mode. */
describe.skipIf(!browserAvailable())('library table in Chromium', () => {
  let e: E2E
  const ids: string[] = []
  beforeAll(async () => {
    e = await startE2E()
    const { components, parameterTypes } = e.server.storage
    await parameterTypes.create({ name: 'Resistance', unit: 'Ω', kind: 'number' })
    await parameterTypes.create({ name: 'Capacitance', unit: 'F', kind: 'number' })
    for (let i = 0; i < 40; i++) {
      const ohms = [1, 2.2, 4.7, 10, 22, 47, 100][i % 7]!
      const c = await components.create({
        name: `R ${ohms}k 0603 #${String(i).padStart(2, '0')}`,
        category: i % 2 ? 'Resistors' : 'Passives',
        status: i % 3 ? 'active' : 'draft',
        tags: i % 5 ? ['smd'] : ['smd', 'precision'],
        parameters: [{ type: 'Resistance', value: `${ohms}k`, unit: 'Ω' }],
        mpns: [{ manufacturer: ['Yageo', 'Vishay', 'Bourns'][i % 3]!, partNumber: `RC0603-${i}` }],
      })
      ids.push(c.id)
    }
    await components.create({ name: 'NE555 timer', category: 'Timers', status: 'active' })
  })
  afterAll(async () => {
    await e?.close()
  })

  const count = (page: Page) => page.locator('.screen-head .muted').textContent()

  it('opens the filters above the table, with readable range inputs; Apply and Escape close them', async () => {
    const { page } = e
    await page.goto(e.base + '/')
    await expect.poll(() => count(page)).toBe('41 components')
    const toggle = page.getByRole('button', { name: 'Filters', exact: true })
    await toggle.click()
    await page.getByRole('button', { name: 'Add a range' }).click()
    // Wide enough to read "4k7".."100k": each box at least 5rem (the old popover squeezed them to 16-22 px).
    for (const name of ['From', 'to']) {
      const box = await page.getByLabel(name, { exact: true }).boundingBox()
      expect(box!.width, `${name} input width`).toBeGreaterThanOrEqual(80)
    }
    // In the flow, above the table: the table starts below the panel.
    const panel = await page.getByRole('form', { name: 'Filters' }).boundingBox()
    const table = await page.getByRole('table', { name: 'Components' }).boundingBox()
    expect(table!.y).toBeGreaterThanOrEqual(panel!.y + panel!.height)
    // Parameter names offered from the parameter types.
    await expect.poll(() => page.locator('datalist option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(expect.arrayContaining(['Resistance', 'Capacitance']))
    await screenshot(page, 'library-filters')

    // Escape closes, dropping the edit, and gives focus back to the button.
    await page.getByLabel('Parameter', { exact: true }).fill('Resistance')
    await page.getByLabel('Parameter', { exact: true }).press('Escape')
    expect(await page.getByRole('form', { name: 'Filters' }).count()).toBe(0)
    expect(await toggle.evaluate((b) => b === document.activeElement)).toBe(true)
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')

    // Apply closes and filters: 10k..47k, i mod 7 in {3,4,5}.
    await toggle.click()
    expect(await page.getByLabel('Parameter', { exact: true }).count()).toBe(0)
    await page.getByRole('button', { name: 'Add a range' }).click()
    await page.getByLabel('Parameter', { exact: true }).fill('Resistance')
    await page.getByLabel('From', { exact: true }).fill('10k')
    await page.getByLabel('to', { exact: true }).fill('47k')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    expect(await page.getByRole('form', { name: 'Filters' }).count()).toBe(0)
    const expected = Array.from({ length: 40 }, (_, i) => i).filter((i) => [3, 4, 5].includes(i % 7)).length
    await expect.poll(() => count(page)).toBe(`${expected} components matching the ranges`)
    await expect.poll(() => page.getByRole('button', { name: 'Filters (1)' }).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await expect.poll(() => count(page)).toBe('41 components')
  })

  it('keeps the search text on Escape (which leaves the box), and / comes back to it', async () => {
    const { page } = e
    const search = page.getByRole('combobox', { name: 'Search' })
    await search.fill('NE555')
    await expect.poll(() => count(page)).toBe('1 component')
    await search.press('Escape')
    await search.press('Escape')
    expect(await search.inputValue()).toBe('NE555')
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(false)
    await expect.poll(() => count(page)).toBe('1 component')
    // `/` from anywhere but a field focuses the search box (and is not typed into it).
    await page.locator('body').press('/')
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await search.inputValue()).toBe('NE555')
    await search.fill('')
    await expect.poll(() => count(page)).toBe('41 components')
  })

  it('shows the Updated column whole', async () => {
    const { page } = e
    const cut = await page.locator('[role=row][aria-rowindex] [role=cell]:last-child, [role=row] [role=columnheader]:last-child').evaluateAll((cells) =>
      cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent),
    )
    expect(cut).toEqual([])
  })

  it('follows the OS dark scheme, with readable text', async () => {
    const { page } = e
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(247, 247, 245)')
    // Every text the table and toolbar show against what is behind it: at least WCAG AA (4.5:1).
    const low = await page.evaluate(() => {
      const rgb = (s: string) => (s.match(/[\d.]+/g) ?? []).map(Number)
      const lum = ([r, g, b]: number[]) => {
        const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
        return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!)
      }
      const background = (el: Element | null): number[] => {
        for (; el; el = el.parentElement) {
          const c = rgb(getComputedStyle(el).backgroundColor)
          if (c.length === 3 || (c.length === 4 && c[3]! > 0.5)) return c.slice(0, 3)
        }
        return [255, 255, 255]
      }
      const out: string[] = []
      for (const el of document.querySelectorAll('.library h1, .library .muted, .toolbar button, .toolbar summary, .toolbar input, .selection-bar span, .vhead [role=columnheader], .vrow [role=cell] > *, .vrow [role=cell]')) {
        if (!(el.textContent ?? '').trim() && !(el instanceof HTMLInputElement)) continue
        const fg = lum(rgb(getComputedStyle(el).color))
        const bg = lum(background(el))
        const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)
        if (ratio < 4.5) out.push(`${el.className || el.tagName}: ${ratio.toFixed(2)}`)
      }
      return out
    })
    expect(low).toEqual([])
    await expectAccessible(page, 'library (dark)')
    await screenshot(page, 'library-dark')
    await page.emulateMedia({ colorScheme: 'light' })
  })
})
