import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bodyLimits, checkAnswer, FuzzStats, fuzz, walkGets } from './fuzz-run'
import { documentContext, readOperations, requestArbitrary, unroutedArbitrary, type Operation } from './openapi-requests'
import { libraryContent } from './library-content'
import { closeRawAgent, sendRaw } from './raw-http'
import { seedLibrary, startSink, type Seeded } from './seed'
import { FULL, startServe, type ServeProcess } from './server-process'

// Requests are generated from the server's own OpenAPI document.
// Phase 1 sends only requests that must fail (every write carries a defect) plus
// reads of any kind, so the library must come out byte-identical: compared through
// the JSON and CSV exports and the full SQLite backup. Phase 2 lets writes through
// (hostile but possibly valid values) and then reads every record back through
// every GET route: still no 5xx.
const INVALID_PER_OP = FULL ? 90 : 10
const RANDOM_PER_OP = FULL ? 24 : 2
const UNROUTED = FULL ? 400 : 40
// CI replays one fixed seed (a red build is then a change, not luck); full runs explore new
// ones. Either way the seed is printed: COMPLIB_FUZZ_SEED=<seed> replays a run.
const SEED = Number(process.env.COMPLIB_FUZZ_SEED ?? (FULL ? Date.now() % 2 ** 31 : 20_261_123))

let server: ServeProcess
let sink: Awaited<ReturnType<typeof startSink>>
let seeded: Seeded
let ops: Operation[]
let doc: any

beforeAll(async () => {
  sink = await startSink()
  server = await startServe()
  seeded = await seedLibrary(server.url, sink.url)
  doc = await (await fetch(`${server.url}/api/docs`)).json()
  ops = readOperations(doc, bodyLimits())
}, 60_000)

afterAll(async () => {
  closeRawAgent()
  await server?.stop()
  await sink?.close()
})

describe('hostile input', () => {
  it('refuses every invalid request with a 4xx problem+json, never a 5xx, and changes nothing', { timeout: FULL ? 3_600_000 : 240_000 }, async () => {
    const ctx = documentContext(doc, seeded.ids, seeded.ipns)
    const before = await _exports(server.url)
    const stats = new FuzzStats()
    for (const [i, op] of ops.entries()) await fuzz(server, requestArbitrary(op, ctx, 'invalid'), INVALID_PER_OP, SEED + i, stats)
    await fuzz(server, unroutedArbitrary(ops), UNROUTED, SEED - 1, stats)
    const after = await _exports(server.url)

    console.log(`${stats.summary(`hostile input, invalid phase (fast-check seed ${SEED})`)}\n  by defect: ${[...stats.byDefect].map(([d, n]) => `${d} ×${n}`).join(', ')}`)
    expect(stats.failures, stats.failures.map((f) => `${f.op} [${f.defect}]: ${f.error}\n    ${f.request}`).join('\n')).toEqual([])
    expect(stats.byOp.size).toBe(ops.length + 1)
    expect(server.exitCode()).toBeNull()
    for (const name of Object.keys(before) as Array<keyof typeof before>) expect(after[name].equals(before[name]), `${name} export changed`).toBe(true)
  })

  it('survives hostile writes that may be valid, then reads every record back through every GET route without a 5xx', { timeout: FULL ? 3_600_000 : 240_000 }, async () => {
    const ctx = documentContext(doc, seeded.ids, seeded.ipns)
    const stats = new FuzzStats()
    // Rounds across the operations, so deletes early in the document do not starve the routes after them.
    const rounds = Math.min(RANDOM_PER_OP, 4)
    for (let round = 0; round < rounds; round++) {
      for (const [i, op] of ops.entries()) {
        // An account would end keyless mode, and every later request would be a 401: credentials are the access suite's.
        if (op.operationId === 'createUser') continue
        const runs = Math.floor(RANDOM_PER_OP / rounds) + (round < RANDOM_PER_OP % rounds ? 1 : 0)
        if (runs) await fuzz(server, requestArbitrary(op, ctx, 'random'), runs, SEED + 1000 * (round + 1) + i, stats)
      }
    }
    const ids: Record<string, string[]> = Object.fromEntries(Object.entries(seeded.ids).map(([k, v]) => [k, [...v]]))
    for (const [prefix, created] of stats.created) ids[prefix] = [...(ids[prefix] ?? []), ...created]
    const walked = await walkGets(server.url, ops, ids, seeded.ipns, { perKind: FULL ? 1000 : 12 })
    const broken = walked.map(({ path, res }) => [path, checkAnswer({ op: '', defect: 'walk', mustFail: false, method: 'GET', path, headers: {} }, res)]).filter(([, e]) => e)

    console.log(`${stats.summary(`hostile input, random phase (fast-check seed ${SEED})`)}; then ${walked.length.toLocaleString('en')} GETs over every record: ${_statusCounts(walked.map((w) => w.res.status))}`)
    expect(stats.failures, stats.failures.map((f) => `${f.op} [${f.defect}]: ${f.error}\n    ${f.request}`).join('\n')).toEqual([])
    expect(broken, broken.map(([p, e]) => `GET ${p}: ${e}`).join('\n')).toEqual([])
    expect(server.exitCode()).toBeNull()
    // The exports still come out whole after whatever was written.
    const json = await sendRaw(server.url, { method: 'GET', path: '/api/exports/components?format=json&includeDeleted=true' })
    expect(json.status).toBe(200)
    expect(Array.isArray(JSON.parse(json.text))).toBe(true)
    expect((await sendRaw(server.url, { method: 'GET', path: '/api/exports/components?format=csv' })).status).toBe(200)
  })
})

async function _exports(base: string) {
  const get = async (path: string) => {
    const res = await sendRaw(base, { method: 'GET', path })
    expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200)
    return res.bytes
  }
  return {
    json: await get('/api/exports/components?format=json&includeDeleted=true'),
    csv: await get('/api/exports/components?format=csv&includeDeleted=true'),
    csvLive: await get('/api/exports/components?format=csv'),
    backup: Buffer.from(await libraryContent(base)),
  }
}

function _statusCounts(statuses: number[]): string {
  const counts = new Map<number, number>()
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1)
  return [...counts].sort(([a], [b]) => a - b).map(([s, n]) => `${s} ×${n}`).join(', ')
}
