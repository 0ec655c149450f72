import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { MOUSER_FAKE_KEY, startMouserFake } from '@complib/sources/testing'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DARK_PROBLEMS } from './dark-probe'
import { browserAvailable, expectAccessible, startE2E, type E2E } from './harness'

/** Where the screenshots of these screens go, to be looked at. */
const SHOTS = process.env.COMPLIB_SHOTS_DIR ?? '/tmp/shots'
const MOUSER_DESCRIPTION = 'Operational Amplifiers - Op Amps Dual 30-V 700-kHz op amp'

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })
}

/**
 * Inbound sources through the interface, against the Mouser fake of
 * packages/sources: a source configured on the Sources screen (its key
 * write-only), a part found and made a component from "Add from supplier",
 * its offers and provenance, a hand-made component enriched field by field,
 * and a provider's refusal said readably.
 */
describe.skipIf(!browserAvailable())('sources, add from supplier and enrich, in Chromium', () => {
  let e: E2E
  let fake: Awaited<ReturnType<typeof startMouserFake>>
  let fromSourceUrl: string
  let handMadeUrl: string
  beforeAll(async () => {
    fake = await startMouserFake()
    e = await startE2E()
  })
  afterAll(async () => {
    await fake?.close()
    await e?.close()
  })

  it('configures a Mouser source on the Sources screen; the key is shown only as a hint', async () => {
    const { page } = e
    await page.goto(`${e.base}/`)
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Sources' }).click()
    await expect.poll(() => page.getByText('No sources yet').isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Add a source' }).click()
    // Picked, not assumed the first: the server may offer other types (DigiKey, TME) before it.
    await page.getByRole('combobox', { name: /^Type/ }).selectOption('mouser')
    // The provider's documentation, linked from the type.
    expect(await page.getByRole('link', { name: 'Mouser API documentation' }).first().getAttribute('href')).toBe('https://api.mouser.com/api/docs/ui/index')
    expect(await page.getByLabel('Name').inputValue()).toBe('Mouser')
    const key = page.getByLabel('API key')
    expect(await key.getAttribute('type')).toBe('password')
    await key.fill(MOUSER_FAKE_KEY)
    expect(await page.getByLabel('Base URL').getAttribute('placeholder')).toBe('https://api.mouser.com')
    await page.getByLabel('Base URL').fill(fake.url)
    await shot(page, 'sources-new')
    await page.getByRole('button', { name: 'Create source' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Created Mouser.')
    const row = page.locator('tbody tr', { hasText: 'Mouser' })
    expect(await row.textContent()).toContain('…9c21')
    expect(await row.textContent()).toContain(fake.url)
    expect(await page.locator('main').textContent()).not.toContain(MOUSER_FAKE_KEY)
  })

  it('edits the source: a key left empty keeps its value', async () => {
    const { page } = e
    await page.getByRole('button', { name: 'Edit Mouser' }).click()
    const key = page.getByLabel('API key')
    expect(await key.inputValue()).toBe('')
    expect(await key.getAttribute('placeholder')).toBe('…9c21 (kept when left empty)')
    expect(await page.getByRole('combobox', { name: /^Type/ }).isDisabled()).toBe(true)
    await page.getByLabel('Name').fill('Mouser US')
    await page.getByRole('button', { name: 'Save source' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Saved Mouser US.')
    const [source] = (await e.server.storage.sources.list({ limit: 10 })).items
    expect([source?.name, source?.version, source?.secrets]).toEqual(['Mouser US', 2, { apiKey: MOUSER_FAKE_KEY }])
    await expectAccessible(page, 'sources')
    await shot(page, 'sources')
  })

  it('searches Mouser from "Add from supplier" and shows the candidates side by side', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/`)
    await page.getByRole('link', { name: 'Add from supplier' }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Add from a supplier')
    expect(await page.getByRole('combobox', { name: 'Source', exact: true }).inputValue()).toBe(await source0(e))
    await page.getByLabel('MPN or keywords').fill('LM358')
    await page.getByRole('button', { name: 'Search' }).click()
    const cards = page.getByRole('list', { name: 'Candidates' }).getByRole('listitem')
    await expect.poll(() => cards.count()).toBe(4)
    expect(await page.getByText('4 candidates at Mouser US for “LM358”.').isVisible()).toBe(true)
    const first = await cards.first().textContent()
    for (const text of ['LM358DR', 'Texas Instruments', 'active', MOUSER_DESCRIPTION, '12,345', '595-LM358DR']) expect(first).toContain(text)
    // The NRND one says so.
    expect(await cards.filter({ hasText: 'LM358MX/NOPB' }).textContent()).toContain('not recommended (nrnd)')
    // Side by side: the first two cards share a row.
    const [a, b] = [await cards.nth(0).boundingBox(), await cards.nth(1).boundingBox()]
    expect(a!.y).toBe(b!.y)
    expect(b!.x).toBeGreaterThan(a!.x + a!.width - 1)
    await expectAccessible(page, 'add from supplier')
    await shot(page, 'from-source-candidates')
  })

  it('reads the chosen part whole (parameters, offers with price breaks) and creates the component', async () => {
    const { page } = e
    await page.getByRole('button', { name: 'Choose LM358DR (595-LM358DR)' }).click()
    const panel = page.getByRole('region', { name: 'LM358DR at Mouser US' })
    await expect.poll(() => panel.isVisible()).toBe(true)
    expect(await panel.getByRole('table', { name: 'Parameters of LM358DR' }).textContent()).toContain('Supply Voltage - Max30 V')
    const offers = await panel.getByRole('table', { name: 'Offers for LM358DR' }).textContent()
    for (const text of ['Mouser', '595-LM358DR', '12,345', '1+ $0.52', '10+ $0.366', '2,500+ $0.153']) expect(offers).toContain(text)
    await expectAccessible(page, 'add from supplier, part chosen')
    await shot(page, 'from-source-part')
    await panel.getByRole('button', { name: 'Create component' }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('LM358DR')
    fromSourceUrl = page.url()
    expect(fromSourceUrl).toMatch(/#\/components\/cmp_/)
  })

  it('the new component shows its MPN, its offers and where each field came from', async () => {
    const { page } = e
    expect(await page.getByLabel('Manufacturer part numbers 1: Part number').inputValue()).toBe('LM358DR')
    expect(await page.getByLabel('Manufacturer part numbers 1: Manufacturer').inputValue()).toBe('Texas Instruments')
    expect(await page.getByLabel('Description').inputValue()).toBe(MOUSER_DESCRIPTION)
    const offers = page.getByRole('table', { name: 'Offers for LM358DR' })
    await expect.poll(() => offers.locator('tbody tr').count()).toBe(1)
    const offer = await offers.locator('tbody tr').textContent()
    for (const text of ['Mouser', '595-LM358DR', '12,345', '1 / 1', '100+ $0.229', 'Mouser US']) expect(offer).toContain(text)
    expect(await offers.getByRole('link', { name: '595-LM358DR' }).getAttribute('href')).toMatch(/^https:\/\/www\.mouser\.com\/ProductDetail\//)
    // Every field from the one part: the source and part said once, above the fields it filled.
    const provenance = page.getByRole('table', { name: 'Where the fields of LM358DR came from' })
    await expect.poll(() => provenance.locator('tbody').count()).toBe(1)
    expect(await provenance.locator('tr.group').textContent()).toBe('From Mouser US as 595-LM358DR')
    const rows = await provenance.locator('tbody tr:not(.group)').allTextContents()
    for (const field of ['Description', 'Manufacturer part numbers', 'Parameters', 'Offers', 'Datasheet', 'Status']) {
      expect(rows.find((r) => r.startsWith(field)), field).toMatch(/(seconds? ago|now)$/)
    }
    await expectAccessible(page, 'component from a source')
    await shot(page, 'component-offers')
  })

  it('enriches a hand-made component: Compare shows the diff; only the ticked fields are applied', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/components/new`)
    await page.getByLabel('Name').fill('LM358')
    await page.getByRole('button', { name: 'Add manufacturer part number' }).click()
    await page.getByLabel('Manufacturer part numbers 1: Manufacturer').fill('Texas Instruments')
    await page.getByLabel('Manufacturer part numbers 1: Part number').fill('LM358DR')
    await page.getByRole('button', { name: 'Create component' }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('LM358')
    handMadeUrl = page.url()

    const enrich = page.getByRole('region', { name: 'Enrich from source' })
    expect(await enrich.getByLabel('Part at the source (optional)').getAttribute('placeholder')).toBe('empty: looked up by LM358DR')
    await enrich.getByRole('button', { name: 'Compare' }).click()
    const diff = enrich.getByRole('table', { name: 'Differences with Mouser US' })
    await expect.poll(() => diff.isVisible()).toBe(true)
    const fields = await diff.locator('tbody th').allTextContents()
    expect(fields).toEqual(expect.arrayContaining(['Description', 'Parameters', 'Offers']))
    expect(fields).not.toContain('Manufacturer part numbers')
    const row = (name: string) => diff.locator('tbody tr', { has: page.getByRole('checkbox', { name, exact: true }) })
    expect(await row('Description').locator('td').allTextContents()).toEqual(['(empty)', MOUSER_DESCRIPTION])
    expect(await row('Parameters').locator('td').nth(1).textContent()).toContain('Supply Voltage - Max: 30 V')
    expect(await row('Offers').locator('td').nth(1).textContent()).toContain('Mouser 595-LM358DR: 12,345 in stock; 1+ $0.52')
    // Every field that can be applied starts ticked.
    for (const name of fields) expect(await diff.getByRole('checkbox', { name, exact: true }).isChecked()).toBe(true)
    await expectAccessible(page, 'enrich diff')
    await shot(page, 'component-enrich-diff')

    // Only description and parameters.
    for (const name of fields.filter((f) => f !== 'Description' && f !== 'Parameters')) await diff.getByRole('checkbox', { name, exact: true }).uncheck()
    await enrich.getByRole('button', { name: 'Apply selected (2)' }).click()
    await expect.poll(() => enrich.getByRole('status').textContent()).toBe('Applied from Mouser US: description, parameters.')
    expect(await diff.isVisible()).toBe(false)
    // The component screen was read again: the form shows the applied fields, the others are as they were.
    await expect.poll(() => page.getByLabel('Description').inputValue()).toBe(MOUSER_DESCRIPTION)
    const parameterNames = await page.locator('fieldset.rows input').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value))
    expect(parameterNames).toContain('Supply Voltage - Max')
    expect(await page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('draft')
    expect(await page.getByRole('region', { name: 'Offers', exact: true }).textContent()).toContain('No offers')
    const provenance = page.getByRole('table', { name: 'Where the fields of LM358 came from' })
    await expect.poll(() => provenance.locator('tbody tr:not(.group) td:first-child').allTextContents()).toEqual(['Description', 'Parameters'])
    const id = handMadeUrl.split('/').at(-1)!
    const stored = await e.server.storage.components.get(id)
    expect([stored.description, stored.status, stored.parameters.map((p) => p.type)]).toEqual([MOUSER_DESCRIPTION, 'draft', ['Packaging', 'Standard Pack Qty', 'Supply Voltage - Max']])
    expect(await e.server.storage.offers.list(id)).toEqual([])

    // Compared again: what was applied no longer differs; what was left still does.
    await enrich.getByRole('button', { name: 'Compare' }).click()
    await expect.poll(() => diff.locator('tbody th').allTextContents()).toEqual(fields.filter((f) => f !== 'Description' && f !== 'Parameters'))
  })

  it('a provider that refuses the key: the search says which source and what to do', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/sources`)
    await page.getByRole('button', { name: 'Add a source' }).click()
    await page.getByRole('combobox', { name: /^Type/ }).selectOption('mouser')
    await page.getByLabel('Name').fill('Mouser (old key)')
    await page.getByLabel('API key').fill('not-the-right-key-0000')
    await page.getByLabel('Base URL').fill(fake.url)
    await page.getByRole('button', { name: 'Create source' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Created Mouser (old key).')

    await page.goto(`${e.base}/#/components/from-source`)
    await page.getByRole('combobox', { name: 'Source', exact: true }).selectOption({ label: 'Mouser (old key)' })
    await page.getByLabel('MPN or keywords').fill('LM358')
    await page.getByRole('button', { name: 'Search' }).click()
    const alert = page.getByRole('alert')
    await expect.poll(() => alert.textContent()).toMatch(/^The search failed: source "Mouser \(old key\)": Mouser refused the API key .*check them/)
    expect(await page.getByRole('link', { name: 'Sources screen' }).getAttribute('href')).toBe('#/sources')
    expect(await page.getByRole('list', { name: 'Candidates' }).count()).toBe(0)
    await shot(page, 'from-source-refused')
  })

  it('reads well in the dark scheme: sources, candidates, offers and the enrich diff', async () => {
    const dark = await e.browser.newContext({ viewport: { width: 1360, height: 860 }, colorScheme: 'dark' })
    dark.setDefaultTimeout(10_000)
    const page = await dark.newPage()
    const check = async (name: string) => {
      await page.waitForLoadState('networkidle')
      await shot(page, `dark-${name}`)
      expect(await page.evaluate(DARK_PROBLEMS), `${name} in the dark scheme`).toEqual([])
    }
    try {
      await page.goto(`${e.base}/#/sources`)
      // A fresh context loads the screen's chunk first: the click waits for its button.
      await page.getByRole('button', { name: 'Edit Mouser US' }).click()
      expect(await page.locator('tbody tr').count()).toBe(2)
      await check('sources')
      await page.goto(`${e.base}/#/components/from-source`)
      await page.getByLabel('MPN or keywords').fill('LM358')
      await page.getByRole('button', { name: 'Search' }).click()
      await page.getByRole('button', { name: 'Choose LM358DR (595-LM358DR)' }).click()
      await page.getByRole('table', { name: 'Offers for LM358DR' }).waitFor()
      await check('from-source')
      await page.goto(fromSourceUrl)
      await page.getByRole('table', { name: 'Offers for LM358DR' }).waitFor()
      await check('component-offers')
      await page.goto(handMadeUrl)
      await page.getByRole('region', { name: 'Enrich from source' }).getByRole('button', { name: 'Compare' }).click()
      await page.getByRole('table', { name: 'Differences with Mouser US' }).waitFor()
      await check('component-enrich')
    } finally {
      await dark.close()
    }
  })
})

/** The id of the first source configured (the one the screen picks unless told otherwise). */
function source0(e: E2E): Promise<string> {
  return e.server.storage.sources.list({ limit: 10 }).then((p) => p.items[0]!.id)
}
