import { readFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'
import { createClient, type ComplibClient } from '@complib/client-sdk'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, expectAccessible, screenshot, startE2E, type E2E } from './harness'

/** The library table as a librarian uses it: filters, sorting, selection, trash, views, export, dark mode. */
describe.skipIf(!browserAvailable())('library table in Chromium', () => {
  let e: E2E
  let api: ComplibClient
  const ids: string[] = []
  let deleted: string
  beforeAll(async () => {
    e = await startE2E()
    api = createClient({ baseUrl: e.base })
    const { components, parameterTypes, locations, categories } = e.server.storage
    await parameterTypes.create({ name: 'Resistance', unit: 'Ω', kind: 'number' })
    await parameterTypes.create({ name: 'Capacitance', unit: 'F', kind: 'number' })
    await parameterTypes.create({ name: 'Tolerance', unit: '%', kind: 'number' })
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
    // The resistors' template: its parameters come first among the names the filters offer.
    const resistors = (await categories.list()).find((c) => c.path === 'Resistors')!
    await api.categories.setTemplates(resistors.id, [{ parameterType: 'Tolerance' }, { parameterType: 'Resistance' }])
    const timer = await components.create({ name: 'NE555 timer', category: 'Timers', status: 'active' })
    // Stock in two drawers for some parts: the stock column shows their sum.
    const a = await locations.create({ name: 'Drawer A' })
    const b = await locations.create({ name: 'Drawer B' })
    for (let i = 0; i < 40; i += 4) {
      await locations.setStock(ids[i]!, a.id, i * 10)
      await locations.setStock(ids[i]!, b.id, 5)
    }
    await api.attachments.upload(png(220, 40, 40), { name: 'ne555.png', contentType: 'image/png', componentId: timer.id, kind: 'image' })
    // Resistor colours for a few more, so the table's thumbnails show as they would.
    const colours: Array<[number, number, number]> = [[150, 90, 40], [40, 110, 200], [60, 150, 80], [200, 150, 40]]
    for (let i = 0; i < 40; i += 3) await api.attachments.upload(png(...colours[i % 4]!), { name: `r${i}.png`, contentType: 'image/png', componentId: ids[i]!, kind: 'image' })
    deleted = (await components.create({ name: 'LM741 old op-amp', category: 'Amplifiers' })).id
    await components.delete(deleted)
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
    // Parameter names offered from the parameter types; with a category, its template's first.
    const names = () => page.locator('.range input').first().evaluate((input) => [...(input as unknown as { list: { options: Iterable<{ value: string }> } }).list.options].map((o) => o.value))
    await expect.poll(names).toEqual(['Capacitance', 'Resistance', 'Tolerance'])
    await page.getByRole('form', { name: 'Filters' }).getByLabel('Category').fill('Resistors')
    await expect.poll(names).toEqual(['Tolerance', 'Resistance', 'Capacitance'])
    await page.getByRole('form', { name: 'Filters' }).getByLabel('Category').fill('')

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
    await screenshot(page, 'library-table-filters')
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

  it('shows the Updated column and every header whole', async () => {
    const { page } = e
    await page.getByText('Columns', { exact: true }).click()
    for (const name of ['Image', 'Created', 'Tags', 'Description']) await page.getByRole('checkbox', { name, exact: true }).check()
    await page.getByText('Columns', { exact: true }).click()
    const cut = await page.locator('[role=row][aria-rowindex] [role=cell]:last-child, [role=columnheader]').evaluateAll((cells) =>
      cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent),
    )
    expect(cut).toEqual([])
    await page.getByText('Columns', { exact: true }).click()
    for (const name of ['Image', 'Created', 'Tags', 'Description']) await page.getByRole('checkbox', { name, exact: true }).uncheck()
    await page.getByText('Columns', { exact: true }).click()
  })

  it('sorts by every column the server sorts, both ways', async () => {
    const { page } = e
    await page.goto(e.base + '/')
    await expect.poll(() => count(page)).toBe('41 components')
    // A column of one parameter, added from the Columns menu.
    await page.getByText('Columns', { exact: true }).click()
    await page.getByRole('checkbox', { name: 'Created' }).check()
    await page.getByLabel('A parameter as a column').fill('Resistance')
    await page.getByRole('button', { name: 'Add column' }).click()
    // Escape closes the menu, as it does the filters.
    await page.getByLabel('A parameter as a column').press('Escape')
    expect(await page.locator('details.menu[open]').count()).toBe(0)
    const firstNames = () => page.locator('[role=row][aria-rowindex] a').evaluateAll((as) => as.slice(0, 8).map((a) => a.textContent))
    const sorts: Array<[string, string]> = [
      ['Status', 'status'],
      ['Category', 'category'],
      ['Manufacturer part', 'manufacturer'],
      ['Stock', 'stock'],
      ['Created', 'createdAt'],
      ['Resistance', 'parameter:Resistance'],
      ['IPN', 'ipn'],
    ]
    for (const [label, key] of sorts) {
      const header = page.getByRole('button', { name: new RegExp(`^${label}`) })
      await header.click()
      const up = (await api.components.list({ sort: key as 'name', limit: 8 })).items.map((c) => c.name)
      await expect.poll(firstNames, { message: `${label} ascending` }).toEqual(up)
      expect(await page.getByRole('columnheader', { name: new RegExp(`^${label}`) }).getAttribute('aria-sort')).toBe('ascending')
      await header.click()
      const down = (await api.components.list({ sort: `-${key}` as 'name', limit: 8 })).items.map((c) => c.name)
      await expect.poll(firstNames, { message: `${label} descending` }).toEqual(down)
    }
    // Stock descending: the part with most stock first, its total the sum over both drawers.
    await page.getByRole('button', { name: /^Stock/ }).click()
    await page.getByRole('button', { name: /^Stock/ }).click()
    const top = page.locator('[role=row][aria-rowindex="2"]')
    await expect.poll(() => top.locator('a').textContent()).toBe('R 2.2k 0603 #36')
    expect(await top.locator('[role=cell].end').textContent()).toBe('365')
  })

  it('selects every row matching the filters, loaded or not, and the bulk edit takes them all', async () => {
    const { page } = e
    await page.goto(e.base + '/')
    await page.getByRole('button', { name: 'Filters', exact: true }).click()
    await page.getByRole('checkbox', { name: 'active', exact: true }).check()
    await page.getByRole('button', { name: 'Apply filters' }).click()
    const active = (await api.components.list({ status: ['active'], limit: 100 })).items.map((c) => c.id)
    await expect.poll(() => count(page)).toBe(`${active.length} components`)
    // Only part of them in view (the table is shorter than the result): the selection is not what was scrolled past.
    await page.setViewportSize({ width: 1360, height: 500 })
    await page.getByRole('button', { name: `Select all ${active.length} components matching the filters` }).click()
    await expect.poll(() => page.locator('.selection-bar > span').textContent()).toBe(`${active.length} selected (every one matching the filters)`)
    expect(await page.getByRole('checkbox', { name: 'Select every row matching the filters' }).isChecked()).toBe(true)
    await page.getByRole('link', { name: 'Bulk edit selected' }).click()
    await expect.poll(() => page.getByText(/components selected$/).textContent()).toBe(`${active.length} components selected`)
    await page.goBack()
    await page.setViewportSize({ width: 1360, height: 860 })
    // A row unticked by hand: no longer "every one matching".
    await page.locator('[role=row][aria-rowindex="2"] input[type=checkbox]').uncheck()
    await expect.poll(() => page.locator('.selection-bar > span').textContent()).toBe(`${active.length - 1} selected`)
    await page.getByRole('button', { name: 'Clear selection' }).click()
    await page.getByRole('button', { name: 'Clear filters' }).click()
  })

  it('shows the trash, and Restore brings a part back', async () => {
    const { page } = e
    await page.goto(e.base + '/')
    await page.getByRole('button', { name: 'Trash', exact: true }).click()
    await expect.poll(() => count(page)).toBe('1 component deleted')
    await page.getByRole('button', { name: 'Restore LM741 old op-amp' }).click()
    await expect.poll(() => page.getByText('The trash is empty.').isVisible()).toBe(true)
    expect((await e.server.storage.components.get(deleted)).deletedAt).toBeNull()
    await page.getByRole('button', { name: 'Library', exact: true }).click()
    await expect.poll(() => count(page)).toBe('42 components')
    await e.server.storage.components.delete(deleted)
  })

  it('exports exactly the rows the filters match', async () => {
    const { page } = e
    await page.goto(e.base + '/')
    await page.getByRole('button', { name: 'Filters', exact: true }).click()
    await page.getByRole('textbox', { name: 'Tag', exact: true }).fill('precision')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect.poll(() => count(page)).toBe('8 components')
    await page.getByText('Export', { exact: true }).click()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()])
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8')) as Array<{ name: string; tags: string[] }> | { items: Array<{ name: string; tags: string[] }> }
    const rows = Array.isArray(exported) ? exported : exported.items
    // A press outside the menu closes it.
    await page.getByRole('heading', { name: 'Library' }).click()
    expect(await page.locator('details.menu[open]').count()).toBe(0)
    expect(rows.map((r) => r.name).sort()).toEqual(ids.flatMap((_, i) => (i % 5 === 0 ? [`R ${[1, 2.2, 4.7, 10, 22, 47, 100][i % 7]}k 0603 #${String(i).padStart(2, '0')}`] : [])).sort())
    await page.getByRole('button', { name: 'Clear filters' }).click()
  })

  it('saves a view (filters, columns, sort) in the browser and opens it after a reload', async () => {
    const { page } = e
    await page.goto(e.base + '/')
    await page.getByRole('button', { name: 'Filters', exact: true }).click()
    await page.getByRole('form', { name: 'Filters' }).getByLabel('Category').fill('Resistors')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.getByRole('button', { name: /^Stock/ }).click()
    await expect.poll(() => count(page)).toBe('20 components')
    await page.getByText('Views', { exact: true }).click()
    await page.getByLabel('Save this view as').fill('Resistors by stock')
    await page.getByRole('button', { name: 'Save view' }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Resistors by stock', exact: true }).isVisible()).toBe(true)
    await page.reload()
    // A reload starts unfiltered; the view brings the filters back.
    await expect.poll(() => count(page)).toBe('41 components')
    await page.getByText(/^Views/).click()
    await page.getByRole('button', { name: 'Resistors by stock', exact: true }).click()
    await expect.poll(() => count(page)).toBe('20 components')
    expect(await page.getByRole('columnheader', { name: /^Stock/ }).getAttribute('aria-sort')).toBe('ascending')
    expect(await page.getByRole('button', { name: 'Filters (1)' }).isVisible()).toBe(true)
  })

  it('shows a part\'s image as a thumbnail', async () => {
    const { page } = e
    await page.goto(e.base + '/')
    await page.getByText('Columns', { exact: true }).click()
    await page.getByRole('checkbox', { name: 'Image' }).check()
    await page.getByRole('checkbox', { name: 'Created' }).uncheck()
    await page.getByRole('checkbox', { name: 'Parameters' }).uncheck()
    await page.getByText('Columns', { exact: true }).click()
    await page.getByRole('button', { name: /^Name/ }).click()
    await expect.poll(() => page.getByRole('columnheader', { name: /^Name/ }).getAttribute('aria-sort')).toBe('ascending')
    const img = page.getByRole('img', { name: 'Image of NE555 timer' })
    await expect.poll(() => img.evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth)).toBe(16)
    await expectAccessible(page, 'library')
    await screenshot(page, 'library-table')
  })

  it('follows the OS dark scheme, with readable text in both', async () => {
    const { page } = e
    await page.goto(e.base + '/')
    await expect.poll(() => count(page)).toBe('41 components')
    expect(await page.evaluate(LOW_CONTRAST), 'light scheme').toEqual([])
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect.poll(() => page.evaluate('getComputedStyle(document.body).backgroundColor')).not.toBe('rgb(247, 247, 245)')
    // Every text the table and toolbar show against what is behind it: at least WCAG AA (4.5:1).
    const low = (await page.evaluate(LOW_CONTRAST)) as string[]
    expect(low).toEqual([])
    await expectAccessible(page, 'library (dark)')
    await screenshot(page, 'library-table-dark')
    await page.emulateMedia({ colorScheme: 'light' })
  })
})

