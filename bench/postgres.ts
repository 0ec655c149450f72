// PostgreSQL beside the embedded engine, in the same run (decision 1307): read
// one, a page of 50, suggest, the filtered pages and durable writes at 16 clients on a server kept in
// PostgreSQL against the same on the SQLite server, then two PostgreSQL servers
// beside one. The database is a copy of the bench's library made with `complib
// copy`'s copyLibrary, cached by size (and made again when the schema changes).
import { rmSync } from 'node:fs'
import pg from 'pg'
import { copyLibrary as copyTables } from '@complib/core'
import { createPostgresStorage } from '@complib/core/postgres'
import { createSqliteStorage } from '@complib/core/sqlite'
import { SUGGEST_QUERIES, type BenchRow, type HttpBenchContext } from './http'
import { LIST_FILTERS, measureFilters, type FilterTimes } from './filters'
import { benchDrivers } from './pg-drivers'
import { int, load, percentile, pct, type LoadRequest, type LoadResult } from './lib/load'
import { copyLibrary as copyFolder, startServerProcess, type ServerProcess } from './lib/server'

const ADMIN_URL = process.env.COMPLIB_BENCH_DATABASE_URL ?? process.env.COMPLIB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const WRITERS = 16

export async function benchPostgres(ctx: HttpBenchContext, sqlite: ServerProcess, ids: string[]): Promise<BenchRow[]> {
  const url = await _database(ctx, ids)
  if (!url) return []
  const scratch = copyFolder(ctx.smallLibrary)
  const one = await startServerProcess(scratch, ['--database', url])
  let two: ServerProcess | undefined
  try {
    const seconds = ctx.quick ? 2 : 5
    const sample = Array.from({ length: 64 }, (_, i) => ids[Math.floor((i * ids.length) / 64)]!)
    const reads: LoadRequest[] = sample.map((id) => ({ method: 'GET', path: `/api/components/${id}` }))
    const pages: LoadRequest[] = [0, 1, 2, 3].map((i) => ({ method: 'GET', path: `/api/components?limit=50&sort=${['name', 'ipn', '-updatedAt', 'id'][i]}` }))
    const writes: LoadRequest[] = sample.map((id) => ({ method: 'PATCH', path: `/api/components/${id}`, body: '{"description":"bench postgres {n}"}' }))
    const round = (server: ServerProcess, requests: LoadRequest[], connections = 32) =>
      load({ generator: ctx.generator, url: server.url, connections, seconds, requests, watch: { server: server.pid } })
    const both = async (requests: LoadRequest[], connections: number) => {
      // Warm-up, then the round on each engine.
      await round(sqlite, requests, connections)
      await round(one, requests, connections)
      return { sqlite: await round(sqlite, requests, connections), postgres: await round(one, requests, connections) }
    }
    const readOne = await both(reads, 32)
    const page = await both(pages, 32)
    const write = await both(writes, WRITERS)
    const suggest = { sqlite: await _suggest(sqlite), postgres: await _suggest(one) }
    const filterRounds = ctx.quick ? 5 : 101
    const filters = { sqlite: await measureFilters(sqlite.url, filterRounds), postgres: await measureFilters(one.url, filterRounds) }

    // Two servers on the database beside one: the same load split between them.
    two = await startServerProcess(copyFolder(ctx.smallLibrary), ['--database', url])
    const pair = async (requests: LoadRequest[], connections: number) => {
      await Promise.all([round(one, requests, connections / 2), round(two!, requests, connections / 2)])
      const [a, b] = await Promise.all([round(one, requests, connections / 2), round(two!, requests, connections / 2)])
      return { rps: a.rps + b.rps, cpu: `${pct(a.cpu.server!)} + ${pct(b.cpu.server!)}`, generator: `${pct(a.cpu.generator!)} + ${pct(b.cpu.generator!)}` }
    }
    const pagePair = await pair(pages, 32)
    const writePair = await pair(writes, WRITERS)

    const cpu = (l: LoadResult) => `server ${pct(l.cpu.server!)}, ${ctx.generator} ${pct(l.cpu.generator!)}`
    const versus = (label: string, r: { sqlite: LoadResult; postgres: LoadResult }, unit: string, target: string, min?: number) => {
      const ratio = r.postgres.rps / r.sqlite.rps
      return {
        scenario: `PostgreSQL: ${label} at ${int(ctx.size)} components`,
        value: r.postgres.rps,
        subject: `${int(r.postgres.rps)} ${unit} (p99 ${r.postgres.p99Ms} ms; ${cpu(r.postgres)})`,
        baseline: `SQLite ${int(r.sqlite.rps)} ${unit} (${cpu(r.sqlite)})`,
        ratio: `${ratio.toFixed(2)}×`,
        target: min !== undefined && ratio < min ? `${target} (missed)` : target,
      }
    }
    const rows: BenchRow[] = [
      versus('read one, 32 connections', readOne, 'req/s', '—'),
      versus('page of 50, 32 connections', page, 'req/s', '≥ 0.4×', 0.4),
      {
        ...versus(`durable PATCH, ${WRITERS} clients`, write, 'writes/s', '≥ 600/s'),
        target: write.postgres.rps < 600 ? '≥ 600/s (missed)' : '≥ 600/s',
      },
      {
        scenario: `PostgreSQL: suggest at ${int(ctx.size)} components (${SUGGEST_QUERIES.length} queries × 10)`,
        value: percentile(suggest.postgres, 0.99),
        subject: `p50 ${percentile(suggest.postgres, 0.5).toFixed(2)} ms, p99 ${percentile(suggest.postgres, 0.99).toFixed(2)} ms`,
        baseline: `SQLite p50 ${percentile(suggest.sqlite, 0.5).toFixed(2)} ms, p99 ${percentile(suggest.sqlite, 0.99).toFixed(2)} ms`,
        ratio: '—',
        target: percentile(suggest.postgres, 0.99) > 10 ? 'p99 ≤ 10 ms (missed)' : 'p99 ≤ 10 ms',
      },
      ...LIST_FILTERS.map((filter) => {
        const p99 = (times: FilterTimes) => percentile(times.pages.get(filter)!, 0.99)
        return {
          scenario: `PostgreSQL: filtered page, GET /api/components?${filter}&limit=50 at ${int(ctx.size)} components (${filterRounds - 1} rounds)`,
          value: p99(filters.postgres),
          subject: `p50 ${percentile(filters.postgres.pages.get(filter)!, 0.5).toFixed(2)} ms, p99 ${p99(filters.postgres).toFixed(2)} ms`,
          baseline: `SQLite p99 ${p99(filters.sqlite).toFixed(2)} ms`,
          ratio: `${(p99(filters.postgres) / p99(filters.sqlite)).toFixed(2)}×`,
          target: `p99 ≤ 10 ms${p99(filters.postgres) > 10 ? ' (missed)' : ''}`,
        }
      }),
      {
        scenario: `PostgreSQL: longest wait of a health probe every 5 ms while those pages ran, ${int(ctx.size)} components`,
        value: filters.postgres.probeMax,
        subject: `${filters.postgres.probeMax.toFixed(1)} ms`,
        baseline: `SQLite ${filters.sqlite.probeMax.toFixed(1)} ms`,
        ratio: '—',
        target: `≤ 20 ms${filters.postgres.probeMax > 20 ? ' (missed)' : ''}`,
      },
      {
        scenario: 'PostgreSQL: two servers beside one, page of 50 (load split)',
        value: pagePair.rps,
        subject: `${int(pagePair.rps)} req/s (servers ${pagePair.cpu}; ${ctx.generator} ${pagePair.generator})`,
        baseline: `one server ${int(page.postgres.rps)} req/s`,
        ratio: `${(pagePair.rps / page.postgres.rps).toFixed(2)}×`,
        target: '— (2 cores: the database, the servers and the generator share them)',
      },
      {
        scenario: `PostgreSQL: two servers beside one, durable PATCH, ${WRITERS} clients (load split)`,
        value: writePair.rps,
        subject: `${int(writePair.rps)} writes/s (servers ${writePair.cpu})`,
        baseline: `one server ${int(write.postgres.rps)} writes/s`,
        ratio: `${(writePair.rps / write.postgres.rps).toFixed(2)}×`,
        target: '— (writes take one lock across servers)',
      },
    ]
    // The driver, measured on the same database once the servers are idle.
    await two.stop()
    await one.stop()
    rows.push(...(await benchDrivers(ctx, url)))
    return rows
  } finally {
    await two?.stop()
    await one.stop()
    rmSync(scratch, { recursive: true, force: true })
  }
}

