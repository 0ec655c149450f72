import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, expectAccessible, screenshot, startE2E, type E2E } from './harness'

const KEY = 'kpL9-3vQ-reel-of-resistors'

// A server started with --api-key (as it must be off loopback) answers 401 to the API
// without the key: the page asks for it, keeps it for the tab only, and says when it is wrong.
describe.skipIf(!browserAvailable())('the API key prompt in Chromium', () => {
  let e: E2E
  beforeAll(async () => {
    e = await startE2E({ apiKey: KEY })
  })
  afterAll(async () => {
    await e?.close()
  })

  it('asks for the key before showing anything of the library', async () => {
    const { page } = e
    await page.goto(`${e.base}/`)
    await expect.poll(() => page.getByRole('heading', { name: 'complib needs the API key' }).isVisible()).toBe(true)
    await expectAccessible(page, 'API key prompt')
    await screenshot(page, 'api-key')
  })

  it('says plainly when the key is wrong', async () => {
    const { page } = e
    await page.getByLabel('API key').fill('not-the-key')
    await page.getByRole('button', { name: 'Use this key' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^Wrong API key: the server refused it \(401\)/)
    expect(await page.evaluate(() => sessionStorage.getItem('complib.apiKey'))).toBeNull()
  })

  it('with the right key, works (writes included: same origin) and keeps it in sessionStorage only', async () => {
    const { page } = e
    await page.getByLabel('API key').fill(KEY)
    await page.getByRole('button', { name: 'Use this key' }).click()
    await expect.poll(() => page.getByText('0 components').isVisible()).toBe(true)
    await page.getByRole('link', { name: 'New component' }).click()
    await page.getByLabel('Name').fill('Keyed part')
    await page.getByRole('button', { name: 'Create component' }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Keyed part')
    expect(await page.evaluate(() => [sessionStorage.getItem('complib.apiKey'), JSON.stringify(localStorage)])).toEqual([KEY, '{}'])
    // A reload in the same tab keeps it; a new tab asks again.
    await page.reload()
    await expect.poll(() => page.getByLabel('Name').inputValue()).toBe('Keyed part')
    const other = await e.context.newPage()
    await other.goto(`${e.base}/`)
    await expect.poll(() => other.getByRole('heading', { name: 'complib needs the API key' }).isVisible()).toBe(true)
    await other.close()
  })
})
