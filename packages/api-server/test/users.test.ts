import { describe, expect, it } from 'vitest'
import { PASSWORD } from './accounts'
import { useTestApi } from './harness'

/** Accounts (admins) and server settings. Keyless loopback mode: the caller is the local admin until an account exists. */
const api = useTestApi({ app: { credentialCacheMs: 1 } })

describe('users', () => {
  it('creates, lists, gets and changes accounts; never shows a password hash', async () => {
    const ada = await api.ok('POST', '/api/users', { username: 'Ada', password: PASSWORD, role: 'admin', displayName: 'Ada Lovelace' }, 201)
    expect(ada).toMatchObject({ username: 'ada', displayName: 'Ada Lovelace', role: 'admin', disabled: false, lastLoginAt: null, version: 1 })
    // From now on credentials: sign in as ada.
    const login = await api.call('POST', '/api/auth/login', { body: { username: 'ada', password: PASSWORD } })
    const cookie = { cookie: login.headers.get('set-cookie')!.split(';')[0]! }
    const bob = await api.call('POST', '/api/users', { headers: cookie, body: { username: 'bob', password: PASSWORD, role: 'viewer' } })
    expect(bob.status).toBe(201)
    expect(bob.body.displayName).toBe('bob')
    const dup = await api.call('POST', '/api/users', { headers: cookie, body: { username: 'BOB', password: PASSWORD, role: 'viewer' } })
    expect(dup.status).toBe(409)
    const short = await api.call('POST', '/api/users', { headers: cookie, body: { username: 'cy', password: 'short', role: 'viewer' } })
    expect(short.status).toBe(400)
    expect(short.body.errors[0].path).toBe('body.password')
    const list = await api.call('GET', '/api/users', { headers: cookie })
    expect(list.body.map((u: { username: string }) => u.username)).toEqual(['ada', 'bob'])
    expect(list.text).not.toMatch(/scrypt|passwordHash/)
    const got = await api.call('GET', `/api/users/${bob.body.id}`, { headers: cookie })
    expect(got.body).toMatchObject({ username: 'bob', role: 'viewer' })
    expect(got.headers.get('etag')).toBe('"1"')
    const patched = await api.call('PATCH', `/api/users/${bob.body.id}`, { headers: cookie, body: { role: 'editor', displayName: 'Bob B.' } })
    expect(patched.body).toMatchObject({ role: 'editor', displayName: 'Bob B.', version: 2 })
    const audit = await api.storage.audit.list({ limit: 10, action: 'patchUser' })
    expect(audit.items[0]).toMatchObject({ actor: { kind: 'user', name: 'ada' }, channel: 'web', details: { role: { from: 'viewer', to: 'editor' } } })
    // A reset by an admin: bob signs in with the new password only.
    await api.call('PATCH', `/api/users/${bob.body.id}`, { headers: cookie, body: { password: 'reset by ada 123' } })
    expect((await api.call('POST', '/api/auth/login', { body: { username: 'bob', password: PASSWORD } })).status).toBe(401)
    expect((await api.call('POST', '/api/auth/login', { body: { username: 'bob', password: 'reset by ada 123' } })).status).toBe(200)
    expect(JSON.stringify(await api.storage.audit.list({ limit: 100 }))).not.toContain('reset by ada 123')
  })

  it('keeps the last enabled admin: it cannot be demoted or disabled', async () => {
    const ada = await api.ok('POST', '/api/users', { username: 'ada', password: PASSWORD, role: 'admin' }, 201)
    const login = await api.call('POST', '/api/auth/login', { body: { username: 'ada', password: PASSWORD } })
    const cookie = { cookie: login.headers.get('set-cookie')!.split(';')[0]! }
    for (const body of [{ role: 'editor' }, { disabled: true }]) {
      const res = await api.call('PATCH', `/api/users/${ada.id}`, { headers: cookie, body })
      expect(res.status).toBe(409)
    }
    expect((await api.storage.users.get(ada.id)).version).toBe(1)
  })
})

describe('settings', () => {
  it('are read and changed by admins, with defaults until then', async () => {
    expect(await api.ok('GET', '/api/settings')).toMatchObject({ auditRetentionDays: null, outbound: { blockMetadata: true, allowedHosts: [] } })
    const changed = await api.ok('PATCH', '/api/settings', { auditRetentionDays: 365, outbound: { blockMetadata: true, allowedHosts: ['10.0.0.0/8'] } })
    expect(changed).toMatchObject({ auditRetentionDays: 365, outbound: { allowedHosts: ['10.0.0.0/8'] } })
    expect((await api.call('PATCH', '/api/settings', { body: { auditRetentionDays: 0 } })).status).toBe(400)
  })
})
