// Bulk enrichment from a source (decision 1607): the built server enriches
// components from a fake distributor in this process, through a source type of
// the bench's own (lib/bench-source.mjs, loaded with --source). Two runs:
// - without a quota: components per second, against a client in this process
//   asking the same two requests per component one after another (the
//   physical limit of a job that enriches one component at a time);
// - within a quota of requests a minute that binds: the most requests the
//   fake saw in any 60 s, which must never pass the quota.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchRow, HttpBenchContext } from './http'
import { int } from './lib/load'
import { copyLibrary, startServerProcess, type ServerProcess } from './lib/server'

const SOURCE_MODULE = join(fileURLToPath(new URL('.', import.meta.url)), 'lib/bench-source.mjs')

export async function benchEnrich(ctx: HttpBenchContext): Promise<BenchRow[]> {
  const fake = await _startFake()
  try {
    const n = ctx.quick ? 100 : 1000
    const baseline = await _sequentialClient(fake.url, n)
    const free = await _run(ctx, fake, n, 0)
    // A quota that binds: the first minute's worth goes at once, the rest at its pace (a few seconds more).
    const quota = ctx.quick ? 600 : 1200
    const withQuota = ctx.quick ? 330 : 1000
    const bound = await _run(ctx, fake, withQuota, quota)
    const most = _mostInAnyWindow(bound.arrivals, 60_000)
    return [
      {
        scenario: `enrich bulk, ${int(n)} components (2 requests each), no quota`,
        subject: `${free.perSecond.toFixed(0)} components/s`,
        value: free.perSecond,
        baseline: `${baseline.toFixed(0)} components/s (a client asking the same requests in turn)`,
        ratio: `${(free.perSecond / baseline).toFixed(2)}`,
        target: '—',
      },
      {
        scenario: `enrich bulk, ${int(withQuota)} components within ${int(quota)} requests/min`,
        subject: `${most} requests in the busiest minute; ${bound.perSecond.toFixed(1)} components/s`,
        value: most,
        baseline: `the quota, ${int(quota)}`,
        ratio: `${(most / quota).toFixed(2)}`,
        target: '≤ 1.00',
      },
    ]
  } finally {
    await new Promise((resolve) => fake.server.close(resolve))
  }
}

interface _Fake {
  server: Server
  url: string
  arrivals: number[]
}

/** The distributor: every MPN `BENCH-<i>` is one part, answered from memory. */
async function _startFake(): Promise<_Fake> {
  const arrivals: number[] = []
  const server = createServer((req, res) => {
    arrivals.push(performance.now())
    const url = new URL(req.url ?? '/', 'http://fake')
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    if (url.pathname === '/search') {
      const mpn = url.searchParams.get('q') ?? ''
      return json([{ ref: `R-${mpn}`, mpn, manufacturer: 'Bench', description: null, imageUrl: null, productUrl: null, lifecycle: 'active', stock: 10 }])
    }
    const ref = decodeURIComponent(url.pathname.slice('/part/'.length))
    json({
      ref,
      manufacturer: 'Bench',
      mpn: ref.slice(2),
      name: null,
      description: `Part ${ref}`,
      categoryHints: [],
      parameters: [{ name: 'Resistance', value: '10k', unit: 'Ω' }],
      datasheetUrl: null,
      imageUrl: null,
      productUrl: null,
      lifecycle: 'active',
      supplierStatus: null,
      package: null,
      rohs: true,
      offers: [{ supplier: 'Bench', sku: ref, url: null, stock: 10, minimumQuantity: 1, multiple: 1, packaging: null, currency: 'EUR', priceBreaks: [{ quantity: 1, price: 0.1 }] }],
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals }
}

/** Components per second of a client asking the search and the part of each component in turn. */
async function _sequentialClient(url: string, n: number): Promise<number> {
  const t0 = performance.now()
  for (let i = 0; i < n; i++) {
    await (await fetch(`${url}/search?q=BENCH-${i}`)).json()
    await (await fetch(`${url}/part/${encodeURIComponent(`R-BENCH-${i}`)}`)).json()
  }
  return n / ((performance.now() - t0) / 1000)
}

/** One enrichment job of `n` components on a fresh server whose source allows `perMinute` requests a minute (0: no limit). */
async function _run(ctx: HttpBenchContext, fake: _Fake, n: number, perMinute: number): Promise<{ perSecond: number; arrivals: number[] }> {
  const dir = copyLibrary(ctx.smallLibrary)
  process.env.BENCH_SOURCE_PER_MINUTE = String(perMinute)
  let server: ServerProcess | undefined
  try {
    server = await startServerProcess(dir, ['--source', SOURCE_MODULE])
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server!.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
      if (!res.ok) throw new Error(`bench: ${method} ${path} answered ${res.status}: ${await res.text()}`)
      return (await res.json()) as Record<string, any>
    }
    const source = await call('POST', '/api/sources', { type: 'bench-distributor', name: 'Bench', config: { baseUrl: fake.url } })
    const ids: string[] = []
    for (let i = 0; i < n; i += 500) {
      const items = Array.from({ length: Math.min(500, n - i) }, (_, k) => ({ name: `Enriched ${i + k}`, mpns: [{ manufacturer: 'Bench', partNumber: `BENCH-${i + k}` }] }))
      const created = await call('POST', '/api/bulk/components', { items })
      ids.push(...(created.items as Array<{ id: string }>).map((c) => c.id))
    }
    fake.arrivals.length = 0
    const t0 = performance.now()
    const job = await call('POST', `/api/sources/${source.id}/enrich-jobs`, { componentIds: ids, dryRun: false })
    for (;;) {
      const now = await call('GET', `/api/jobs/${job.id}`)
      if (now.status !== 'running') {
        if (now.status !== 'succeeded' || now.data.failed > 0) throw new Error(`bench: the enrichment job ended ${now.status}: ${JSON.stringify(now.data.failures)}`)
        break
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const seconds = (performance.now() - t0) / 1000
    return { perSecond: n / seconds, arrivals: [...fake.arrivals] }
  } finally {
    delete process.env.BENCH_SOURCE_PER_MINUTE
    await server?.stop()
  }
}

/** The most arrivals within any window of `ms` (arrivals in order). */
function _mostInAnyWindow(arrivals: readonly number[], ms: number): number {
  let most = 0
  let start = 0
  for (let end = 0; end < arrivals.length; end++) {
    while (arrivals[end]! - arrivals[start]! >= ms) start++
    most = Math.max(most, end - start + 1)
  }
  return most
}
