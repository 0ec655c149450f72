import autocannon from 'autocannon'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FULL, startServe, type ServeProcess } from './server-process'

// Load. Four consecutive runs of mixed reads and writes at 64
// connections against a real server process (60 s each in the full run, 5 s in CI).
// Every connection loops: create, get, patch, list, suggest, get, delete, purge; so
// half the requests are durable writes, and the library stays the same size (purge
// removes what the run created), which makes resident memory comparable between runs.
const CONNECTIONS = 64
const SECONDS = FULL ? 60 : 5
const RUNS = 4
/** Runs that warm the server up before memory is compared (see TOLERANCE_BYTES). */
const WARM_UP_RUNS = 2
const SETTLE_MS = FULL ? 10_000 : 3_000
/**
 * Growth of the server's RSS allowed from after run 2 to after run 4 (each read after
 * the same settle), beyond what the database itself grew. Runs 1 and 2 warm up (JIT,
 * SQLite's page cache, V8's heap sizing), so run 2 is the baseline. The server runs with
 * `--max-semi-space-size=16`: Node 24's V8 grows its young generation up to 32 MiB
 * semi-spaces under this allocation rate, a one-time step of some 60 MiB of RSS that
 * came in run 2 or 3 and then stayed (measured over 5 runs; the storage alone, driven
 * in-process with the same mix, stays flat). That is heap sizing, not a leak; with the
 * semi-space held at Node 20's size, Node 24 grows like Node 20 does.
 * The database does grow by design: the change feed keeps a row for every write, even
 * of purged components, and SQLite's page cache holds more of a bigger file;
 * `GET /api/stats` reports the file's size (`databaseBytes`), and its growth is
 * taken off. What is left is what a leak would show: two full runs send ~150k
 * requests, so a leak of 1 KiB per request adds ~150 MiB, far above this. Run-to-run
 * noise (V8's heap, the allocator) is what the bounded CI runs (~10k requests) must
 * stay above: measured on 2026-11-27 over eight 5-s runs on this 2-core machine, the
 * growth beyond the data went from -13.8 to +48.1 MiB (with the storage's background
 * index merges: -13.8, 23.4, 27.1, 43.1, 45.2, 48.1; without them: 34.5, 36.2), so
 * 48 MiB failed a run that leaked nothing. The bounded runs catch leaks of about
 * 7 KiB per request and more; the full run's ~150k requests, of well under 1 KiB.
 */
const TOLERANCE_BYTES = 72 * 1024 * 1024

let server: ServeProcess

beforeAll(async () => {
  // V8's young generation held at one size on every Node (see TOLERANCE_BYTES).
  server = await startServe({ env: { NODE_OPTIONS: '--max-semi-space-size=16' } })
  // A library to read: 600 components the runs search and list among.
  const items = Array.from({ length: 600 }, (_, i) => ({ name: `R ${i}k 0603 load seed`, tags: ['smd', 'seed'], parameters: [{ type: 'Resistance', value: `${i}k` }], mpns: [{ manufacturer: 'Yageo', partNumber: `RC0603-${i}` }] }))
  const res = await fetch(`${server.url}/api/bulk/components`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items }) })
  expect(res.status, await res.text()).toBe(200)
}, 60_000)

afterAll(async () => {
  await server?.stop()
})

