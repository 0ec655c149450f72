import { describe, expect, it } from 'vitest'
import { PASSWORD, addToken, addUser, bearer } from './accounts'
import { useTestApi } from './harness'

/** API tokens (decision 1503): shown once, stored hashed, scope met with the owner's role now. */
const api = useTestApi({ app: { credentialCacheMs: 1 } })

async function _session(username: string): Promise<Record<string, string>> {
  const res = await api.call('POST', '/api/auth/login', { body: { username, password: PASSWORD } })
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]! }
}

describe('API tokens', () => {
  it('are shown once, stored as a hash, listed without the secret, and work as Bearer and as Token (KiCad)', async () => {
    const ada = await addUser(api.storage, 'ada', 'editor')
    const session = await _session('ada')
    const created = await api.call('POST', '/api/tokens', { headers: session, body: { name: 'KiCad', scope: 'read' } })
    expect(created.status).toBe(201)
    const token = created.body.token as string
    expect(token).toMatch(/^clt_[A-Za-z0-9_-]{43}$/)
    expect(created.body).toMatchObject({ name: 'KiCad', scope: 'read', owner: { id: ada.id, username: 'ada' }, prefix: token.slice(0, 8), lastUsedAt: null })
    const listed = await api.call('GET', '/api/tokens', { headers: session })
    expect(listed.body).toHaveLength(1)
    expect(listed.text).not.toContain(token)
    expect(listed.body[0]).not.toHaveProperty('token')
    // Read scope: reads, KiCad's form of the header included; no writes.
    expect((await api.call('GET', '/api/kicad/v1/categories.json', { headers: { authorization: `Token ${token}` } })).status).toBe(200)
    expect((await api.call('GET', '/api/components', { headers: bearer(token) })).status).toBe(200)
    expect((await api.call('POST', '/api/tags', { headers: bearer(token), body: { name: 'x' } })).status).toBe(403)
    // Last use is kept.
    await new Promise((r) => setTimeout(r, 50))
    expect((await api.storage.tokens.get(created.body.id)).lastUsedAt).not.toBeNull()
    // Revoked: refused at once.
    expect((await api.call('DELETE', `/api/tokens/${created.body.id}`, { headers: session })).status).toBe(204)
    expect((await api.call('GET', '/api/components', { headers: bearer(token) })).status).toBe(401)
    const audit = await api.storage.audit.list({ limit: 50 })
    expect(audit.items.map((e) => e.action)).toEqual(expect.arrayContaining(['createToken', 'revokeToken']))
    expect(JSON.stringify(audit.items)).not.toContain(token)
  })

  it('never give more than the caller has, and lose rights when their owner is demoted', async () => {
    const admin = await addUser(api.storage, 'root', 'admin')
    const adminToken = bearer(await addToken(api.storage, admin, 'admin'))
    const ed = await addUser(api.storage, 'ed', 'editor')
    const session = await _session('ed')
    // An editor cannot make an admin token.
    const tooMuch = await api.call('POST', '/api/tokens', { headers: session, body: { name: 'x', scope: 'admin' } })
    expect(tooMuch.status).toBe(403)
    // A read token cannot make a write token.
    const read = bearer(await addToken(api.storage, ed, 'read'))
    expect((await api.call('POST', '/api/tokens', { headers: read, body: { name: 'y', scope: 'write' } })).status).toBe(403)
    expect((await api.call('POST', '/api/tokens', { headers: read, body: { name: 'y', scope: 'read' } })).status).toBe(201)
    // A write token writes, until its owner is made a viewer.
    const write = bearer(await addToken(api.storage, ed, 'write'))
    expect((await api.call('POST', '/api/tags', { headers: write, body: { name: 'before' } })).status).toBe(201)
    expect((await api.call('PATCH', `/api/users/${ed.id}`, { headers: adminToken, body: { role: 'viewer' } })).status).toBe(200)
    expect((await api.call('POST', '/api/tags', { headers: write, body: { name: 'after' } })).status).toBe(403)
    // Expiry in the past is refused at creation.
    const past = await api.call('POST', '/api/tokens', { headers: adminToken, body: { name: 'old', scope: 'read', expiresAt: '2020-01-01T00:00:00.000Z' } })
    expect([400, 403]).toContain(past.status)
  })

  it("lists everyone's tokens only for admins, and hides others' tokens from a non-admin revoke", async () => {
    const admin = await addUser(api.storage, 'root', 'admin')
    const ed = await addUser(api.storage, 'ed', 'editor')
    const vi = await addUser(api.storage, 'vi', 'viewer')
    await addToken(api.storage, ed, 'write')
    const viToken = bearer(await addToken(api.storage, vi, 'read'))
    expect((await api.call('GET', '/api/tokens?all=true', { headers: viToken })).status).toBe(403)
    const all = await api.call('GET', '/api/tokens?all=true', { headers: await _session('root') })
    expect(all.body.map((t: { owner: { username: string } }) => t.owner.username).sort()).toEqual(['ed', 'vi'])
    const edTokenId = all.body.find((t: { owner: { username: string } }) => t.owner.username === 'ed').id
    expect((await api.call('DELETE', `/api/tokens/${edTokenId}`, { headers: viToken })).status).toBe(404)
    void admin
  })
})
