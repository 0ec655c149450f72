import type { Role, Storage } from '@complib/core'
import { describe, expect, it } from 'vitest'
import { ROLE_PERMISSIONS, type Permission } from '../src/auth/permissions'
import { addToken, addUser, bearer } from './accounts'
import { useTestApi } from './harness'

/**
 * Every operation of the OpenAPI document, called with no credential and with
 * a token of each role: allowed calls answer as the route would (anything but
 * a refusal), the others 401 or 403 problem+json, and a refused call changes
 * nothing. The permission each operation needs is read from the document
 * (`x-permission`), which routes declare: one without it fails here.
 */
// Accounts are made straight in the storage before the first request, so the server knows of them from its first answer.
const api = useTestApi()

type Caller = { name: string; role: Role | null; headers: Record<string, string> }

async function _callers(storage: Storage): Promise<Caller[]> {
  const admin = await addUser(storage, 'ada', 'admin')
  const editor = await addUser(storage, 'ed', 'editor')
  const viewer = await addUser(storage, 'vi', 'viewer')
  return [
    { name: 'no credential', role: null, headers: {} },
    { name: 'viewer', role: 'viewer', headers: bearer(await addToken(storage, viewer, 'read')) },
    { name: 'editor', role: 'editor', headers: bearer(await addToken(storage, editor, 'write')) },
    { name: 'admin', role: 'admin', headers: bearer(await addToken(storage, admin, 'admin')) },
    // A token acts with its scope met with its owner's role: a viewer's admin-scope token is a viewer's.
    { name: "viewer's admin-scope token", role: 'viewer', headers: bearer(await addToken(storage, viewer, 'admin')) },
    // And an admin's read token is a viewer's.
    { name: "admin's read token", role: 'viewer', headers: bearer(await addToken(storage, admin, 'read')) },
  ]
}

/** What a refused call must leave as it was: everything but the audit trail (where the refusal goes). */
async function _fingerprint(storage: Storage): Promise<string> {
  const [stats, changes, users, tokens, settings, connectors] = await Promise.all([
    storage.stats(),
    storage.components.changes(0, 100_000),
    storage.users.list({ limit: 1000 }),
    storage.tokens.list({ limit: 1000 }),
    storage.settings.get(),
    storage.connectors.list({ limit: 1000 }),
  ])
  // The database's size moves with the audit trail (and, on PostgreSQL, with everything else in the database).
  const { databaseBytes: _size, ...counts } = stats
  return JSON.stringify({ stats: counts, lastSeq: changes.lastSeq, users: users.items.map((u) => [u.id, u.version, u.role, u.disabled]), tokens: tokens.items.map((t) => t.id), settings, connectors: connectors.items.map((c) => [c.id, c.version]) })
}

describe('permissions', () => {
  it('every operation declares a permission, and answers each role and no credential as its permission says', async () => {
    const callers = await _callers(api.storage)
    // Something to act on, so that allowed calls reach real records.
    const component = await api.storage.components.create({ name: 'R 10k' })
    const doc = (await api.call('GET', '/api/docs', { headers: callers[3]!.headers })).body as { paths: Record<string, Record<string, { operationId: string; 'x-permission'?: Permission }>> }
    let operations = 0
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const permission = op['x-permission']
        expect(permission, `${op.operationId} declares no permission`).toBeDefined()
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'id' && template.startsWith('/api/components/') ? component.id : 'x'))
        const body = ['post', 'put', 'patch'].includes(method) ? {} : undefined
        const allowed = (caller: Caller) => permission === 'public' || (caller.role !== null && ROLE_PERMISSIONS[caller.role].has(permission!))
        const call = async (caller: Caller) => {
          const res = await api.call(method.toUpperCase(), path, { headers: caller.headers, ...(body ? { body } : {}) })
          return { res, what: `${method.toUpperCase()} ${template} (${op.operationId}, ${permission}) as ${caller.name} → ${res.status} ${res.text.slice(0, 200)}` }
        }
        // The refused callers first, between two fingerprints of the library: a change any of them made shows.
        const before = await _fingerprint(api.storage)
        for (const caller of callers.filter((c) => !allowed(c))) {
          const { res, what } = await call(caller)
          expect(res.status, what).toBe(caller.role === null ? 401 : 403)
        }
        expect(await _fingerprint(api.storage), `${op.operationId}: a refused call changed the library`).toBe(before)
        for (const caller of callers.filter(allowed)) {
          const { res, what } = await call(caller)
          expect(res.status, what).not.toBe(401)
          // A 403 an allowed caller may still get is the route's own (a token changing a password), never the permission's.
          if (res.status === 403) expect(res.body.detail, what).not.toMatch(/needs the permission/)
        }
        operations++
      }
    }
    expect(operations).toBeGreaterThan(120)
  }, 120_000)

  it('refusals are recorded in the audit trail without the credential', async () => {
    const callers = await _callers(api.storage)
    const viewer = callers[1]!
    expect((await api.call('POST', '/api/tags', { headers: viewer.headers, body: { name: 'x' } })).status).toBe(403)
    expect((await api.call('GET', '/api/tags')).status).toBe(401)
    const entries = await api.storage.audit.list({ limit: 100, action: 'auth.refused' })
    expect(entries.items.map((e) => [e.actor.kind, e.details?.status])).toEqual(expect.arrayContaining([['token', 403], ['anonymous', 401]]))
    const token = viewer.headers.authorization!.slice('Bearer '.length)
    expect(JSON.stringify(entries.items)).not.toContain(token)
  })
})