/** A 16×16 PNG of one colour. */
function png(r: number, g: number, b: number): Uint8Array {
  const crc = (buf: Buffer) => {
    let c = ~0
    for (const byte of buf) {
      c ^= byte
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1))
    }
    return ~c >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc(body), body.length + 4)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(16, 0)
  header.writeUInt32BE(16, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const rows = Buffer.concat(Array.from({ length: 16 }, () => Buffer.from([0, ...Array.from({ length: 16 }, () => [r, g, b]).flat()])))
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))])
}

/**
 * Run in the page: every text of the table and its toolbar whose contrast
 * with what is behind it is under WCAG AA (4.5:1), as "element: ratio".
 */
const LOW_CONTRAST = `(() => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number)
  const lum = ([r, g, b]) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
  }
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor)
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3)
    }
    return [255, 255, 255]
  }
  const out = []
  for (const el of document.querySelectorAll('.library h1, .library .muted, .toolbar button, .toolbar summary, .toolbar input, .selection-bar span, .vhead [role=columnheader], .vrow [role=cell] > *, .vrow [role=cell]')) {
    if (!(el.textContent || '').trim() && el.tagName !== 'INPUT') continue
    if (el.disabled) continue
    const fg = lum(rgb(getComputedStyle(el).color))
    const bg = lum(background(el))
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)
    if (ratio < 4.5) out.push((el.className || el.tagName) + ': ' + ratio.toFixed(2))
  }
  return out
})()`

