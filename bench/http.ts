// The HTTP scenarios, against the built server in its own process: cold
// start, read one, read list, full listing, durable writes and suggest.
// Subject and baseline alternate (A B A B …); medians are quoted.
import { createRandom } from './lib/library-data'
import { getFresh, int, load, mb, median, percentile, record, startBytesServer } from './lib/load'
import { copyLibrary, startServerProcess, type ServerProcess } from './lib/server'

export interface BenchRow {
  scenario: string
  subject: string
  baseline: string
  ratio: string
  target: string
}

export interface HttpBenchContext {
  quick: boolean
  /** The server's RSS right after its start on the library (set by benchColdStart). */
  idleRss?: number
  size: number
  /** Cached library folders (see libraryFolder). */
  library: string
  smallLibrary: string
  log: (line: string) => void
}

const SUGGEST_QUERIES = ['r', 'R 10k', 'cap', 'RES-0001', 'RC0603', 'LM358', 'zzz', 'resistor 0603', '47k', 'x7r', 'smd', 'STM32', 'ne5', 'C 100n']

/** Starts `complib serve` on a fresh copy of `library` `times` times; the last server is left running. */
export async function benchColdStart(ctx: HttpBenchContext, times: number): Promise<{ rows: BenchRow[]; server: ServerProcess; dir: string }> {
  const dir = copyLibrary(ctx.library)
  const starts: number[] = []
  let server: ServerProcess | undefined
  for (let i = 0; i < times; i++) {
    await server?.stop()
    server = await startServerProcess(dir)
    starts.push(server.startMs)
  }
  ctx.log(`cold starts: ${starts.map((s) => s.toFixed(0)).join(', ')} ms`)
  ctx.idleRss = server!.rss()
  return {
    server: server!,
    dir,
    rows: [
      {
        scenario: `cold start: \`complib serve\` on ${int(ctx.size)} components to the first 200 of /api/health (${times} starts)`,
        subject: `${median(starts).toFixed(0)} ms`,
        baseline: `idle RSS ${mb(ctx.idleRss)}`,
        ratio: '—',
        target: '≤ 1,500 ms',
      },
    ],
  }
}

/** GET one component (random ids) and GET a page of 50, each against bare node:http serving the same bytes. */
export async function benchReads(ctx: HttpBenchContext, server: ServerProcess, ids: string[]): Promise<BenchRow[]> {
  const random = createRandom(7)
  const samples = Array.from({ length: ctx.quick ? 200 : 2000 }, () => `/api/components/${ids[Math.floor(random() * ids.length)]}`)
  const pages: string[] = ['/api/components?limit=50']
  while (pages.length < 20) {
    const res = await fetch(`${server.url}${pages.at(-1)}`)
    const next = res.headers.get('link')?.match(/<([^>]+)>;\s*rel="next"/)?.[1]
    await res.arrayBuffer()
    if (!next) break
    pages.push(next.replace(/^https?:\/\/[^/]+/, ''))
  }
  const rows: BenchRow[] = []
  const seconds = ctx.quick ? 2 : 5
  for (const [name, paths, target, target2] of [
    [`read one: GET /api/components/:id, random ids, ${int(ctx.size)} components`, samples, 0.6, '≥ 0.6'],
    ['read list: GET /api/components?limit=50 (20 pages by cursor)', pages, 0.5, '≥ 0.5'],
  ] as const) {
    const recorded = await Promise.all([...new Set(paths)].map((p) => record(server.url, p)))
    const bytes = await startBytesServer(recorded)
    try {
      const run = (url: string) => {
        let i = 0
        return load({ url, connections: 10, seconds, next: () => paths[i++ % paths.length]! })
      }
      await run(bytes.url) // warm-up, untimed
      await run(server.url)
      const subject: number[] = []
      const baseline: number[] = []
      const p99: number[] = []
      const cpuPerRequest: number[] = []
      for (let r = 0; r < (ctx.quick ? 1 : 3); r++) {
        baseline.push((await run(bytes.url)).rps)
        const cpu0 = server.cpuMs()
        const s = await run(server.url)
        cpuPerRequest.push(((server.cpuMs() - cpu0) * 1000) / (s.rps * seconds))
        subject.push(s.rps)
        p99.push(s.p99Ms)
      }
      ctx.log(
        `${name}: subject ${subject.map(int).join(', ')}; baseline ${baseline.map(int).join(', ')} req/s; ` +
          `server CPU ${cpuPerRequest.map((c) => c.toFixed(0)).join(', ')} µs per request`,
      )
      const ratio = median(subject) / median(baseline)
      rows.push({
        scenario: name,
        subject: `${int(median(subject))} req/s (p99 ${median(p99)} ms)`,
        baseline: `${int(median(baseline))} req/s bare node:http, same bytes`,
        ratio: ratio.toFixed(2),
        target: `${target2}${ratio < target ? ' (missed)' : ''}`,
      })
    } finally {
      bytes.stop()
    }
  }
  return rows
}

