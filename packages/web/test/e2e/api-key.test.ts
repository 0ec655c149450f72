import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, expectAccessible, screenshot, startE2E, type E2E } from './harness'

const KEY = 'kpL9-3vQ-reel-of-resistors'

// A server started with --api-key (as it must be off loopback) answers 401 to the API
// without a credential: the page asks to sign in, and offers the key (or a token)
// instead, kept for the tab only, saying when it is wrong.
describe.skipIf(!browserAvailable())('the API key on the sign-in page in Chromium', () => {
  let e: E2E
  beforeAll(async () => {
    e = await startE2E({ apiKey: KEY })
  })
  afterAll(async () => {
    await e?.close()
  })

  it('asks to sign in before showing anything of the library, and takes a key instead on request', async () => {
    const { page } = e
    await page.goto(`${e.base}/`)
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to complib' }).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Use an API key or token instead' }).click()
    await expectAccessible(page, 'API key on the sign-in page')
    await screenshot(page, 'api-key')
  })

  it('says plainly when the key is wrong', async () => {
    const { page } = e
    await page.getByLabel('API key or token').fill('not-the-key')
    await page.getByRole('button', { name: 'Use this key' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^Wrong key or token: the server refused it \(401\)/)
    expect(await page.evaluate(() => sessionStorage.getItem('complib.apiKey'))).toBeNull()
  })

  it('with the right key, works (writes included: same origin) and keeps it in sessionStorage only', async () => {
    const { page } = e
    await page.getByLabel('API key or token').fill(KEY)
    await page.getByRole('button', { name: 'Use this key' }).click()
    await expect.poll(() => page.getByText('0 components', { exact: true }).isVisible()).toBe(true)
    // The key acts as an admin that is no account: no one to sign out, no password to change.
    expect(await page.locator('.user-menu summary').innerText()).toBe('api-key admin')
    await page.getByRole('link', { name: 'New component' }).click()
    await page.getByLabel('Name').fill('Keyed part')
    await page.getByRole('button', { name: 'Create component' }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Keyed part')
    const [kept, stored] = await page.evaluate(() => [sessionStorage.getItem('complib.apiKey'), JSON.stringify(localStorage)])
    expect(kept).toBe(KEY)
    // localStorage keeps only the table's layout (decision 1412), never the key.
    expect(Object.keys(JSON.parse(stored!) as object).filter((k) => k !== 'complib.library.view')).toEqual([])
    expect(stored).not.toContain(KEY)
    // A reload in the same tab keeps it; a new tab asks again.
    await page.reload()
    await expect.poll(() => page.getByLabel('Name').inputValue()).toBe('Keyed part')
    const other = await e.context.newPage()
    await other.goto(`${e.base}/`)
    await expect.poll(() => other.getByRole('heading', { name: 'Sign in to complib' }).isVisible()).toBe(true)
    await other.close()
  })
})