describe.skipIf(!browserAvailable())('saved views with an account, in Chromium', () => {
  const KEY = 'views-bootstrap-key-9a2e'
  const USER = { username: 'lena', displayName: 'Lena Librarian', password: 'label-maker-77', role: 'editor' }
  let e: E2E
  beforeAll(async () => {
    e = await startE2E({ apiKey: KEY })
    const api = createClient({ baseUrl: e.base, apiKey: KEY })
    await api.request('/users', { method: 'POST', body: USER })
    for (const name of ['BC547 NPN', 'BC557 PNP', '2N7002 N-MOSFET']) await api.components.create({ name, category: 'Transistors' })
  })
  afterAll(async () => {
    await e?.close()
  })

  async function signIn(page: Page) {
    await page.goto(e.base + '/')
    await page.getByLabel('User name').fill(USER.username)
    await page.getByLabel('Password').fill(USER.password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect.poll(() => page.locator('.screen-head .muted').textContent(), { timeout: 8000 }).toBe('3 components')
  }

  it('keeps a signed-in user\'s views with the account: another browser signed in as them opens it', async () => {
    await signIn(e.page)
    await e.page.getByRole('combobox', { name: 'Search' }).fill('BC5')
    await expect.poll(() => e.page.locator('.screen-head .muted').textContent()).toBe('2 components')
    await e.page.getByText('Views', { exact: true }).click()
    await expect.poll(() => e.page.getByText('Saved with your account.').isVisible()).toBe(true)
    await e.page.getByLabel('Save this view as').fill('Small BJTs')
    await e.page.getByRole('button', { name: 'Save view' }).click()
    await expect.poll(() => e.page.getByRole('button', { name: 'Small BJTs', exact: true }).isVisible()).toBe(true)
    expect(await e.page.evaluate(() => JSON.stringify(localStorage))).not.toContain('Small BJTs')

    const other = await e.browser.newContext({ viewport: { width: 1360, height: 860 } })
    const page = await other.newPage()
    await signIn(page)
    await page.getByText('Views', { exact: false }).first().click()
    await page.getByRole('button', { name: 'Small BJTs', exact: true }).click()
    await expect.poll(() => page.locator('.screen-head .muted').textContent()).toBe('2 components')
    expect(await page.getByRole('combobox', { name: 'Search' }).inputValue()).toBe('BC5')
    await other.close()
  })
})
