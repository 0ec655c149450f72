import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, expectAccessible, screenshot, startE2E, type E2E } from './harness'

const KEY = 'kicad-settings-key-81d2'
const ADMIN = { username: 'ada', displayName: 'Ada Admin', password: 'keeps-the-keys-7', role: 'admin' }
const VIEWER = { username: 'vic', displayName: 'Vic Viewer', password: 'read-only-reels', role: 'viewer' }
const SIGN_IN = { timeout: 8000 }

/**
 * The KiCad settings on the KiCad screen (decision 1419): an admin renames and
 * shows fields and adds a parameter rule, the preview shows the part as KiCad
 * will get it before the save, a name KiCad keeps for itself is refused at its field; a
 * viewer sees the same settings and cannot change them.
 */
describe.skipIf(!browserAvailable())('KiCad settings in Chromium', () => {
  let e: E2E
  let partId: string

  beforeAll(async () => {
    e = await startE2E({ apiKey: KEY })
    for (const user of [ADMIN, VIEWER]) expect((await _api('POST', '/api/users', user)).status).toBe(201)
    for (const type of [{ name: 'Tolerance', kind: 'text' }, { name: 'Power', kind: 'number', unit: 'W' }]) expect((await _api('POST', '/api/parameter-types', type)).status).toBe(201)
    const res = await _api('POST', '/api/components', {
      name: 'R 10k 0603',
      ipn: 'RES-00001',
      category: 'Passives/Resistors',
      parameters: [
        { type: 'Resistance', value: '10k', unit: 'Ω' },
        { type: 'Tolerance', value: '1%' },
        { type: 'Power', value: '0.1', unit: 'W' },
      ],
      mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' }],
    })
    partId = ((await res.json()) as { id: string }).id
  })
  afterAll(async () => {
    await e?.close()
  })

  function _api(method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(e.base + path, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  }

  async function signIn(page: Page, user: { username: string; password: string }) {
    await page.goto(`${e.base}/#/kicad`)
    await page.getByLabel('User name').fill(user.username)
    await page.getByLabel('Password').fill(user.password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'What KiCad gets' }).isVisible(), SIGN_IN).toBe(true)
  }

  /** The preview table's rows as `name value shown|hidden`. */
  async function previewRows(page: Page): Promise<string[]> {
    const rows = page.getByRole('table', { name: 'Fields KiCad gets' }).locator('tbody tr')
    return (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())
  }

  it('an admin renames and shows fields, adds a parameter rule, and the preview shows what KiCad gets', async () => {
    const { page } = e
    await signIn(page, ADMIN)
    const form = page.getByRole('form', { name: 'KiCad settings' })
    await expect.poll(() => previewRows(page)).toContain('MPN RC0603FR-0710KL hidden')
    await form.getByLabel('Manufacturer part number field name').fill('Part number')
    await form.getByLabel('Show Internal part number').check()
    await form.getByLabel('Add a rule for').selectOption('Tolerance')
    await form.getByRole('button', { name: 'Add rule' }).click()
    await form.getByLabel('Tolerance field name').fill('Tol')
    await form.getByLabel('Show Tolerance').check()
    await form.getByLabel('Every other parameter').selectOption('omit')
    // The preview follows the settings on the page before they are saved.
    await expect.poll(() => previewRows(page)).toContain('Tol 1% shown')
    const before = (await (await _api('GET', `/api/kicad/v1/parts/${partId}.json`)).json()) as { fields: Record<string, unknown> }
    expect(before.fields.Tol).toBeUndefined()
    await form.getByRole('button', { name: 'Save KiCad settings' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Saved')
    const rows = await previewRows(page)
    expect(rows).toContain('Part number RC0603FR-0710KL hidden')
    expect(rows).toContain('IPN RES-00001 shown')
    expect(rows.some((r) => r.startsWith('Power') || r.startsWith('Resistance'))).toBe(false)
    // What KiCad itself is served agrees with the preview.
    const part = (await (await _api('GET', `/api/kicad/v1/parts/${partId}.json`)).json()) as { fields: Record<string, { value: string; visible: string }> }
    expect(part.fields.Tol).toEqual({ value: '1%', visible: 'True' })
    expect(part.fields.Power).toBeUndefined()
    await expectAccessible(page, 'KiCad')
    // The settings and the preview in one picture: a taller window, scrolled to the section.
    await page.setViewportSize({ width: 1360, height: 1200 })
    await page.getByRole('heading', { name: 'What KiCad gets' }).evaluate((h: { scrollIntoView(): void }) => h.scrollIntoView())
    await screenshot(page, 'kicad-settings')
    await page.setViewportSize({ width: 1360, height: 860 })
  })

  it('a name KiCad keeps for itself is refused at its field, and nothing is saved', async () => {
    const { page } = e
    const form = page.getByRole('form', { name: 'KiCad settings' })
    await form.getByLabel('Tolerance field name').fill('Datasheet')
    await form.getByRole('button', { name: 'Save KiCad settings' }).click()
    await expect.poll(() => form.getByLabel('Tolerance field name').getAttribute('aria-invalid')).toBe('true')
    const saved = (await (await _api('GET', '/api/settings/kicad')).json()) as { parameters: { rules: Array<{ name: string | null }> } }
    expect(saved.parameters.rules.map((r) => r.name)).toEqual(['Tol'])
  })

  it('a viewer sees the settings read-only', async () => {
    const context = await e.browser.newContext({ viewport: { width: 1360, height: 860 } })
    try {
      const page = await context.newPage()
      await signIn(page, VIEWER)
      const form = page.getByRole('form', { name: 'KiCad settings' })
      await expect.poll(() => form.getByLabel('Manufacturer part number field name').inputValue()).toBe('Part number')
      expect(await form.getByLabel('Manufacturer part number field name').isDisabled()).toBe(true)
      expect(await form.getByRole('button', { name: 'Save KiCad settings' }).count()).toBe(0)
      expect(await page.getByText('Only an admin changes these settings').isVisible()).toBe(true)
    } finally {
      await context.close()
    }
  })
})
