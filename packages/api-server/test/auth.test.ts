import { describe, expect, it } from 'vitest'
import { FREE_FAILURES } from '../src/auth/login-throttle'
import { PASSWORD, addToken, addUser, bearer } from './accounts'
import { useTestApi } from './harness'

/** Sign-in sessions, keyless mode and the bootstrap key (decisions 1504 and 1505). */
const api = useTestApi({ app: { credentialCacheMs: 1 } })

/** The session cookie a sign-in answered, as a Cookie header. */
function _cookie(setCookie: string | null): Record<string, string> {
  expect(setCookie).toMatch(/^complib_session=[A-Za-z0-9_-]{43};/)
  return { cookie: setCookie!.split(';')[0]! }
}

async function _login(username: string, password = PASSWORD, headers: Record<string, string> = {}) {
  return api.call('POST', '/api/auth/login', { body: { username, password }, headers })
}

describe('keyless loopback mode', () => {
  it('needs no credential while no account exists, and one as soon as one does', async () => {
    const me = await api.ok('GET', '/api/auth/me')
    expect(me).toMatchObject({ user: null, role: 'admin', authRequired: false, actor: { kind: 'local', name: 'local' } })
    // The first account is made through the API by the local admin: from then on, credentials.
    await api.ok('POST', '/api/users', { username: 'ada', password: PASSWORD, role: 'admin' }, 201)
    const refused = await api.call('GET', '/api/components')
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toContain('Bearer')
    expect((await api.call('GET', '/api/health')).status).toBe(200)
  })
})

describe('sign-in sessions', () => {
  it('signs in with an HttpOnly SameSite cookie, answers me, and signs out', async () => {
    await addUser(api.storage, 'ada', 'editor')
    const res = await _login('Ada')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ user: { username: 'ada', role: 'editor' }, role: 'editor', authRequired: true })
    expect(res.body.permissions).toContain('library:write')
    expect(res.body.permissions).not.toContain('users:admin')
    const setCookie = res.headers.get('set-cookie')
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Lax/i)
    // Not over plain HTTP: a Secure cookie would never come back.
    expect(setCookie).not.toMatch(/Secure/i)
    const cookie = _cookie(setCookie)
    expect((await api.call('GET', '/api/auth/me', { headers: cookie })).body).toMatchObject({ user: { username: 'ada' }, actor: { kind: 'user', name: 'ada' } })
    // The session id is stored only as a hash.
    expect(JSON.stringify(await api.storage.audit.list({ limit: 100 }))).not.toContain(cookie.cookie!.split('=')[1])
    expect((await api.call('POST', '/api/auth/logout', { headers: cookie })).status).toBe(204)
    expect((await api.call('GET', '/api/auth/me', { headers: cookie })).status).toBe(401)
    const audit = await api.storage.audit.list({ limit: 100, action: 'auth.' })
    expect(audit.items.map((e) => e.action)).toContain('auth.login')
  })

  it('sets Secure behind a trusted proxy that says TLS, and not when the proxy is not trusted', async () => {
    await addUser(api.storage, 'ada', 'viewer')
    expect((await _login('ada', PASSWORD, { 'x-forwarded-proto': 'https' })).headers.get('set-cookie')).not.toMatch(/Secure/i)
    const trusted = await (await import('./harness')).createTestApi({ app: { trustProxy: true } })
    try {
      await addUser(trusted.storage, 'ada', 'viewer')
      const res = await trusted.call('POST', '/api/auth/login', { body: { username: 'ada', password: PASSWORD }, headers: { 'x-forwarded-proto': 'https' } })
      expect(res.headers.get('set-cookie')).toMatch(/Secure/i)
    } finally {
      await trusted.close()
    }
  })

  it('refuses a wrong password, an unknown user and a disabled account alike, records each, and slows guessing with 429', async () => {
    const user = await addUser(api.storage, 'ada', 'editor')
    expect((await _login('ada', 'not-the-Password-42')).status).toBe(401)
    expect((await _login('nobody')).status).toBe(401)
    await api.storage.users.update(user.id, { disabled: true })
    const disabled = await _login('ada')
    expect(disabled.status).toBe(401)
    expect(disabled.body.detail).toMatch(/disabled/)
    const failed = await api.storage.audit.list({ limit: 100, action: 'auth.login-failed' })
    expect(failed.items.map((e) => e.details?.reason).sort()).toEqual(['account disabled', 'unknown user', 'wrong password'])
    // The password tried is never recorded.
    expect(JSON.stringify(failed.items)).not.toContain('not-the-Password-42')
    await api.storage.users.update(user.id, { disabled: false })
    // Per account and per client: this client has failed three times already, so the fifth failure in all slows it.
    let status = 401
    let tries = 0
    while (status === 401 && tries < 10) status = (await _login('ada', `guess ${tries++} of many`)).status
    expect(status).toBe(429)
    expect(tries).toBeLessThanOrEqual(FREE_FAILURES)
    // While slowed, even the right password waits.
    const slowed = await _login('ada')
    expect(slowed.status).toBe(429)
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('ends every session of an account when it is disabled or its password reset, and the caller’s others on a password change', async () => {
    const admin = await addUser(api.storage, 'root', 'admin')
    const adminToken = bearer(await addToken(api.storage, admin, 'admin'))
    const user = await addUser(api.storage, 'ada', 'editor')
    const first = _cookie((await _login('ada')).headers.get('set-cookie'))
    const second = _cookie((await _login('ada')).headers.get('set-cookie'))
    // A change of one's own password keeps the session it was made in (a new cookie) and ends the others.
    const changed = await api.call('POST', '/api/auth/password', { headers: first, body: { currentPassword: PASSWORD, newPassword: 'a whole new phrase' } })
    expect(changed.status).toBe(204)
    const renewed = _cookie(changed.headers.get('set-cookie'))
    expect((await api.call('GET', '/api/auth/me', { headers: second })).status).toBe(401)
    expect((await api.call('GET', '/api/auth/me', { headers: renewed })).status).toBe(200)
    // A wrong current password changes nothing.
    expect((await api.call('POST', '/api/auth/password', { headers: renewed, body: { currentPassword: 'not it at all', newPassword: 'another new phrase' } })).status).toBe(401)
    // A token cannot change a password.
    const token = bearer(await addToken(api.storage, user, 'write'))
    expect((await api.call('POST', '/api/auth/password', { headers: token, body: { currentPassword: 'a whole new phrase', newPassword: 'x'.repeat(12) } })).status).toBe(403)
    // Disabled by an admin: the session ends at once, and the token stops working.
    expect((await api.call('PATCH', `/api/users/${user.id}`, { headers: adminToken, body: { disabled: true } })).status).toBe(200)
    expect((await api.call('GET', '/api/auth/me', { headers: renewed })).status).toBe(401)
    expect((await api.call('GET', '/api/components', { headers: token })).status).toBe(401)
  })

  it('ends a session after its idle time', async () => {
    const idle = await (await import('./harness')).createTestApi({ app: { sessionIdleMs: 1000, credentialCacheMs: 1 } })
    try {
      await addUser(idle.storage, 'ada', 'viewer')
      const res = await idle.call('POST', '/api/auth/login', { body: { username: 'ada', password: PASSWORD } })
      const cookie = _cookie(res.headers.get('set-cookie'))
      expect((await idle.call('GET', '/api/auth/me', { headers: cookie })).status).toBe(200)
      await new Promise((r) => setTimeout(r, 2500))
      expect((await idle.call('GET', '/api/auth/me', { headers: cookie })).status).toBe(401)
    } finally {
      await idle.close()
    }
  })
})

