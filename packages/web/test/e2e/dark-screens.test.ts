import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@complib/client-sdk'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DARK_PROBLEMS } from './dark-probe'
import { browserAvailable, startE2E, type E2E } from './harness'

const SHOTS = join(tmpdir(), 'complib-web-screenshots')

const KEY = 'dark-bootstrap-key-3b7d'
const ADMIN = { username: 'ada', displayName: 'Ada Admin', password: 'keeps-the-keys-7', role: 'admin' }

/**
 * Every screen in the OS's dark scheme (decision 1414): its text readable
 * (WCAG AA, 4.5:1, against what is behind it) and no light panel glaring
 * in the dark page. A screenshot of each, to look at.
 */
describe.skipIf(!browserAvailable())('every screen in the dark scheme, in Chromium', () => {
  let e: E2E
  let dark: BrowserContext
  let page: Page
  let componentId: string

  beforeAll(async () => {
    e = await startE2E({ apiKey: KEY })
    const api = (method: string, path: string, body?: unknown) =>
      fetch(e.base + path, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
    expect((await api('POST', '/api/users', ADMIN)).status).toBe(201)
    const { components, parameterTypes, locations, categories } = e.server.storage
    await parameterTypes.create({ name: 'Resistance', unit: 'Ω', kind: 'number' })
    await parameterTypes.create({ name: 'Tolerance', unit: '%', kind: 'number' })
    const drawer = await locations.create({ name: 'Drawer A' })
    for (let i = 0; i < 6; i++) {
      const c = await components.create({
        name: `R ${i + 1}k 0603`,
        category: 'Resistors',
        status: (['draft', 'active', 'nrnd', 'obsolete'] as const)[i % 4],
        tags: ['smd'],
        parameters: [{ type: 'Resistance', value: `${i + 1}k`, unit: 'Ω' }],
        mpns: [{ manufacturer: 'Yageo', partNumber: `RC0603-${i}` }],
      })
      await locations.setStock(c.id, drawer.id, 100 * i)
      componentId ??= c.id
    }
    const resistors = (await categories.list()).find((c) => c.path === 'Resistors')!
    await createClient({ baseUrl: e.base, apiKey: KEY }).categories.setTemplates(resistors.id, [{ parameterType: 'Resistance', required: true }, { parameterType: 'Tolerance' }])
    dark = await e.browser.newContext({ viewport: { width: 1360, height: 860 }, colorScheme: 'dark' })
    dark.setDefaultTimeout(10_000)
    page = await dark.newPage()
  })
  afterAll(async () => {
    await dark?.close()
    await e?.close()
  })

  async function check(name: string) {
    await page.waitForLoadState('networkidle')
    // Whole pages, kept out of docs/screenshots (the README shows the library's dark one): to look at.
    mkdirSync(SHOTS, { recursive: true })
    await page.screenshot({ path: join(SHOTS, `dark-${name}.png`), fullPage: true })
    const found = (await page.evaluate(DARK_PROBLEMS)) as string[]
    expect(found, `${name} in the dark scheme`).toEqual([])
  }

  it('sign-in', async () => {
    await page.goto(`${e.base}/`)
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to complib' }).isVisible()).toBe(true)
    await check('sign-in')
    await page.getByLabel('User name').fill(ADMIN.username)
    await page.getByLabel('Password').fill('not-the-password')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 8000 }).toBe('wrong user name or password')
    await check('sign-in-refused')
    await page.getByLabel('Password').fill(ADMIN.password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect.poll(() => page.locator('.screen-head .muted').textContent(), { timeout: 8000 }).toBe('6 components')
    await check('library')
    await page.getByRole('button', { name: 'Filters', exact: true }).click()
    await page.getByRole('button', { name: 'Add a range' }).click()
    await check('library-filters')
  })

  it('component', async () => {
    await page.goto(`${e.base}/#/components/${componentId}`)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('R 1k 0603')
    // A second version: the history shows what changed, struck out and added.
    await page.getByLabel('Description').fill('Thick film, 1%')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect.poll(() => page.locator('.history ins').first().isVisible()).toBe(true)
    await check('component')
  })

  it('new connector and connector', async () => {
    await page.goto(`${e.base}/#/connectors`)
    await expect.poll(() => page.getByText('No connectors yet').isVisible()).toBe(true)
    await check('connectors-empty')
    await page.getByRole('link', { name: 'New connector' }).click()
    await page.getByLabel('Name').fill('ERP')
    await page.getByLabel('Receiver URL').fill('http://127.0.0.1:9/hooks')
    await check('new-connector')
    await page.getByRole('button', { name: 'Create connector' }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('ERP')
    // The code editor, loaded after the screen: drawn dark too.
    await expect.poll(() => page.locator('.cm-content').isVisible()).toBe(true)
    await check('connector')
    await page.goto(`${e.base}/#/connectors`)
    await expect.poll(() => page.getByRole('link', { name: 'ERP' }).first().isVisible()).toBe(true)
    await check('connectors')
  })

  it('import preview', async () => {
    await page.goto(`${e.base}/#/import`)
    const csv = 'name,ipn,status\nR 1k 0805,IMP-1,active\nR 2k2 0805,IMP-2,bogus\n'
    await page.getByLabel('File (CSV or JSON)').setInputFiles({ name: 'parts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    await expect.poll(() => page.getByText(/detected CSV, 2 rows/).isVisible()).toBe(true)
    await check('import-preview')
  })

  for (const [name, path, heading] of [
    ['import', '/import', /Import/],
    ['bulk', '/bulk', /Bulk/],
    ['kicad', '/kicad', /KiCad/],
    ['locations', '/locations', /Locations/],
    ['templates', '/templates', /Parameter/],
    ['settings', '/settings', /Settings/],
    ['users', '/users', /Users/],
    ['tokens', '/tokens', /token/i],
    ['audit', '/audit', /Audit/],
  ] as const) {
    it(name, async () => {
      await page.goto(`${e.base}/#${path}`)
      await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toMatch(heading)
      await check(name)
    })
  }
})
