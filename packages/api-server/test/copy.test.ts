import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Storage } from '@complib/core'
import { createPostgresStorage } from '@complib/core/postgres'
import { createSqliteStorage } from '@complib/core/sqlite'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { startReceiver } from '@complib/test-support/receiver'
import { createApp } from '../src/app'
import { createDatabaseBlobStore, createFileBlobStore } from '../src/blobs'
import { copyCommand } from '../src/copy-command'
import { runCli } from './cli-process'

// `complib copy` moves a library between engines, everything
// included. A library made through the API on SQLite goes to PostgreSQL and back
// to a new data folder; the API answers the same at each step.
const adminUrl = process.env.COMPLIB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const database = `complib_cp_${randomBytes(5).toString('hex')}`
const unreachable = await _sql(`CREATE DATABASE ${database}`)
if (unreachable !== null && process.env.CI === 'true') throw new Error(`PostgreSQL at ${adminUrl} is unreachable (${unreachable}); CI runs the copy test`)
const url = Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString()
const dirs: string[] = []
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
  if (unreachable === null) await _sql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
})

const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'complib-copy-'))
  dirs.push(dir)
  return dir
}

/** An app over a library, the way `complib serve` makes one. */
async function open(place: string): Promise<{ call: (method: string, path: string, body?: unknown) => Promise<any>; raw: (path: string, init?: RequestInit) => Promise<Response>; storage: Storage }> {
  const postgres = place.startsWith('postgres') ? await createPostgresStorage({ url: place }) : null
  const storage = postgres ?? (await createSqliteStorage({ dir: place }))
  const app = createApp({ storage, dataDir: postgres ? undefined : place, blobs: postgres ? createDatabaseBlobStore(postgres.blobs) : createFileBlobStore(join(place, 'attachments')), webDir: false, log: () => {} })
  const raw = async (path: string, init?: RequestInit) => await app.fetch(new Request(`http://127.0.0.1${path}`, init))
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await raw(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) })
    const text = await res.text()
    if (res.status >= 400) throw new Error(`${method} ${path} → ${res.status}: ${text}`)
    return text ? JSON.parse(text) : null
  }
  return { call, raw, storage }
}

/** Everything the API shows of a library, as a user or a script reads it. */
async function snapshot(lib: Awaited<ReturnType<typeof open>>) {
  const components = await lib.call('GET', '/api/components?limit=1000&includeDeleted=true&sort=id')
  const attachment = components.find((c: { attachments: unknown[] }) => c.attachments.length)?.attachments
  const attachments = await lib.call('GET', '/api/attachments?limit=1000')
  const connectors = await lib.call('GET', '/api/connectors?limit=100')
  return {
    export: await lib.call('GET', '/api/exports/components?format=json'),
    csv: await (await lib.raw('/api/exports/components?format=csv')).text(),
    components,
    history: await Promise.all(components.map((c: { id: string }) => lib.call('GET', `/api/components/${c.id}/history`))),
    changes: await lib.call('GET', '/api/components/changes?since=0&limit=1000'),
    tags: await lib.call('GET', '/api/tags?limit=100'),
    // The search indexes are the target's own (SQLite's full-text tables are rebuilt).
    search: (await lib.call('GET', '/api/components?q=thick%2012&limit=100')).map((c: { id: string }) => c.id),
    locations: await lib.call('GET', '/api/locations/tree'),
    symbols: await lib.call('GET', '/api/symbols?limit=100'),
    attachments,
    files: await Promise.all(attachments.filter((a: { sha256: string | null }) => a.sha256).map(async (a: { id: string }) => Buffer.from(await (await lib.raw(`/api/attachments/${a.id}/content`)).arrayBuffer()).toString('base64'))),
    connectors,
    runs: await Promise.all(connectors.map((c: { id: string }) => lib.call('GET', `/api/connectors/${c.id}/runs`))),
    stats: { ...(await lib.call('GET', '/api/stats')), databaseBytes: 0 },
    linked: attachment ?? null,
  }
}

