import { randomBytes } from 'node:crypto'
import type { Storage } from '@complib/core'
import { createPostgresStorage } from '@complib/core/postgres'
import { createSqliteStorage } from '@complib/core/sqlite'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp } from '../src/app'
import { PASSWORD, addToken, addUser, bearer } from './accounts'

/**
 * Two servers over one library (on PostgreSQL, two connections pools to one
 * schema; on SQLite, two apps over one storage): a session started on one is
 * accepted by the other, and a revocation, a disable or a demotion made on one
 * takes effect at once there and within 5 s on the other (the credential cache,
 * default 2 s).
 */
const opened: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close()
})

async function _twoServers(): Promise<{ storage: Storage; a: ReturnType<typeof createApp>; b: ReturnType<typeof createApp> }> {
  let first: Storage
  let second: Storage
  if (process.env.COMPLIB_TEST_STORAGE === 'postgres') {
    const url = process.env.COMPLIB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
    const schema = `complib_api_${randomBytes(6).toString('hex')}`
    const one = await createPostgresStorage({ url, schema, poolSize: 2 })
    const two = await createPostgresStorage({ url, schema, poolSize: 2 })
    opened.push(() => one.dropSchema(), () => two.close())
    first = one
    second = two
  } else {
    first = second = await createSqliteStorage()
    opened.push(() => first.close())
  }
  return { storage: first, a: createApp({ storage: first, log: () => {} }), b: createApp({ storage: second, log: () => {} }) }
}

async function _status(app: ReturnType<typeof createApp>, path: string, headers: Record<string, string>): Promise<number> {
  const res = await app.fetch(new Request(`http://127.0.0.1${path}`, { headers }))
  await res.arrayBuffer()
  return res.status
}

/** Waits until `check` holds, up to `ms`; returns how long it took. */
async function _within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now()
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 100))
  }
  return Date.now() - start
}

describe('several servers, one library', () => {
  it('accepts a session on every server, and ends it everywhere on sign-out', async () => {
    const { storage, a, b } = await _twoServers()
    await addUser(storage, 'ada', 'editor')
    const login = await a.fetch(new Request('http://127.0.0.1/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'ada', password: PASSWORD }) }))
    expect(login.status).toBe(200)
    const cookie = { cookie: login.headers.get('set-cookie')!.split(';')[0]! }
    expect(await _status(b, '/api/auth/me', cookie)).toBe(200)
    const out = await a.fetch(new Request('http://127.0.0.1/api/auth/logout', { method: 'POST', headers: { ...cookie, 'content-type': 'application/json' } }))
    expect(out.status).toBe(204)
    expect(await _status(a, '/api/auth/me', cookie)).toBe(401)
    await _within(5000, async () => (await _status(b, '/api/auth/me', cookie)) === 401)
  })

  it('stops a revoked token at once on the server that revoked it and within 5 s on the other; a demotion likewise', async () => {
    const { storage, a, b } = await _twoServers()
    const root = await addUser(storage, 'root', 'admin')
    const ed = await addUser(storage, 'ed', 'editor')
    const admin = bearer(await addToken(storage, root, 'admin'))
    const token = bearer(await addToken(storage, ed, 'write'))
    expect(await _status(a, '/api/components', token)).toBe(200)
    expect(await _status(b, '/api/components', token)).toBe(200)
    const [listed] = (await storage.tokens.list({ limit: 10, ownerId: ed.id })).items
    const revoke = await a.fetch(new Request(`http://127.0.0.1/api/tokens/${listed!.id}`, { method: 'DELETE', headers: admin }))
    expect(revoke.status).toBe(204)
    expect(await _status(a, '/api/components', token)).toBe(401)
    await _within(5000, async () => (await _status(b, '/api/components', token)) === 401)

    // A demotion on one server: the other's write token acts as a viewer within 5 s.
    const write = bearer(await addToken(storage, ed, 'write'))
    const tag = (name: string) => b.fetch(new Request('http://127.0.0.1/api/tags', { method: 'POST', headers: { ...write, 'content-type': 'application/json' }, body: JSON.stringify({ name }) }))
    expect((await tag('before')).status).toBe(201)
    const demote = await a.fetch(new Request(`http://127.0.0.1/api/users/${ed.id}`, { method: 'PATCH', headers: { ...admin, 'content-type': 'application/json' }, body: JSON.stringify({ role: 'viewer' }) }))
    expect(demote.status).toBe(200)
    let n = 0
    await _within(5000, async () => (await tag(`after-${n++}`)).status === 403)
  })

  it('asks for credentials on every server once an account is made on one', async () => {
    const { a, b } = await _twoServers()
    expect(await _status(b, '/api/components', {})).toBe(200)
    const made = await a.fetch(new Request('http://127.0.0.1/api/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'ada', password: PASSWORD, role: 'admin' }) }))
    expect(made.status).toBe(201)
    expect(await _status(a, '/api/components', {})).toBe(401)
    await _within(5000, async () => (await _status(b, '/api/components', {})) === 401)
  })
})
