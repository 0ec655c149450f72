import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { Component } from '../src/index'
import type { SqlExecutor } from '../src/storage/_internal/sql-executor'
import { copyLibrary } from '../src/storage/copy'
import { createPostgresStorage, type PostgresStorage } from '../src/storage/postgres/storage'
import { createSqliteStorage, type SqliteStorage } from '../src/storage/sqlite/storage'
import { probePostgres, TEST_DATABASE_URL } from './postgres-server'

// The PostgreSQL cases run when a server answers (the local one by default), and fail under CI=true without one.
const url = TEST_DATABASE_URL
const unreachable = await probePostgres(url)

type Engine = 'sqlite' | 'postgres'
const engines: Engine[] = unreachable === null ? ['sqlite', 'postgres'] : ['sqlite']

describe('copyLibrary', () => {
  it('copies a tree whose parents come after their children in id order, one row per chunk', async () => {
    const source = await createSqliteStorage()
    const target = await createSqliteStorage()
    try {
      const a = await source.locations.create({ name: 'Drawer A' })
      const b = await source.locations.create({ name: 'Shelf B' })
      const c = await source.locations.create({ name: 'Cabinet C' })
      // A and B move under C, made after them: their parent comes later in the copy's order.
      await source.locations.update(a.id, { parentId: c.id })
      await source.locations.update(b.id, { parentId: a.id })
      await copyLibrary(source, target, { chunk: 1 })
      const parents = async (s: typeof source) => Object.fromEntries((await Promise.all([a, b, c].map((l) => s.locations.get(l.id)))).map((l) => [l.name, l.parentId]))
      expect(await parents(target)).toEqual(await parents(source))
      expect(await parents(target)).toEqual({ 'Drawer A': c.id, 'Shelf B': a.id, 'Cabinet C': null })
    } finally {
      await target.close()
      await source.close()
    }
  })

  it.each(engines)('pages a composite key across chunks from SQLite to %s and back: every row once', { timeout: 30_000 }, async (engine) => {
    const source = await createSqliteStorage()
    const middle = await _open(engine)
    const back = await createSqliteStorage()
    try {
      const tags = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) => source.tags.create({ name })))
      // Five tags on each component: a chunk of 3 ends inside a component's rows, where only the
      // second key column tells the rows apart.
      const ids: string[] = []
      for (let i = 0; i < 12; i++) ids.push((await source.components.create({ name: `R ${i}k`, tags: tags.map((t) => t.name) })).id)
      const rows = await _rows(source, 'component_tags', ['component_id', 'tag_id'])
      expect(rows).toHaveLength(60)
      await copyLibrary(source, middle, { chunk: 3 })
      expect(await _rows(middle, 'component_tags', ['component_id', 'tag_id'])).toEqual(rows)
      // Back from the other engine: its keyset paging and its key order.
      await copyLibrary(middle, back, { chunk: 3 })
      expect(await _rows(back, 'component_tags', ['component_id', 'tag_id'])).toEqual(rows)
      expect((await Promise.all(ids.map((id) => back.components.get(id)))).map((c) => c.tags)).toEqual(ids.map(() => ['a', 'b', 'c', 'd', 'e']))
    } finally {
      await back.close()
      await _close(middle)
      await source.close()
    }
  })

  it.each(engines)('copies accounts and tokens to %s, and leaves the sign-in sessions behind', { timeout: 30_000 }, async (engine) => {
    const source = await createSqliteStorage()
    const target = await _open(engine)
    try {
      const ada = await source.users.create({ username: 'ada', displayName: 'Ada', role: 'admin', passwordHash: 'hash-ada' })
      const token = await source.tokens.create({ name: 'ci', scope: 'read', ownerId: ada.id, hash: 'sha-ci', prefix: 'clt_ci', expiresAt: null })
      const start = new Date()
      const session = { idHash: 'sha-session', userId: ada.id, createdAt: start.toISOString(), expiresAt: new Date(start.getTime() + 3_600_000).toISOString() }
      await source.authSessions.create(session)
      const report = await copyLibrary(source, target)
      expect(report.tables.map((t) => t.table)).not.toContain('auth_sessions')
      expect(await target.users.findCredentials('ada')).toEqual({ user: ada, passwordHash: 'hash-ada' })
      expect(await target.tokens.resolve('sha-ci')).toEqual({ token, owner: ada })
      expect(await _rows(target, 'auth_sessions', ['id_hash'])).toEqual([])
      expect(await source.authSessions.resolve(session.idHash, start.toISOString(), start.toISOString())).not.toBeNull()
    } finally {
      await _close(target)
      await source.close()
    }
  })

  it.each(engines)('writes a chunk to %s in as few statements as its bound-parameter limit allows', { timeout: 60_000 }, async (engine) => {
    const source = await createSqliteStorage()
    const target = await _open(engine)
    try {
      // 20,000 tags of 7 columns: 140,000 parameters, past both limits (PostgreSQL 65,535, SQLite 32,766).
      await source.database.run((ex) =>
        ex.run(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
           INSERT INTO tags (id, name, color, description, created_at, updated_at, version)
           SELECT printf('T%05d', i), 'tag ' || i, NULL, 'x', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 1 FROM n`,
        ),
      )
      const inserts = _countInserts(target, 'tags')
      const report = await copyLibrary(source, target, { chunk: 50_000 })
      expect(report.tables.find((t) => t.table === 'tags')).toEqual({ table: 'tags', rows: 20_000 })
      expect(await _rows(target, 'tags', ['id', 'name', 'description'])).toEqual(await _rows(source, 'tags', ['id', 'name', 'description']))
      // One statement per 9,362 rows (65,534 parameters) on PostgreSQL, per 4,680 (32,760) on SQLite.
      expect(inserts()).toBe(engine === 'postgres' ? 3 : 5)
    } finally {
      await _close(target)
      await source.close()
    }
  })
})

describe.skipIf(unreachable !== null)('copyLibrary into PostgreSQL', () => {
  it('keeps the live count in one row version and every view in place: the row triggers are set once after the load', { timeout: 60_000 }, async () => {
    const source = await createSqliteStorage()
    const target = (await _open('postgres')) as PostgresStorage
    try {
      const made: Component[] = []
      for (let i = 0; i < 600; i++) made.push(await source.components.create({ name: `Part ${i}` } as never))
      await source.components.update(made[0]!.id, { description: 'second version' })
      await source.components.delete(made[1]!.id)
      await copyLibrary(source, target)
      // One version of the count's row: with the trigger on, each of 600 inserts left one (3 pages).
      const pages = await target.database.run((ex) => ex.get<{ n: number }>(`SELECT pg_relation_size('component_totals') / 8192 AS n`), 'snapshot')
      expect(Number(pages!.n)).toBe(1)
      expect((await target.stats()).components).toBe(599)
      const page = await target.components.listJson({ limit: 1000, sort: 'id' } as never)
      expect(JSON.parse(Buffer.from(page.json).toString())).toEqual((await source.components.list({ limit: 1000, sort: 'id' } as never)).items)
      expect((await target.components.get(made[0]!.id)).description).toBe('second version')
      // The triggers are back on: a write after the copy counts and shows its view.
      const added = await target.components.create({ name: 'after the copy' })
      expect((await target.stats()).components).toBe(600)
      expect(Buffer.from((await target.components.getJson(added.id)).json).toString()).toBe(JSON.stringify(added))
    } finally {
      await source.close()
      await _close(target)
    }
  })
})

type Any = SqliteStorage | PostgresStorage

async function _open(engine: Engine): Promise<Any> {
  return engine === 'sqlite' ? await createSqliteStorage() : await createPostgresStorage({ url, schema: `complib_copy_${randomBytes(6).toString('hex')}` })
}

async function _close(storage: Any): Promise<void> {
  if (storage.name === 'postgres') await (storage as PostgresStorage).dropSchema()
  else await storage.close()
}

/** A table's rows, the given columns only, in the order of those columns (code points, whatever the engine's collation). */
async function _rows(storage: Any, table: string, columns: string[]): Promise<string[][]> {
  const read = (ex: SqlExecutor) => ex.all<Record<string, string>>(`SELECT ${columns.join(', ')} FROM ${table}`)
  const rows = storage.name === 'postgres' ? await (storage as PostgresStorage).database.run(read, 'snapshot') : await (storage as SqliteStorage).database.run(read)
  return rows.map((r) => columns.map((c) => r[c]!)).sort((a, b) => (a.join('\u0000') < b.join('\u0000') ? -1 : a.join('\u0000') > b.join('\u0000') ? 1 : 0))
}

/** Counts the INSERT statements the storage's transactions send into `table` from now on. */
function _countInserts(storage: Any, table: string): () => number {
  let n = 0
  const counting = <E extends SqlExecutor>(ex: E): E =>
    new Proxy(ex, {
      get(target, prop, receiver) {
        if (prop === 'run') {
          return (sql: string, params?: unknown[]) => {
            if (sql.startsWith(`INSERT INTO ${table} `)) n++
            return target.run(sql, params as never)
          }
        }
        const value = Reflect.get(target, prop, receiver)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  const database = storage.database as { run: (fn: (ex: SqlExecutor) => unknown, ...rest: unknown[]) => Promise<unknown> }
  const run = database.run.bind(database)
  database.run = (fn, ...rest) => run((ex) => fn(counting(ex)), ...rest)
  return () => n
}