describe('bad credentials and input change nothing', () => {
  it('answers a malformed Authorization, an unknown token, an expired token and a huge password with 4xx problems', async () => {
    const user = await addUser(api.storage, 'ada', 'admin')
    expect((await api.call('GET', '/api/components', { headers: { authorization: 'Basic YWRhOng=' } })).status).toBe(401)
    expect((await api.call('GET', '/api/components', { headers: { authorization: 'Bearer' } })).status).toBe(401)
    expect((await api.call('GET', '/api/components', { headers: bearer(`clt_${'A'.repeat(43)}`) })).status).toBe(401)
    const expired = await addToken(api.storage, user, 'admin', new Date(Date.now() - 1000).toISOString())
    expect((await api.call('GET', '/api/components', { headers: bearer(expired) })).status).toBe(401)
    const big = await api.call('POST', '/api/auth/login', { body: { username: 'ada', password: 'x'.repeat(10 * 1024 * 1024) } })
    expect([400, 413]).toContain(big.status)
    const token = bearer(await addToken(api.storage, user, 'admin'))
    const before = await api.storage.users.count()
    const unknownRole = await api.call('POST', '/api/users', { headers: token, body: { username: 'bob', password: PASSWORD, role: 'owner' } })
    expect(unknownRole.status).toBe(400)
    expect(unknownRole.body.errors[0].path).toBe('body.role')
    expect(await api.storage.users.count()).toBe(before)
  })

  it('keeps the API key as a bootstrap admin without an account', async () => {
    const keyed = await (await import('./harness')).createTestApi({ app: { apiKey: 'bootstrap-key-0123456789' } })
    try {
      expect((await keyed.call('GET', '/api/components')).status).toBe(401)
      const me = await keyed.call('GET', '/api/auth/me', { headers: bearer('bootstrap-key-0123456789') })
      expect(me.body).toMatchObject({ user: null, role: 'admin', actor: { kind: 'api-key' } })
      const created = await keyed.call('POST', '/api/users', { headers: bearer('bootstrap-key-0123456789'), body: { username: 'ada', password: PASSWORD, role: 'admin' } })
      expect(created.status).toBe(201)
      // Tokens belong to accounts: the key has none.
      expect((await keyed.call('POST', '/api/tokens', { headers: bearer('bootstrap-key-0123456789'), body: { name: 'x', scope: 'read' } })).status).toBe(403)
    } finally {
      await keyed.close()
    }
  })
})

describe('the API key', () => {
  it('may not have the form of a token, which would be checked as one', async () => {
    const { createAuthenticator } = await import('../src/auth/authenticator')
    expect(() => createAuthenticator({ storage: api.storage, apiKey: `clt_${'k'.repeat(43)}`, alwaysRequired: true })).toThrow(/form of a token/)
    expect(() => createAuthenticator({ storage: api.storage, apiKey: 'an ordinary key', alwaysRequired: true })).not.toThrow()
  })
})