describe.skipIf(unreachable !== null)(`complib copy between engines${unreachable ? ` (skipped: ${unreachable})` : ''}`, () => {
  it('copies a library from a data folder to PostgreSQL and back into a new folder: the API shows the same library at each step', { timeout: 60_000 }, async () => {
    const first = folder()
    const lib = await open(first)
    const symbol = await lib.call('POST', '/api/symbols', { name: 'R', library: 'Device' })
    const shelf = await lib.call('POST', '/api/locations', { name: 'Shelf A' })
    const bin = await lib.call('POST', '/api/locations', { name: 'Bin 3', parentId: shelf.id })
    const parts = []
    for (let i = 0; i < 30; i++) {
      parts.push(
        await lib.call('POST', '/api/components', {
          name: `R ${i}k 0603`,
          category: 'Passives/Resistors',
          tags: ['smd', i % 2 ? 'odd' : 'even'],
          parameters: [{ type: 'Resistance', value: `${i}k`, unit: 'Ω' }],
          mpns: [{ manufacturer: 'Yageo', partNumber: `RC0603-${i}K` }],
          symbols: [symbol.id],
          description: `thick film ${i}\u0001"é`,
        }),
      )
    }
    await lib.call('PATCH', `/api/components/${parts[1].id}`, { description: 'edited', status: 'active' })
    await lib.call('DELETE', `/api/components/${parts[2].id}`)
    await lib.call('POST', '/api/stock/adjust', { componentId: parts[3].id, locationId: bin.id, delta: 250 })
    const upload = await lib.raw(`/api/attachments?name=ds.pdf&kind=datasheet&componentId=${parts[4].id}`, { method: 'POST', headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.7 tiny datasheet' })
    expect(upload.status).toBe(201)
    await lib.call('POST', '/api/attachments/from-url', { url: 'https://example.com/rc0603.pdf', componentId: parts[5].id })
    const receiver = await startReceiver()
    const connector = await lib.call('POST', '/api/connectors', { name: 'Hook', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', config: { url: receiver.url } })
    const run = await lib.call('POST', `/api/connectors/${connector.id}/push`)
    for (let i = 0; i < 100 && (await lib.call('GET', `/api/connector-runs/${run.id}`)).status !== 'succeeded'; i++) await new Promise((r) => setTimeout(r, 50))
    await receiver.close()
    const before = await snapshot(lib)
    // What is compared is the whole library, history, files and runs included.
    expect([before.export.length, before.components.length, before.files.length, before.runs[0].length, before.changes.changes.length]).toEqual([29, 30, 1, 1, 34])
    expect(before.runs[0][0].status).toBe('succeeded')
    await lib.storage.close()

    const lines: string[] = []
    await copyCommand(first, url, (line) => lines.push(line))
    expect(lines.at(-1)).toMatch(/^copied [\d,]+ rows in \d+ tables and \d+ attachment files/)
    // The load is vacuumed and analyzed: statistics for the planner, the row versions it left cleared.
    const stats = new pg.Client({ connectionString: url })
    await stats.connect()
    const tables = (await stats.query(`SELECT relname, last_vacuum, last_analyze FROM pg_stat_user_tables WHERE relname IN ('components', 'component_totals')`)).rows
    await stats.end()
    expect(tables).toHaveLength(2)
    for (const t of tables) expect(t.last_vacuum !== null && t.last_analyze !== null, JSON.stringify(t)).toBe(true)
    const onPostgres = await open(url)
    expect(await snapshot(onPostgres)).toEqual(before)
    // The copy keeps the connector's secret: a push from the new home signs as before.
    await onPostgres.storage.close()

    const back = folder()
    // The command itself, as a user runs it.
    const cli = await runCli(['copy', '--from', url, '--to', back]).done
    expect([cli.code, cli.out.trim().split('\n').at(-1)]).toEqual([0, expect.stringMatching(/^copied [\d,]+ rows in \d+ tables and 1 attachment files/)])
    const again = await open(back)
    expect(await snapshot(again)).toEqual(before)
    // A target that is not empty is refused, and nothing is written to it.
    await again.storage.close()
    await expect(copyCommand(first, back, () => {})).rejects.toThrow(/not empty/)
  })
})

async function _sql(statement: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query(statement)
    return null
  } catch (error) {
    return (error as Error).message || String(error)
  } finally {
    await client.end().catch(() => {})
  }
}
