import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, expectAccessible, screenshot, startE2E, type E2E } from './harness'

const KEY = 'team-bootstrap-key-5f1c'
const EDITOR = { username: 'edna', displayName: 'Edna Editor', password: 'solder-bridge-42', role: 'editor' }
const VIEWER = { username: 'vic', displayName: 'Vic Viewer', password: 'read-only-reels', role: 'viewer' }
const ADMIN = { username: 'ada', displayName: 'Ada Admin', password: 'keeps-the-keys-7', role: 'admin' }

// A team on one server: accounts made with the bootstrap key, then people sign
// in through the page, which offers each only what their role may do; the API
// refuses the rest, and a page on another origin cannot use their session.
describe.skipIf(!browserAvailable())('sign-in, roles and history in Chromium', () => {
  let e: E2E
  let componentId: string
  let foreign: Server
  let foreignUrl: string

  beforeAll(async () => {
    e = await startE2E({ apiKey: KEY })
    for (const user of [EDITOR, VIEWER, ADMIN]) {
      const res = await _api('POST', '/api/users', user)
      expect(res.status, await res.clone().text()).toBe(201)
    }
    const created = await _api('POST', '/api/components', { name: 'Op amp', description: 'Dual op amp, DIP-8', tags: ['analog'] })
    componentId = ((await created.json()) as { id: string }).id
    // Another origin (another port): a page the signed-in browser may visit.
    foreign = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html')
      res.end(
        `<form method="post" action="${e.base}/api/components" enctype="text/plain">` +
          `<input type="hidden" name='{"name":"forged","x":"' value='"}'></form><script>document.forms[0].submit()</script>`,
      )
    })
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve))
    foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`
  })
  afterAll(async () => {
    await new Promise((resolve) => foreign?.close(resolve))
    await e?.close()
  })

  function _api(method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(e.base + path, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  }

  async function componentCount(): Promise<number> {
    return Number((await _api('GET', '/api/components?limit=1')).headers.get('x-total-count'))
  }

  async function signIn(user: { username: string; password: string }) {
    const { page } = e
    await page.getByLabel('User name').fill(user.username)
    await page.getByLabel('Password').fill(user.password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  }

  /** Signing in checks a password hash, slow on purpose: the page is waited for longer than expect.poll's default second. */
  const SIGN_IN = { timeout: 8000 }

  it('asks to sign in before showing anything, and says when the password is wrong', async () => {
    const { page } = e
    await page.goto(`${e.base}/`)
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to complib' }).isVisible()).toBe(true)
    expect(await page.getByRole('navigation', { name: 'Screens' }).count()).toBe(0)
    await expectAccessible(page, 'sign-in')
    await screenshot(page, 'sign-in')
    await signIn({ username: EDITOR.username, password: 'not-the-password' })
    await expect.poll(() => page.getByRole('alert').textContent(), SIGN_IN).toBe('wrong user name or password')
  })

  it('signs the editor in: their name and role in the header, the library with its write controls', async () => {
    const { page } = e
    await signIn(EDITOR)
    await expect.poll(() => page.getByText('1 component', { exact: true }).isVisible(), SIGN_IN).toBe(true)
    expect(await page.locator('.user-menu summary').innerText()).toBe('Edna Editor editor')
    expect(await page.getByRole('link', { name: 'New component' }).isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: 'Bulk edit' }).isVisible()).toBe(true)
    // Admin screens are not offered to an editor.
    for (const name of ['Users', 'Audit', 'Settings']) expect(await page.getByRole('link', { name, exact: true }).count(), name).toBe(0)
    // The session is an HttpOnly cookie: nothing of it in the page's storage, which keeps only the table's layout (decision 1412).
    const [key, stored] = await page.evaluate(() => [sessionStorage.getItem('complib.apiKey'), JSON.stringify(localStorage)])
    expect(key).toBeNull()
    expect(Object.keys(JSON.parse(stored!) as object).filter((k) => k !== 'complib.library.view')).toEqual([])
    expect(stored).not.toMatch(/session|token|password|clt_/i)
  })

  it('edits a component with a comment; the history names the editor, the channel and the comment, with a diff', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/components/${componentId}`)
    await page.getByLabel('Description').fill('Dual op amp, DIP-8, rail to rail')
    await page.getByLabel('Tags (comma separated)').fill('analog, rail-to-rail')
    await page.getByLabel('Comment for this change (optional)').fill('Datasheet rev C')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Saved version 2.')
    const v2 = page.locator('.history > li', { hasText: 'Version 2' })
    await expect.poll(() => v2.locator('div').first().innerText()).toMatch(/^Version 2 changed by edna · web · /)
    expect(await v2.locator('q.comment').innerText()).toBe('Datasheet rev C')
    expect(await page.getByRole('list', { name: 'Changes in version 2' }).innerText()).toBe(
      'Description: Dual op amp, DIP-8 → Dual op amp, DIP-8, rail to rail\nTags: analog → analog, rail-to-rail',
    )
    const entry = (await e.server.storage.components.history(componentId, { limit: 10 })).items[0]!
    expect(entry).toMatchObject({ version: 2, comment: 'Datasheet rev C', channel: 'web', actor: { kind: 'user', name: 'edna' } })
    // The comment box is emptied for the next save.
    expect(await page.getByLabel('Comment for this change (optional)').inputValue()).toBe('')
    await page.locator('.history-section').scrollIntoViewIfNeeded()
    await screenshot(page, 'history-diff')
  })

  it('restores the previous version with a comment: the fields come back, as a new version saying so', async () => {
    const { page } = e
    const v1 = page.locator('.history > li', { hasText: 'Version 1' })
    await v1.getByRole('button', { name: 'Restore this version' }).click()
    await v1.getByLabel('Why (optional)').fill('Rev C was withdrawn')
    await v1.getByRole('button', { name: 'Restore version 1' }).click()
    await expect.poll(() => page.getByLabel('Description').inputValue()).toBe('Dual op amp, DIP-8')
    expect(await page.getByLabel('Tags (comma separated)').inputValue()).toBe('analog')
    const v3 = page.locator('.history > li', { hasText: 'Version 3' })
    await expect.poll(() => v3.locator('.reverted').innerText()).toBe('Reverted to version 1')
    expect(await v3.locator('q.comment').innerText()).toBe('Rev C was withdrawn')
    expect(await page.getByRole('list', { name: 'Changes in version 3' }).innerText()).toBe(
      'Description: Dual op amp, DIP-8, rail to rail → Dual op amp, DIP-8\nTags: analog, rail-to-rail → analog',
    )
    expect(await e.server.storage.components.get(componentId)).toMatchObject({ version: 3, description: 'Dual op amp, DIP-8', tags: ['analog'] })
    await expectAccessible(page, 'component history')
  })

  it('makes an API token shown once, scoped at most to the editor’s role, and revokes it', async () => {
    const { page } = e
    await page.locator('.user-menu summary').click()
    await page.getByRole('link', { name: 'API tokens' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'API tokens', level: 1 }).isVisible()).toBe(true)
    expect(await page.getByLabel('Scope').locator('option').allTextContents()).toEqual(['read (as a viewer)', 'write (as an editor)'])
    await page.getByLabel('Name', { exact: true }).fill('KiCad on the bench')
    await page.getByLabel('Scope').selectOption('write')
    await page.getByRole('button', { name: 'Create token' }).click()
    const token = await page.getByLabel('The new token').inputValue()
    expect(token.length).toBeGreaterThan(20)
    // The token works, as the editor.
    const me = await fetch(`${e.base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })
    expect(await me.json()).toMatchObject({ role: 'editor', actor: { kind: 'token' } })
    const row = page.getByRole('row', { name: /KiCad on the bench/ })
    await expect.poll(() => row.innerText()).toContain('write')
    await expectAccessible(page, 'tokens')
    await screenshot(page, 'tokens')
    await row.getByRole('button', { name: 'Revoke KiCad on the bench' }).click()
    await expect.poll(() => page.getByText('No tokens yet.').isVisible()).toBe(true)
    expect((await fetch(`${e.base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401)
  })

  it('a page on another origin cannot write with the signed-in cookie', async () => {
    const { page } = e
    const before = (await componentCount())
    const answer = page.waitForResponse((r) => r.url() === `${e.base}/api/components` && r.request().method() === 'POST')
    await page.goto(foreignUrl)
    const res = await answer
    expect(res.status()).toBe(403)
    expect(((await res.json()) as { detail: string }).detail).toContain(`refused a request from a page at ${foreignUrl.slice(0, -1)}`)
    expect((await componentCount())).toBe(before)
    await page.goto(`${e.base}/`)
    await expect.poll(() => page.locator('.user-menu summary').innerText()).toBe('Edna Editor editor')
  })

  it('signs out, and the viewer signs in to find no control to create, edit, delete, import or bulk edit', async () => {
    const { page } = e
    await page.locator('.user-menu summary').click()
    await page.getByRole('button', { name: 'Sign out' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to complib' }).isVisible()).toBe(true)
    // The session ended on the server, not only in the page.
    await page.reload()
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to complib' }).isVisible()).toBe(true)

    await signIn(VIEWER)
    await expect.poll(() => page.getByText('1 component', { exact: true }).isVisible(), SIGN_IN).toBe(true)
    expect(await page.locator('.user-menu summary').innerText()).toBe('Vic Viewer viewer')
    for (const name of ['New component', 'Bulk edit', 'Users', 'Audit', 'Settings']) expect(await page.getByRole('link', { name, exact: true }).count(), name).toBe(0)
    expect(await page.getByRole('button', { name: /Select all|Clear selection/ }).count()).toBe(0)
    expect(await page.getByRole('checkbox').count()).toBe(0)

    await page.goto(`${e.base}/#/components/${componentId}`)
    await expect.poll(() => page.getByLabel('Name').inputValue()).toBe('Op amp')
    expect(await page.getByLabel('Name').getAttribute('readonly')).toBe('')
    for (const name of ['Save changes', 'Duplicate', 'Delete', 'Restore this version', 'Set stock', 'Add parameter', 'Discard changes']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0)
    }
    expect(await page.getByLabel(/Upload a file/).count()).toBe(0)
    expect(await page.getByLabel('Comment for this change (optional)').count()).toBe(0)
    // The history is there to read.
    await expect.poll(() => page.locator('.history > li').count()).toBe(3)

    await page.goto(`${e.base}/#/import`)
    await expect.poll(() => page.getByRole('heading', { name: 'Export', level: 1 }).isVisible()).toBe(true)
    expect(await page.getByRole('heading', { name: 'Import a file' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Download a full backup' }).count()).toBe(0)

    await page.goto(`${e.base}/#/components/new`)
    await expect.poll(() => page.getByRole('heading', { name: 'Not allowed' }).isVisible()).toBe(true)
  })

  it('the API refuses a write from the viewer’s session (403), whatever the page shows', async () => {
    const { page } = e
    const status = await page.evaluate(async () => {
      const res = await fetch('/api/components', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'sneaky' }) })
      return res.status
    })
    expect(status).toBe(403)
    expect((await componentCount())).toBe(1)
  })

  it('the admin runs the team: users, the audit trail and its chain, settings', async () => {
    const { page } = e
    await page.locator('.user-menu summary').click()
    await page.getByRole('button', { name: 'Sign out' }).click()
    await signIn(ADMIN)
    await expect.poll(() => page.getByRole('link', { name: 'Users', exact: true }).isVisible(), SIGN_IN).toBe(true)

    await page.getByRole('link', { name: 'Users', exact: true }).click()
    await page.getByLabel('User name', { exact: true }).fill('newbie')
    await page.getByRole('form', { name: 'New user' }).getByLabel('Role').selectOption('viewer')
    await page.getByLabel('Password', { exact: true }).fill('first-password-1')
    await page.getByRole('button', { name: 'Create user' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Created newbie (viewer).')
    await page.getByLabel('Role of newbie').selectOption('editor')
    await expect.poll(() => page.getByRole('status').textContent()).toBe('newbie is now editor.')
    await page.getByRole('row', { name: /newbie/ }).getByRole('button', { name: 'Disable' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('newbie is disabled.')
    expect(await (await _api('GET', '/api/users?limit=10')).json()).toEqual(expect.arrayContaining([expect.objectContaining({ username: 'newbie', role: 'editor', disabled: true })]))
    await expectAccessible(page, 'users')
    await screenshot(page, 'users')

    await page.getByRole('link', { name: 'Audit', exact: true }).click()
    const revert = page.getByRole('row', { name: /revertComponent/ })
    await expect.poll(() => revert.innerText()).toMatch(/edna \(user\)\tweb\trevertComponent\tcmp_\w+\tRev C was withdrawn/)
    await page.getByLabel('Action').fill('patchComponent')
    await page.getByRole('button', { name: 'Filter' }).click()
    await expect.poll(() => page.locator('tbody tr td:nth-child(5)').allInnerTexts()).toEqual(['patchComponent'])
    expect(await page.locator('tbody tr td:nth-child(7)').allInnerTexts()).toEqual(['Datasheet rev C'])
    await page.getByRole('button', { name: 'Verify chain' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/^Intact: \d+ entries checked/)
    await expectAccessible(page, 'audit')
    await screenshot(page, 'audit')

    await page.getByRole('link', { name: 'Settings', exact: true }).click()
    await page.getByLabel('Keep entries for (days)').fill('400')
    await page.getByLabel('Allowed hosts').fill('hooks.example.com\n10.0.0.0/8')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Saved.')
    expect(await (await _api('GET', '/api/settings')).json()).toMatchObject({ auditRetentionDays: 400, outbound: { blockMetadata: true, allowedHosts: ['hooks.example.com', '10.0.0.0/8'] } })
    await expectAccessible(page, 'settings')
  })
})