describe('load', () => {
  it(`serves ${RUNS} runs × ${SECONDS} s of mixed reads and writes at ${CONNECTIONS} connections with 0 errors, and its memory stays flat`, { timeout: (RUNS * (SECONDS * 1000 + SETTLE_MS) + 60_000) * 2 }, async () => {
    const figures: Array<{ requests: number; perSecond: number; p50: number; p99: number; max: number; non2xx: number; errors: number; timeouts: number; rss: number; data: number }> = []
    for (let run = 1; run <= RUNS; run++) {
      const result = await _mixedLoad(server.url, run)
      const rss = await _settledRss(server)
      const data = ((await (await fetch(`${server.url}/api/stats`)).json()) as { databaseBytes: number }).databaseBytes
      const requests = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx']
      figures.push({
        requests,
        perSecond: Math.round(requests / result.duration),
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        rss,
        data,
      })
    }
    const mib = (b: number) => `${(b / 1048576).toFixed(1)} MiB`
    const [base, last] = [figures[WARM_UP_RUNS - 1]!, figures[RUNS - 1]!]
    const rssGrowth = last.rss - base.rss
    const dataGrowth = last.data - base.data
    console.log(
      [
        `load: ${RUNS} runs × ${SECONDS} s, ${CONNECTIONS} connections, create/get/patch/list/suggest/get/delete/purge per connection`,
        ...figures.map((f, i) => `  run ${i + 1}: ${f.requests.toLocaleString('en')} requests (${f.perSecond}/s), p50 ${f.p50} ms, p99 ${f.p99} ms, max ${f.max} ms, errors ${f.errors}, timeouts ${f.timeouts}, non-2xx ${f.non2xx}; server RSS after settle ${mib(f.rss)}, database ${mib(f.data)}`),
        `  run ${WARM_UP_RUNS} → run ${RUNS}: RSS ${_signed(mib(rssGrowth))}, database ${_signed(mib(dataGrowth))}, RSS beyond the data ${_signed(mib(rssGrowth - dataGrowth))} (tolerance ${mib(TOLERANCE_BYTES)})`,
      ].join('\n'),
    )
    for (const f of figures) {
      expect(f.errors).toBe(0)
      expect(f.timeouts).toBe(0)
      expect(f.non2xx).toBe(0)
      expect(f.requests).toBeGreaterThan(0)
    }
    expect(server.exitCode()).toBeNull()
    expect(rssGrowth - dataGrowth).toBeLessThanOrEqual(TOLERANCE_BYTES)
    // The library stays the size it started at: every cycle purged what it created, but for
    // the cycles the end of a run cut short (at most one per connection and run).
    // Every id in one answer: a count of deleted ones too would stop at its bound (decision 0212).
    const { ids } = await (await fetch(`${server.url}/api/components/ids?includeDeleted=true`)).json() as { ids: string[] }
    expect(ids.length).toBeLessThanOrEqual(600 + RUNS * CONNECTIONS)
  })
})

/**
 * RSS once the server has idled for SETTLE_MS: the lowest of readings taken every 250 ms
 * over the last half of the wait (V8 gives memory back in steps as its memory reducer
 * runs; a single reading would land on either side of a step).
 */
async function _settledRss(s: ServeProcess): Promise<number> {
  const readings: number[] = []
  const start = Date.now()
  while (Date.now() - start < SETTLE_MS) {
    await new Promise((r) => setTimeout(r, 250))
    if (Date.now() - start >= SETTLE_MS / 2) readings.push(s.rss())
  }
  return Math.min(...readings)
}

function _mixedLoad(url: string, run: number): Promise<autocannon.Result> {
  let n = 0
  type Ctx = { id?: string; version?: number }
  const json = { 'content-type': 'application/json' }
  const withId = (path: (id: string) => string) => (req: autocannon.Request, context: object) => ({ ...req, path: path((context as Ctx).id ?? 'cmp_00000000000000000000000000') })
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: '/api/components',
        headers: json,
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: `R load ${run}-${++n}`, description: 'made by the load test', tags: ['load'], parameters: [{ type: 'Resistance', value: '4k7' }] }) }),
        onResponse: (status, body, context) => {
          ;(context as Ctx).id = status === 201 ? (JSON.parse(body) as { id: string }).id : undefined
        },
      },
      { method: 'GET', setupRequest: withId((id) => `/api/components/${id}`) },
      { method: 'PATCH', headers: json, body: JSON.stringify({ description: 'patched under load', status: 'nrnd' }), setupRequest: withId((id) => `/api/components/${id}`) },
      { method: 'GET', path: '/api/components?limit=50&q=load&sort=-updatedAt' },
      { method: 'GET', path: '/api/suggest?entity=components&q=R%201&limit=10' },
      { method: 'GET', setupRequest: withId((id) => `/api/components/${id}/history`) },
      { method: 'DELETE', setupRequest: withId((id) => `/api/components/${id}`) },
      { method: 'DELETE', setupRequest: withId((id) => `/api/components/${id}/purge`) },
    ],
  })
}

function _signed(text: string): string {
  return text.startsWith('-') ? text : `+${text}`
}
