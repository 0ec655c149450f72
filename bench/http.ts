// The HTTP scenarios that need no load generator, against the built server in
// its own process: cold start and memory at rest, the full listing, suggest.
// The shared row and context types live here too.
import type { Generator } from './lib/load'
import { getFresh, int, mb, median, percentile } from './lib/load'
import { copyLibrary, startServerProcess, type ServerProcess } from './lib/server'

export interface BenchRow {
  scenario: string
  subject: string
  /**
   * The row's main figure (a time, a rate, bytes): at a `--size` other than
   * 100,000 the bench prints its ratio to the same row's at 100,000 (run.ts).
   */
  value?: number | undefined
  /** That ratio, written by run.ts. */
  growth?: string | undefined
  baseline: string
  ratio: string
  target: string
}

export interface HttpBenchContext {
  quick: boolean
  size: number
  /** Cached library folders (see libraryFolder). */
  library: string
  smallLibrary: string
  /** The load generator: autocannon in a child process, or wrk (`--load=wrk`). */
  generator: Generator
  log: (line: string) => void
}

export const SUGGEST_QUERIES = ['r', 'R 10k', 'cap', 'RES-0001', 'RC0603', 'LM358', 'zzz', 'resistor 0603', '47k', 'x7r', 'smd', 'STM32', 'ne5', 'C 100n']

/** Starts `complib serve` on a fresh copy of `library` `times` times; the last server is left running. */
export async function benchColdStart(ctx: HttpBenchContext, times: number): Promise<{ rows: BenchRow[]; server: ServerProcess; dir: string }> {
  const dir = copyLibrary(ctx.library)
  const starts: number[] = []
  const rss: number[] = []
  let server: ServerProcess | undefined
  for (let i = 0; i < times; i++) {
    await server?.stop()
    server = await startServerProcess(dir)
    starts.push(server.startMs)
    rss.push(server.startRss)
  }
  ctx.log(`cold starts: ${starts.map((s) => s.toFixed(0)).join(', ')} ms; RSS right after: ${rss.map(mb).join(', ')}`)
  const start = median(starts)
  const idle = median(rss)
  return {
    server: server!,
    dir,
    rows: [
      {
        scenario: `cold start: \`complib serve\` on ${int(ctx.size)} components to the first 200 of /api/health (${times} starts)`,
        value: start,
        subject: `${start.toFixed(0)} ms (starts ${starts.map((s) => int(s)).join(', ')} ms)`,
        baseline: '—',
        ratio: '—',
        target: `≤ 300 ms${start > 300 ? ' (missed)' : ''}`,
      },
      {
        scenario: `server RSS at rest, right after that start`,
        value: idle,
        subject: mb(idle),
        baseline: '—',
        ratio: '—',
        target: `≤ 120 MB${idle > 120 * 1048576 ? ' (missed)' : ''}`,
      },
    ],
  }
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
        value: median(times),
        subject: `${median(times).toFixed(0)} ms, server RSS +${mb(median(peaks))} at peak`,
        baseline: `${median(stringify).toFixed(0)} ms JSON.stringify of the same array in-process`,
        ratio: (median(stringify) / median(times)).toFixed(2),
        target: 'report',
      },
    ],
  }
}

/**
 * Suggest latency over HTTP, one request at a time, for components and for
 * part numbers: p50/p99 over a fixed set of queries, the slowest query named,
 * beside the health check's round trip in the same rounds.
 */
export async function benchSuggest(ctx: HttpBenchContext, server: ServerProcess): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  for (const entity of ['components', 'mpns'] as const) {
    const times: number[] = []
    const health: number[] = []
    const byQuery = new Map<string, number[]>()
    const timed = async (path: string) => {
      const t0 = performance.now()
      const res = await fetch(`${server.url}${path}`)
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`bench: ${path} answered ${res.status}`)
      return performance.now() - t0
    }
    for (let round = 0; round < 21; round++) {
      for (const q of SUGGEST_QUERIES) {
        const ms = await timed(`/api/suggest?entity=${entity}&q=${encodeURIComponent(q)}`)
        const probe = await timed('/api/health')
        if (round === 0) continue // round 0 warms up
        times.push(ms)
        health.push(probe)
        byQuery.set(q, [...(byQuery.get(q) ?? []), ms])
      }
    }
    const p99 = percentile(times, 0.99)
    const [slowest, slowestTimes] = [...byQuery].sort((a, b) => percentile(b[1], 0.99) - percentile(a[1], 0.99))[0]!
    rows.push({
      scenario: `suggest ${entity} over HTTP at ${int(ctx.size)} components (${SUGGEST_QUERIES.length} queries × 20)`,
      value: p99,
      subject: `p50 ${percentile(times, 0.5).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms; slowest query ${JSON.stringify(slowest)}, p99 ${percentile(slowestTimes, 0.99).toFixed(2)} ms`,
      baseline: `GET /api/health in the same rounds: p50 ${percentile(health, 0.5).toFixed(2)} ms, p99 ${percentile(health, 0.99).toFixed(2)} ms`,
      ratio: (p99 / percentile(health, 0.99)).toFixed(1),
      target: `p99 ≤ 5 ms${p99 > 5 ? ' (missed)' : ''}`,
    })
  }
  return rows
}