/** GET /api/components?limit=<all>: time and the server's peak RSS, against JSON.stringify of the same array in-process. */
export async function benchFullListing(ctx: HttpBenchContext, server: ServerProcess): Promise<{ rows: BenchRow[]; ids: string[] }> {
  const times: number[] = []
  const stringify: number[] = []
  const peaks: number[] = []
  let ids: string[] = []
  for (let r = 0; r < (ctx.quick ? 1 : 3); r++) {
    const before = server.rss()
    server.resetPeak()
    const t0 = performance.now()
    const text = await getFresh(`${server.url}/api/components?limit=100000`)
    times.push(performance.now() - t0)
    peaks.push(server.peakRss() - before)
    const list = JSON.parse(text) as Array<{ id: string }>
    ids = list.map((c) => c.id)
    const t1 = performance.now()
    JSON.stringify(list)
    stringify.push(performance.now() - t1)
  }
  return {
    ids,
    rows: [
      {
        scenario: `full listing: GET /api/components?limit=100000 (${int(ids.length)} components)`,
        subject: `${median(times).toFixed(0)} ms, server RSS +${mb(median(peaks))} at peak`,
        baseline: `${median(stringify).toFixed(0)} ms JSON.stringify of the same array in-process`,
        ratio: (median(stringify) / median(times)).toFixed(2),
        target: 'report',
      },
    ],
  }
}

/** PATCH a description (unique values) at 16 clients: the library of `size` against one of 1,000. */
export async function benchWrites(ctx: HttpBenchContext, server: ServerProcess, ids: string[]): Promise<BenchRow[]> {
  const smallDir = copyLibrary(ctx.smallLibrary)
  const small = await startServerProcess(smallDir)
  try {
    const smallIds = ((await (await fetch(`${small.url}/api/components?limit=100000`)).json()) as Array<{ id: string }>).map((c) => c.id)
    const random = createRandom(11)
    let n = 0
    const run = (target: ServerProcess, list: string[]) =>
      load({
        url: target.url,
        connections: 16,
        seconds: ctx.quick ? 2 : 5,
        next: () => ({ method: 'PATCH', path: `/api/components/${list[Math.floor(random() * list.length)]}`, body: JSON.stringify({ description: `bench write ${n++}` }) }),
      })
    await run(small, smallIds)
    await run(server, ids)
    const a: number[] = []
    const b: number[] = []
    for (let r = 0; r < (ctx.quick ? 1 : 3); r++) {
      a.push((await run(small, smallIds)).rps)
      b.push((await run(server, ids)).rps)
    }
    // The last write must be there: an unchanged update writes nothing and would measure nothing.
    const probe = ids[0]!
    await fetch(`${server.url}/api/components/${probe}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ description: 'bench probe' }) })
    const landed = ((await (await fetch(`${server.url}/api/components/${probe}`)).json()) as { description: string }).description
    if (landed !== 'bench probe') throw new Error('bench: a PATCH did not land')
    ctx.log(`durable writes: ${int(ctx.size)}: ${b.map(int).join(', ')}; 1,000: ${a.map(int).join(', ')} writes/s`)
    const ratio = median(a) / median(b)
    return [
      {
        scenario: `durable write: PATCH description, 16 clients, ${int(ctx.size)} vs 1,000 components`,
        subject: `${int(median(b))} writes/s`,
        baseline: `${int(median(a))} writes/s at 1,000`,
        ratio: ratio.toFixed(2),
        target: `≥ 1,000/s; ratio ≤ 1.2${median(b) < 1000 || ratio > 1.2 ? ' (missed)' : ''}`,
      },
    ]
  } finally {
    await small.stop()
  }
}

/** Suggest latency over HTTP, one request at a time: p50/p99 over a fixed set of queries. */
export async function benchSuggest(ctx: HttpBenchContext, server: ServerProcess): Promise<BenchRow[]> {
  const times: number[] = []
  for (let round = 0; round < 21; round++) {
    for (const q of SUGGEST_QUERIES) {
      const t0 = performance.now()
      const res = await fetch(`${server.url}/api/suggest?entity=components&q=${encodeURIComponent(q)}`)
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`bench: suggest ${q} answered ${res.status}`)
      if (round > 0) times.push(performance.now() - t0) // round 0 warms up
    }
  }
  const p99 = percentile(times, 0.99)
  return [
    {
      scenario: `suggest over HTTP at ${int(ctx.size)} components (${SUGGEST_QUERIES.length} queries × 20)`,
      subject: `p50 ${percentile(times, 0.5).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`,
      baseline: '—',
      ratio: '—',
      target: `p99 ≤ 10 ms${p99 > 10 ? ' (missed)' : ''}`,
    },
  ]
}
