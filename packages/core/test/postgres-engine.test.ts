import { randomBytes } from 'node:crypto'
import { createServer, type Server, type Socket, connect } from 'node:net'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ComponentListQuery, type Component } from '../src/index'
import { createPostgresStorage, type PostgresStorage } from '../src/storage/postgres/storage'
import { StoredViews } from '../src/storage/postgres/views'
import type { SqlExecutor } from '../src/storage/_internal/sql-executor'
import { probePostgres, TEST_DATABASE_URL } from './postgres-server'

/**
 * What the PostgreSQL engine promises beyond the shared contract: several
 * servers (here, several storages) on one database behave as one library.
 * Skipped without a reachable server, failed under CI=true.
 */
const url = TEST_DATABASE_URL
const unreachable = await probePostgres(url)

describe.skipIf(unreachable !== null)(`the PostgreSQL engine${unreachable ? ` (skipped: ${unreachable})` : ''}`, () => {
  const schema = `complib_e_${randomBytes(6).toString('hex')}`
  let a: PostgresStorage
  let b: PostgresStorage
  beforeAll(async () => {
    a = await createPostgresStorage({ url, schema, poolSize: 6 })
    b = await createPostgresStorage({ url, schema, poolSize: 6 })
  })
  afterAll(async () => {
    await b?.close()
    await a?.dropSchema()
  })

  it('shows a write acknowledged through one server to the next read through another', async () => {
    for (let i = 0; i < 20; i++) {
      const created = await a.components.create({ name: `R ${i}k` })
      expect((await b.components.get(created.id)).name).toBe(`R ${i}k`)
      const patched = await b.components.update(created.id, { description: `from b ${i}` })
      expect((await a.components.get(created.id)).version).toBe(patched.version)
    }
  })

  it('keeps the change feed in commit order: a reader paging it beside concurrent writers on two servers skips nothing', async () => {
    const start = (await a.components.changes(0, 1_000_000)).lastSeq
    const parts = await Promise.all(Array.from({ length: 8 }, (_, i) => a.components.create({ name: `feed ${i}` })))
    let writing = true
    const writers = [a, b, a, b].map(async (s, w) => {
      for (let round = 0; round < 15; round++) {
        const part = parts[(w * 3 + round) % parts.length]!
        await s.components.update(part.id, { description: `w${w} r${round}` })
      }
    })
    const seen: number[] = []
    const reader = (async () => {
      let since = start
      while (writing) {
        const page = await b.components.changes(since, 7)
        for (const item of page.items) seen.push(item.seq)
        if (page.items.length) since = page.items.at(-1)!.seq
        else await new Promise((r) => setTimeout(r, 2))
      }
      for (;;) {
        const page = await b.components.changes(since, 100)
        if (!page.items.length) break
        for (const item of page.items) seen.push(item.seq)
        since = page.items.at(-1)!.seq
      }
    })()
    await Promise.all(writers)
    writing = false
    await reader
    const all = (await a.components.changes(start, 1_000_000)).items.map((i) => i.seq)
    expect(all.length).toBe(8 + 4 * 15)
    expect(seen).toEqual(all)
  })

  it('refuses text holding U+0000 with a 400 (PostgreSQL cannot store it), changing nothing', async () => {
    const before = (await a.stats()).components
    await expect(a.components.create({ name: 'nul', description: 'a\u0000b' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', status: 400 })
    expect((await a.stats()).components).toBe(before)
  })

  it('runs reads in read-only transactions: a write handed to a read path is refused by PostgreSQL itself', async () => {
    const part = await a.components.create({ name: 'read only' })
    await expect(a.database.run((ex) => ex.run(`UPDATE components SET name = 'changed' WHERE id = ?`, [part.id]), 'snapshot')).rejects.toThrow(/read-only transaction/)
    expect((await a.components.get(part.id)).name).toBe('read only')
  })

  it('refuses a write in a read that runs as one statement outside a transaction, too', async () => {
    const part = await a.components.create({ name: 'read only, one statement' })
    await expect(a.database.run((ex) => ex.run(`UPDATE components SET name = 'changed' WHERE id = ?`, [part.id]), 'read')).rejects.toThrow(
      /read-only transaction/,
    )
    expect((await a.components.get(part.id)).name).toBe('read only, one statement')
  })

  it('runs a call declared as one statement again in a snapshot when it needs a second, that call only', async () => {
    const twoStatements = (ex: SqlExecutor) => Promise.resolve(ex.get('SELECT 1 AS n')).then(() => ex.get<{ n: number }>('SELECT 2 AS n'))
    const before = a.database.rereads
    for (let call = 0; call < 2; call++) {
      let result: { n: number } | undefined
      const sent = await _statements(async () => {
        result = await a.database.run(twoStatements, 'read')
      })
      expect(result).toEqual({ n: 2 })
      // Each call tries the one statement first: what a store declares is not overridden by what one call did.
      expect(sent.map((s) => s.text)).toEqual(['SELECT 1 AS n', 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', 'SELECT 1 AS n', 'SELECT 2 AS n', 'COMMIT'])
    }
    expect(a.database.rereads).toBe(before + 2)
  })

  it('reads a component in one round trip, a prepared statement outside any transaction', async () => {
    const part = await a.components.create({ name: 'one trip' })
    await a.components.getJson(part.id)
    const sent = await _statements(() => a.components.getJson(part.id))
    expect(sent).toHaveLength(1)
    expect(sent[0]!.text).toMatch(/^SELECT/)
    expect(sent[0]!.name).toBeTruthy()
  })

  it('reads a page of components with its total in one round trip, an empty page too', async () => {
    await a.components.create({ name: 'page one trip' })
    const query = { limit: 2, sort: 'name' } as never
    await a.components.listJson(query)
    let page: Awaited<ReturnType<typeof a.components.listJson>> | undefined
    const sent = await _statements(async () => {
      page = await a.components.listJson(query)
    })
    expect(sent).toHaveLength(1)
    expect(JSON.parse(Buffer.from(page!.json).toString())).toHaveLength(2)
    expect(page!.total).toBe((await b.stats()).components)
    expect(page!.nextCursor).not.toBeNull()
    const none = await _statements(async () => {
      const page = await a.components.listJson({ limit: 5, sort: 'name', q: 'nothing-matches-this' } as never)
      expect(Buffer.from(page.json).toString()).toBe('[]')
      expect(page.total).toBe(0)
      expect(page.nextCursor).toBeNull()
    })
    expect(none).toHaveLength(1)
  })

  it('keeps the views of a page by history seq: a page reads only views it has not kept, and shows every change from any server', async () => {
    const parts = await Promise.all(['kept 1', 'kept 2', 'kept 3'].map((name) => a.components.create({ name, category: 'Kept views' })))
    const query = { limit: 10, sort: 'name', category: 'Kept views' } as never
    const first = await _statements(() => a.components.listJson(query))
    expect(first.map((s) => s.text.split(/\s+/)[0])).toEqual(['WITH', 'SELECT'])
    expect(first[1]!.text).toMatch(/FROM component_events WHERE seq = ANY/)
    // Kept: the next page is the one statement.
    expect(await _statements(() => a.components.listJson(query))).toHaveLength(1)
    // A change through the other server is a new seq: only its view is read, and the page shows it.
    const patched = await b.components.update(parts[1]!.id, { description: 'changed on b' })
    let page: Awaited<ReturnType<typeof a.components.listJson>> | undefined
    const after = await _statements(async () => {
      page = await a.components.listJson(query)
    })
    expect(after).toHaveLength(2)
    expect(JSON.parse(Buffer.from(page!.json).toString())).toEqual([parts[0], patched, parts[2]])
    expect(Buffer.from(page!.json).toString()).toBe(JSON.stringify([parts[0], patched, parts[2]]))
    // A deleted component leaves the page; a purged one too (its events no longer hold views).
    await b.components.delete(parts[0]!.id)
    await b.components.purge(parts[2]!.id)
    expect(JSON.parse(Buffer.from((await a.components.listJson(query)).json).toString())).toEqual([patched])
  })

  it('leaves out a component purged between a page and the read of its views, and keeps later pages one statement', async () => {
    const parts = await Promise.all(['race 1', 'race 2'].map((name) => a.components.create({ name, category: 'Purge race' })))
    const query = { limit: 10, sort: 'name', category: 'Purge race' } as never
    const cold = await createPostgresStorage({ url, schema, poolSize: 1 })
    const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }
    const original = proto.query
    let purged = false
    proto.query = function (this: unknown, ...args: unknown[]) {
      // The purge lands after the page's statement, before its views are read.
      if ((args[0] as { name?: string }).name === 'complib_stored_views' && !purged) {
        purged = true
        return b.components.purge(parts[0]!.id).then(() => original.apply(this, args))
      }
      return original.apply(this, args)
    }
    try {
      const page = await cold.components.listJson(query)
      expect(purged).toBe(true)
      expect(JSON.parse(Buffer.from(page.json).toString())).toEqual([parts[1]])
    } finally {
      proto.query = original
    }
    try {
      const sent = await _statements(() => cold.components.listJson(query))
      expect(sent.map((s) => s.text.split(/\s+/)[0])).toEqual(['WITH'])
    } finally {
      await cold.close()
    }
  })

  it('keeps its views within a bound of bytes, the least recently used going first', async () => {
    const views = new StoredViews(4096)
    const parts: Component[] = []
    for (let i = 0; i < 12; i++) parts.push(await a.components.create({ name: `bounded ${i}`, description: 'x'.repeat(300) }))
    const seqs = await a.database.run((ex) => ex.all<{ seq: number }>(`SELECT view_seq AS seq FROM components WHERE id = ANY(?::text[])`, [`{${parts.map((p) => p.id).join(',')}}`]), 'snapshot')
    const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` })
    await client.connect()
    try {
      const read = await views.read(client as never, seqs.map((r) => Number(r.seq)))
      expect(read.size).toBe(12)
      // 12 views of about 500 bytes and 64 of overhead each do not fit in 4 KB: the oldest went.
      expect(views.size).toBeLessThan(12)
      expect(views.size).toBeGreaterThan(3)
    } finally {
      await client.end()
    }
  })

  it('runs a read its store declares as several statements in one REPEATABLE READ snapshot, without a wasted statement', async () => {
    const part = await a.components.create({ name: 'history' })
    await a.components.update(part.id, { description: 'second version' })
    const first = await a.components.history(part.id, { limit: 10 })
    const sent = await _statements(() => a.components.history(part.id, { limit: 10 }))
    expect(sent[0]!.text).toBe('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    expect(sent.at(-1)!.text).toBe('COMMIT')
    expect(sent.length).toBeGreaterThan(3)
    expect((await a.components.history(part.id, { limit: 10 })).items).toEqual(first.items)
    expect(first.items.map((i) => i.version)).toEqual([2, 1])
  })

  it('writes a PATCH of its own fields in four round trips: lock, read, the update with its history event, commit', async () => {
    const part = await a.components.create({ name: 'four trips', tags: ['kept'] })
    let patched: Awaited<ReturnType<typeof a.components.update>> | undefined
    const sent = await _statements(async () => {
      patched = await a.components.update(part.id, { description: 'patched', excludeFromBom: true }, { ifVersion: 1 })
    })
    expect(sent.map((s) => s.text.split(/\s+/)[0])).toEqual(['BEGIN', 'SELECT', 'WITH', 'COMMIT'])
    // The view it answers is the one stored and the one the tables give, on the other server too.
    expect(patched).toMatchObject({ description: 'patched', excludeFromBom: true, tags: ['kept'], version: 2 })
    expect(await b.components.get(part.id)).toEqual(patched)
    expect(Buffer.from((await b.components.getJson(part.id)).json).toString()).toBe(JSON.stringify(patched))
    const history = await b.components.history(part.id, { limit: 10 })
    expect(history.items.map((i) => [i.version, i.changes])).toEqual([[2, ['description', 'excludeFromBom']], [1, expect.any(Array)]])
    expect(history.items[0]!.snapshot).toEqual(patched)
    // A patch of its children still builds its view from the tables.
    expect((await a.components.update(part.id, { tags: ['new'] })).tags).toEqual(['new'])
  })

  it('writes the limit of a page into its statement, so PostgreSQL keeps one plan for it instead of planning every call', async () => {
    // With `LIMIT $n` the generic plan of the prepared statement was estimated costlier than one
    // for the values, so PostgreSQL planned it again on every call, on a large library never once
    // choosing the generic plan (decision 0308). A small test table cannot show the planner's
    // choice, so this checks what decides it: no bound limit in the page's statements.
    await a.components.create({ name: 'limit in the text' })
    for (const query of [{ limit: 2, sort: 'name' }, { limit: 3, sort: '-updatedAt', status: ['active'] }]) {
      const sent = (await _statements(() => a.components.listJson(query as never))).filter((s) => s.text.startsWith('WITH p AS'))
      expect(sent).toHaveLength(1)
      expect(sent[0]!.text).toContain(`LIMIT ${query.limit + 1}`)
      expect(sent[0]!.text).not.toMatch(/LIMIT \$\d/)
      expect(sent[0]!.name).toBeTruthy()
    }
  })

  it('suggests in one statement per tier, outside a transaction: the prefix scans with their candidates, then the first word hits with theirs', async () => {
    for (let i = 0; i < 30; i++) await a.components.create({ name: `Tier part ${i}`, description: 'zeugma capacitor' })
    await a.search.suggest('components', 'zeugma', 10)
    const sent = await _statements(async () => {
      const found = await a.search.suggest('components', 'zeugma', 10)
      expect(found).toHaveLength(10)
    })
    expect(sent.map((s) => s.text.split(/\s+/)[0])).toEqual(['SELECT', 'SELECT'])
  })

  it('lets the planner see a status filter, and counts a manufacturer without listing its every number', async () => {
    // At a million parts the hidden status (`|| ''`, SQLite's) read every part along the sort for an
    // empty page (465 ms), and DISTINCT hashed 200,288 part numbers before the count's bound (500 ms).
    await a.components.create({ name: 'Status holder', status: 'obsolete', mpns: [{ manufacturer: 'Statusco', partNumber: 'ST-1' }] })
    const listed = await _statements(async () => {
      expect((await a.components.listIds(ComponentListQuery.parse({ status: 'obsolete', limit: '5' }))).items).toHaveLength(1)
      expect((await a.components.listIds(ComponentListQuery.parse({ manufacturer: 'Statusco', limit: '5' }))).items).toHaveLength(1)
    })
    const texts = listed.map((s) => s.text)
    expect(texts.some((t) => t.includes('c.status IN'))).toBe(true)
    expect(texts.filter((t) => t.includes("status || ''"))).toEqual([])
    expect(texts.filter((t) => t.includes('SELECT DISTINCT m.component_id'))).toEqual([])
  })

  it('plans a search pattern for its value: LIKE and tsquery statements are not prepared', async () => {
    await a.components.create({ name: 'pattern holder 4k7' })
    const sent = await _statements(() => a.search.suggest('components', 'attern', 10))
    const patterns = sent.filter((s) => /\bI?LIKE\b|@@/.test(s.text))
    expect(patterns.length).toBeGreaterThan(0)
    expect(patterns.every((s) => s.name === undefined)).toBe(true)
  })

  it('keeps each component’s words in its row, part numbers included: every change is found at once, the old words no longer', async () => {
    const found = async (text: string) => (await b.components.listIds(ComponentListQuery.parse({ q: text, limit: '5' }))).items
    const part = await a.components.create({ name: 'Quokka sensor', mpns: [{ manufacturer: 'Wombatco', partNumber: 'WB-778' }] })
    expect(await found('quokka')).toEqual([part.id])
    // One part's name and its part number together, as SQLite's one document of both; a number
    // after a hyphen is a word of its own, not a negative number.
    expect(await found('quokka wb-778')).toEqual([part.id])
    expect(await found('778')).toEqual([part.id])
    await a.components.update(part.id, { description: 'numbat housing' }, { ifVersion: 1 })
    expect(await found('numbat')).toEqual([part.id])
    await a.components.update(part.id, { name: 'Bilby sensor' })
    expect(await found('quokka')).toEqual([])
    expect(await found('bilby numbat')).toEqual([part.id])
    await a.mpns.create(part.id, { manufacturer: 'Wombatco', partNumber: 'DINGO-5' })
    expect(await found('dingo')).toEqual([part.id])
    await a.components.update(part.id, { mpns: [] })
    expect(await found('dingo')).toEqual([])
    expect(await found('wb')).toEqual([])
    // A write to no searched field writes no words: no statement more.
    const sent = await _statements(() => a.components.update(part.id, { status: 'nrnd' }))
    expect(sent.filter((s) => s.text.includes('words'))).toEqual([])
    // A create, and a new part number, write the words by the UPDATE the write makes anyway.
    const separate = (statements: Array<{ text: string }>) => statements.filter((s) => s.text.startsWith('UPDATE components c SET words'))
    let made: Component | undefined
    const creating = await _statements(async () => {
      made = await a.components.create({ name: 'Wallaby fuse', mpns: [{ manufacturer: 'Wombatco', partNumber: 'WF-21' }] })
    })
    expect(separate(creating)).toEqual([])
    const numbering = await _statements(() => a.mpns.create(made!.id, { manufacturer: 'Wombatco', partNumber: 'KOALA-3' }))
    expect(separate(numbering)).toEqual([])
    expect(await found('wallaby wf-21')).toEqual([made!.id])
    expect(await found('koala')).toEqual([made!.id])
  })

  it('fills the words of a library made before the words column, gives the planner statistics of values and categories, and orders a category by name', async () => {
    const older = `complib_w_${randomBytes(6).toString('hex')}`
    let s = await createPostgresStorage({ url, schema: older, poolSize: 2 })
    try {
      const part = await s.components.create({ name: 'Echidna relay', category: 'Relays', mpns: [{ manufacturer: 'Spiny', partNumber: 'EK-1' }] })
      // The schema as the steps before left it: no column, the expression index, no statistics,
      // the category's index without the name.
      await s.database.run(async (ex) => {
        await ex.run('DROP INDEX components_category_folded')
        await ex.run(`CREATE INDEX components_category_folded ON components (lower(category) COLLATE "C") WHERE deleted_at IS NULL`)
        await ex.run('ALTER TABLE components DROP COLUMN words')
        await ex.run(`CREATE INDEX components_words ON components USING gin (to_tsvector('simple', name || ' ' || ipn::text || ' ' || coalesce(description, '')))`)
        await ex.run('DROP INDEX component_parameters_type_component')
        await ex.run('DROP STATISTICS component_parameters_type_numeric, components_category_folded')
        await ex.run(`UPDATE meta SET value = (value::int - 2)::text WHERE key = 'schema_version'`)
      })
      await s.close()
      s = await createPostgresStorage({ url, schema: older, poolSize: 2 })
      expect((await s.components.listIds(ComponentListQuery.parse({ q: 'echidna ek-1' }))).items).toEqual([part.id])
      const objects = await s.database.run(
        async (ex) => await ex.all<{ name: string }>(`SELECT stxname AS name FROM pg_statistic_ext WHERE stxnamespace = current_schema()::regnamespace ORDER BY 1`),
        'snapshot',
      )
      expect(objects.map((o) => o.name)).toEqual(['component_parameters_type_numeric', 'components_category_folded'])
      const index = await s.database.run(async (ex) => await ex.get<{ def: string }>(`SELECT indexdef AS def FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'components_category_folded'`), 'snapshot')
      expect(index?.def).toContain('lower(name)')
    } finally {
      await s.dropSchema()
    }
  })

  it('refuses to start on a schema a newer complib migrated, and leaves its version alone', async () => {
    const newer = `complib_n_${randomBytes(6).toString('hex')}`
    const s = await createPostgresStorage({ url, schema: newer, poolSize: 2 })
    try {
      const version = await s.database.run(async (ex) => {
        await ex.run(`UPDATE meta SET value = (value::int + 1)::text WHERE key = 'schema_version'`)
        return (await ex.get<{ value: string }>(`SELECT value FROM meta WHERE key = 'schema_version'`))!.value
      })
      await expect(createPostgresStorage({ url, schema: newer, poolSize: 2 })).rejects.toThrow(`the PostgreSQL schema is at version ${version}, newer than this complib's ${Number(version) - 1}`)
      const after = await s.database.run(async (ex) => (await ex.get<{ value: string }>(`SELECT value FROM meta WHERE key = 'schema_version'`))!.value, 'snapshot')
      expect(after).toBe(version)
    } finally {
      await s.dropSchema()
    }
  })

  it('plans a range of parameter values for its values, and counts a tag’s parts by looking each one up', async () => {
    // A generic plan hashed every value of the type in range before a page (40 ms at 100,000
    // parts, against 5); a count joined by the planner hashed every part of the tag.
    await a.components.create({ name: 'Range holder', tags: ['ranged'], parameters: [{ type: 'Resistance', value: '4k7' }] })
    const sent = await _statements(async () => {
      expect((await a.components.listJson(ComponentListQuery.parse({ parameter: 'Resistance:1k..10k', limit: '5' }))).total).toBe(1)
      expect((await a.components.listJson(ComponentListQuery.parse({ tag: 'ranged', status: 'active', limit: '5' }))).total).toBe(1)
    })
    const ranges = sent.filter((s) => /numeric >= \$\d/.test(s.text))
    expect(ranges.length).toBeGreaterThan(0)
    expect(ranges.every((s) => s.name === undefined)).toBe(true)
    const tagged = sent.filter((s) => s.text.includes('component_tags d'))
    expect(tagged.length).toBeGreaterThan(0)
    expect(tagged.every((s) => s.text.includes('CROSS JOIN LATERAL') && s.text.includes('OFFSET 0'))).toBe(true)
  })

  it('reads a filtered page from its matches when the count says they are few, and compiles no statement (JIT off)', async () => {
    // A word no part holds was estimated at 5,000 of a million parts: the page read every part
    // along the ids to find none (250 ms). The count, in the same statement, decides instead; and
    // the server's JIT compiled such a statement for 15-17 ms because of the branch never run.
    const part = await a.components.create({ name: 'Platypus valve' })
    const sent = await _statements(async () => {
      const page = await a.components.listJson(ComponentListQuery.parse({ q: 'platypus', limit: '5' }))
      expect(JSON.parse(Buffer.from(page.json).toString()).map((c: Component) => c.id)).toEqual([part.id])
      expect(page.total).toBe(1)
    })
    const pages = sent.filter((s) => s.text.startsWith('WITH p AS'))
    expect(pages).toHaveLength(1)
    expect(pages[0]!.text).toContain(`(SELECT total.n FROM total) <= 1000`)
    const jit = await a.database.run(async (ex) => await ex.get<{ jit: string }>('SELECT current_setting(?) AS jit', ['jit']), 'snapshot')
    expect(jit?.jit).toBe('off')
  })

  it('keeps attachment bytes in the database, where every server reaches them', async () => {
    const bytes = new TextEncoder().encode('datasheet')
    await a.blobs.write('ab'.repeat(32), bytes)
    expect(Buffer.from((await b.blobs.read('ab'.repeat(32)))!).toString()).toBe('datasheet')
    await b.blobs.removeUnused('ab'.repeat(32))
    expect(await a.blobs.read('ab'.repeat(32))).toBeNull()
  })
})

describe.skipIf(unreachable !== null)('the PostgreSQL engine when the database goes away', () => {
  it('answers SERVICE_UNAVAILABLE (503) while the database cannot be reached, and recovers by itself when it can', { timeout: 30_000 }, async () => {
    const target = new URL(url)
    const proxy = await _proxy(target.hostname, Number(target.port || 5432))
    const through = Object.assign(new URL(url), { host: `127.0.0.1:${proxy.port}` }).toString()
    const schema = `complib_d_${randomBytes(6).toString('hex')}`
    const storage = await createPostgresStorage({ url: through, schema, poolSize: 2 })
    try {
      const part = await storage.components.create({ name: 'before the outage' })
      await proxy.cut()
      await expect(storage.components.get(part.id)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 })
      await expect(storage.components.create({ name: 'during the outage' })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 })
      await proxy.restore()
      expect((await storage.components.get(part.id)).name).toBe('before the outage')
      await storage.components.create({ name: 'after the outage' })
      expect((await storage.components.list({ limit: 10, sort: 'name' } as never)).items.map((c) => c.name)).toEqual(['after the outage', 'before the outage'])
    } finally {
      await proxy.restore()
      await storage.dropSchema()
      await proxy.close()
    }
  })
})

/** A TCP proxy to the database that can cut every connection and refuse new ones, then let them through again. */
async function _proxy(host: string, port: number) {
  const sockets = new Set<Socket>()
  let server: Server | null = null
  let listenPort = 0
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(port, host)
        for (const s of [client, upstream]) {
          sockets.add(s)
          s.on('close', () => sockets.delete(s))
          s.on('error', () => s.destroy())
        }
        client.pipe(upstream).pipe(client)
      })
      server.listen(listenPort, '127.0.0.1', () => {
        listenPort = (server!.address() as { port: number }).port
        resolve()
      })
    })
  await listen()
  return {
    port: listenPort,
    async cut() {
      const closing = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
      server = null
      for (const s of sockets) s.destroy()
      await closing
    },
    async restore() {
      if (!server) await listen()
    },
    async close() {
      await this.cut()
    },
  }
}

/** The statements every pg client sends while `fn` runs (text and prepared name). */
async function _statements(fn: () => Promise<unknown>): Promise<Array<{ text: string; name: string | undefined }>> {
  const sent: Array<{ text: string; name: string | undefined }> = []
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }
  const original = proto.query
  proto.query = function (this: unknown, ...args: unknown[]) {
    const config = args[0] as string | { text: string; name?: string }
    sent.push(typeof config === 'string' ? { text: config, name: undefined } : { text: config.text, name: config.name })
    return original.apply(this, args)
  }
  try {
    await fn()
  } finally {
    proto.query = original
  }
  return sent
}

