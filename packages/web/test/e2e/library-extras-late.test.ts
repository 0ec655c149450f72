import type { Route } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, startE2E, type E2E } from './harness'

/** The library's rows do not wait for their stock and images (GET /api/components/extras). */
describe.skipIf(!browserAvailable())('library rows before their extras, in Chromium', () => {
  let e: E2E
  beforeAll(async () => {
    e = await startE2E()
    const { components, locations } = e.server.storage
    const drawer = await locations.create({ name: 'Drawer A' })
    for (let i = 0; i < 12; i++) {
      const c = await components.create({ name: `Cap 100n #${String(i).padStart(2, '0')}`, category: 'Capacitors' })
      await locations.setStock(c.id, drawer.id, 1000 + i)
    }
  })
  afterAll(async () => {
    await e?.close()
  })

  it('draws the rows when their page arrives, with placeholders until the stock comes', async () => {
    const { page } = e
    // Hold every extras request until the rows have been checked.
    const held: Route[] = []
    let release = false
    await page.route('**/api/components/extras**', (route) => (release ? route.continue() : void held.push(route)))
    await page.goto(e.base + '/')
    await expect.poll(() => page.getByRole('link', { name: 'Cap 100n #00' }).isVisible()).toBe(true)
    expect(held.length, 'the extras were asked for').toBeGreaterThan(0)
    const row = page.getByRole('row', { name: /Cap 100n #00/ })
    // The stock cell holds a placeholder, not a number or "—" that could be read as none.
    expect(await row.locator('.pending').count()).toBe(1)
    expect(await row.textContent()).not.toContain('1,000')

    release = true
    for (const route of held.splice(0)) await route.continue()
    await expect.poll(() => row.textContent()).toContain('1,000')
    expect(await page.locator('.vrow .pending').count()).toBe(0)
    await page.unroute('**/api/components/extras**')
  })
})