async function _suggest(server: ServerProcess): Promise<number[]> {
  const times: number[] = []
  for (let round = 0; round < 11; round++) {
    for (const q of SUGGEST_QUERIES) {
      const t0 = performance.now()
      const res = await fetch(`${server.url}/api/suggest?entity=components&q=${encodeURIComponent(q)}`)
      await res.arrayBuffer()
      if (round > 0) times.push(performance.now() - t0)
    }
  }
  return times
}

/** The bench's PostgreSQL copy of the library, made when missing; null (and a note) without a server. */
async function _database(ctx: HttpBenchContext, ids: readonly string[]): Promise<string | null> {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 })
  try {
    await admin.connect()
  } catch (error) {
    ctx.log(`PostgreSQL at ${ADMIN_URL} does not answer (${(error as Error).message}): its rows are left out`)
    return null
  }
  try {
    const name = `complib_bench_${ctx.size}`
    const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString()
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount
    if (exists) {
      const ok = await _holds(url, ctx.size, ids).catch(() => false)
      if (ok) {
        // Earlier runs' writes left dead row versions and index entries behind, which autovacuum may
        // not have cleared (it is off on these machines): 280,000 after a few runs, and the word index
        // read 13,053 entries for a suggest that matches 5,189. Each run starts from a vacuumed copy.
        await _vacuum(ctx, url, name)
        return url
      }
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`)
    }
    await admin.query(`CREATE DATABASE ${name}`)
    const t0 = performance.now()
    const folder = copyFolder(ctx.library)
    const source = await createSqliteStorage({ dir: folder })
    const target = await createPostgresStorage({ url })
    try {
      await copyTables(source, target)
    } catch (error) {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {})
      throw error
    } finally {
      await target.close()
      await source.close()
      rmSync(folder, { recursive: true, force: true })
    }
    ctx.log(`copied the library of ${int(ctx.size)} components into PostgreSQL (${name}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    // A fresh copy too, so the run that makes it measures the state the next runs do: nothing has
    // yet recorded its rows as visible to all (the first reads of each page write that), and the
    // run that made a copy of a million measured 387 durable writes a second, the next one 599.
    await _vacuum(ctx, url, name)
    return url
  } finally {
    await admin.end()
  }
}

/** VACUUM (ANALYZE) of the bench's copy, so every run measures the same state of it. */
async function _vacuum(ctx: HttpBenchContext, url: string, name: string): Promise<void> {
  const t0 = performance.now()
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  try {
    await db.query('VACUUM (ANALYZE)')
  } finally {
    await db.end()
  }
  ctx.log(`vacuumed the PostgreSQL copy (${name}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
}

/**
 * Whether the database holds this very library: as many components, and the
 * listed ones (a library generated again has other ids). Opening it also
 * brings its schema up to date.
 */
async function _holds(url: string, size: number, ids: readonly string[]): Promise<boolean> {
  const storage = await createPostgresStorage({ url })
  try {
    const stats = await storage.stats()
    if (stats.components + stats.deletedComponents !== size) return false
    const sample = [ids[0]!, ids[Math.floor(ids.length / 2)]!, ids.at(-1)!]
    return (await storage.components.getMany(sample, { includeDeleted: true })).length === sample.length
  } finally {
    await storage.close()
  }
}
