import { describe, expect, it } from 'vitest'
import { addToken, addUser, bearer } from './accounts'
import { useTestApi } from './harness'

/** The audit trail, component history attribution and revert (decisions 1506 and 1507). */
const api = useTestApi({ app: { credentialCacheMs: 1 } })

describe('who changed what, how and why', () => {
  it('records the actor, channel and comment of a write in history and in the audit trail', async () => {
    const ed = await addUser(api.storage, 'ed', 'editor')
    const admin = await addUser(api.storage, 'root', 'admin')
    const token = bearer(await addToken(api.storage, ed, 'write'))
    const created = await api.call('POST', '/api/components', { headers: { ...token, 'complib-comment': 'first of the 0603 series' }, body: { name: 'R 10k' } })
    expect(created.status).toBe(201)
    const id = created.body.id as string
    // A comment in UTF-8, percent-encoded as a header must carry it.
    const comment = 'Wert geändert — 10 kΩ'
    expect((await api.call('PATCH', `/api/components/${id}`, { headers: { ...token, 'complib-comment': encodeURIComponent(comment) }, body: { name: 'R 10k 1%' } })).status).toBe(200)
    const history = (await api.call('GET', `/api/components/${id}/history`, { headers: token })).body
    expect(history[0]).toMatchObject({ version: 2, actor: { kind: 'token', id: expect.stringMatching(/^tok_/), name: 'ed (token write token)' }, channel: 'api', comment, revertedTo: null })
    expect(history[1]).toMatchObject({ version: 1, comment: 'first of the 0603 series' })
    const audit = (await api.call('GET', `/api/audit?targetId=${id}`, { headers: bearer(await addToken(api.storage, admin, 'admin')) })).body
    expect(audit.map((e: { action: string }) => e.action)).toEqual(['patchComponent', 'createComponent'])
    expect(audit[0]).toMatchObject({ comment, channel: 'api', target: { type: 'component', id }, details: { status: 200 } })
  })

  it('refuses a comment with a line break or over 1,000 characters, changing nothing', async () => {
    const component = await api.storage.components.create({ name: 'C 100n' })
    for (const bad of ['two%0Alines', 'x'.repeat(1001), 'tab%09inside']) {
      const res = await api.call('PATCH', `/api/components/${component.id}`, { headers: { 'complib-comment': bad }, body: { name: 'changed' } })
      expect(res.status, bad).toBe(400)
      expect(res.body.errors[0].path).toBe('header.complib-comment')
    }
    expect((await api.storage.components.get(component.id)).version).toBe(1)
  })

  it('chains entries by hash, verifies them, and prunes as an entry of its own', async () => {
    await api.ok('POST', '/api/tags', { name: 'a' }, 201)
    await api.ok('POST', '/api/tags', { name: 'b' }, 201)
    expect(await api.ok('GET', '/api/audit/verify')).toMatchObject({ intact: true, brokenAt: null })
    const entries = await api.ok('GET', '/api/audit')
    expect(entries[0].prevHash).toBe(entries[1].hash)
    const pruned = await api.ok('POST', '/api/audit/prune', { before: new Date(Date.now() + 1000).toISOString() })
    expect(pruned.removed).toBeGreaterThanOrEqual(2)
    expect(pruned.entry).toMatchObject({ action: 'audit.prune', actor: { kind: 'local' } })
    expect(await api.ok('GET', '/api/audit/verify')).toMatchObject({ intact: true })
    // No route changes or deletes an entry.
    expect((await api.call('DELETE', `/api/audit`)).status).toBe(405)
  })
})

describe('revert', () => {
  it('makes a component what it was at a version, as a new version that says so', async () => {
    const c = await api.ok('POST', '/api/components', { name: 'R 10k', ipn: 'R-1', tags: ['smd'] }, 201)
    await api.ok('PATCH', `/api/components/${c.id}`, { name: 'R 10k 1%', tags: ['smd', 'precision'], description: 'thin film' })
    const reverted = await api.call('POST', `/api/components/${c.id}/revert`, { body: { version: 1 }, headers: { 'complib-comment': 'the 1% part was a mistake' } })
    expect(reverted.status).toBe(200)
    expect(reverted.body).toMatchObject({ name: 'R 10k', tags: ['smd'], description: null, version: 3 })
    expect(reverted.headers.get('etag')).toBe('"3"')
    const [latest] = await api.ok('GET', `/api/components/${c.id}/history`)
    expect(latest).toMatchObject({ version: 3, revertedTo: 1, comment: 'the 1% part was a mistake', actor: { kind: 'local' } })
  })

  it('answers 409 naming the ipn when it was taken since, and changes nothing', async () => {
    const c = await api.ok('POST', '/api/components', { name: 'R 10k', ipn: 'R-1' }, 201)
    await api.ok('PATCH', `/api/components/${c.id}`, { ipn: 'R-2' })
    await api.ok('POST', '/api/components', { name: 'other', ipn: 'R-1' }, 201)
    const res = await api.call('POST', `/api/components/${c.id}/revert`, { body: { version: 1 } })
    expect(res.status).toBe(409)
    expect(res.body.errors[0].path).toMatch(/ipn/)
    expect((await api.storage.components.get(c.id)).version).toBe(2)
    expect((await api.call('POST', `/api/components/${c.id}/revert`, { body: { version: 99 } })).status).toBe(404)
  })
})

describe('retention', () => {
  it('prunes entries older than the retention setting, as an entry of its own, and does nothing without one', async () => {
    const { pruneAuditTrail } = await import('../src/auth/housekeeping')
    await api.ok('POST', '/api/tags', { name: 'old' }, 201)
    expect(await pruneAuditTrail(api.storage, Date.now() + 400 * 86_400_000)).toBe(0)
    await api.ok('PATCH', '/api/settings', { auditRetentionDays: 365 })
    // A year and more from now, both entries are past the retention.
    expect(await pruneAuditTrail(api.storage, Date.now() + 400 * 86_400_000)).toBe(2)
    const [latest] = (await api.storage.audit.list({ limit: 1 })).items
    expect(latest).toMatchObject({ action: 'audit.prune', actor: { kind: 'system', name: 'retention' } })
    expect((await api.storage.audit.verify()).intact).toBe(true)
  })
})

describe('housekeeping', () => {
  it('removes sign-in sessions that have ended, and keeps live ones', async () => {
    const { housekeeping } = await import('../src/auth/housekeeping')
    const { addUser } = await import('./accounts')
    const user = await addUser(api.storage, 'ada', 'viewer')
    const at = (ms: number) => new Date(Date.now() + ms).toISOString()
    await api.storage.authSessions.create({ idHash: 'a'.repeat(64), userId: user.id, createdAt: at(-60_000), expiresAt: at(-1000) })
    await api.storage.authSessions.create({ idHash: 'b'.repeat(64), userId: user.id, createdAt: at(0), expiresAt: at(86_400_000) })
    await housekeeping(api.storage, 3_600_000, () => {})
    // What is left of the user's sessions: the live one only.
    expect(await api.storage.authSessions.deleteForUser(user.id)).toBe(1)
  })
})
