// The filtered list at the library's size: a page of each filter the library
// table offers, one request at a time, beside the unfiltered page measured in
// the same rounds; and how long a health probe, sent every few milliseconds
// meanwhile, waited behind them (SQLite answers on the one thread every request
// shares). With `--size` other than 100,000, the same pages are measured on a
// library of 100,000 in the same run, and the growth is their ratio.
import { copyLibrary, libraryFolder, startServerProcess, type ServerProcess } from './lib/server'
import { int, percentile } from './lib/load'
import { startProbe } from './lib/probe'
import type { BenchRow, HttpBenchContext } from './http'

/** The filters a librarian reaches for, over the generated library's values (lib/library-data.ts). */
export const LIST_FILTERS = [
  'category=Resistors',
  'tag=automotive',
  'manufacturer=Murata',
  'status=obsolete',
  'parameter=Resistance:1k..10k',
  'q=resistor',
  'tag=eol-watch&category=ICs',
]
const REFERENCE_SIZE = 100_000

interface FilterTimes {
  /** Page times by filter, in ms; '' is the unfiltered page. */
  pages: Map<string, number[]>
  /** The longest wait of the health probe while the filtered pages ran, in ms. */
  probeMax: number
}

export async function benchFilters(ctx: HttpBenchContext, server: ServerProcess): Promise<BenchRow[]> {
  const rounds = ctx.quick ? 5 : 21
  const here = await _measure(server.url, rounds)
  let reference: FilterTimes | undefined
  if (!ctx.quick && ctx.size !== REFERENCE_SIZE) {
    const dir = copyLibrary(await libraryFolder(REFERENCE_SIZE, ctx.log))
    const other = await startServerProcess(dir)
    try {
      reference = await _measure(other.url, rounds)
    } finally {
      await other.stop()
    }
  }
  const p99 = (times: FilterTimes, filter: string) => percentile(times.pages.get(filter)!, 0.99)
  const unfiltered = p99(here, '')
  const rows: BenchRow[] = LIST_FILTERS.map((filter) => {
    const p = p99(here, filter)
    const growth = reference ? `; ×${(p / p99(reference, filter)).toFixed(2)} of the same page at ${int(REFERENCE_SIZE)}` : ''
    return {
      scenario: `filtered page: GET /api/components?${filter}&limit=50 at ${int(ctx.size)} components (${rounds - 1} rounds)`,
      subject: `p50 ${percentile(here.pages.get(filter)!, 0.5).toFixed(2)} ms, p99 ${p.toFixed(2)} ms${growth}`,
      baseline: `p99 ${unfiltered.toFixed(2)} ms, the unfiltered page, same rounds`,
      ratio: (p / unfiltered).toFixed(1),
      target: `p99 ≤ 10 ms${p > 10 ? ' (missed)' : ''}`,
    }
  })
  rows.push({
    scenario: `filtered pages: longest wait of a health probe every 5 ms while they ran, ${int(ctx.size)} components`,
    subject: `${here.probeMax.toFixed(1)} ms${reference ? `; ${reference.probeMax.toFixed(1)} ms at ${int(REFERENCE_SIZE)}` : ''}`,
    baseline: '—',
    ratio: '—',
    target: `≤ 20 ms${here.probeMax > 20 ? ' (missed)' : ''}`,
  })
  return rows
}

async function _measure(url: string, rounds: number): Promise<FilterTimes> {
  const pages = new Map<string, number[]>([['', []], ...LIST_FILTERS.map((f): [string, number[]] => [f, []])])
  const probe = startProbe(url, '/api/health', 5)
  for (let round = 0; round < rounds; round++) {
    for (const filter of pages.keys()) {
      const t0 = performance.now()
      const res = await fetch(`${url}/api/components?${filter ? `${filter}&` : ''}limit=50`)
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`bench: GET /api/components?${filter} answered ${res.status}`)
      if (round > 0) pages.get(filter)!.push(performance.now() - t0) // round 0 warms up
    }
  }
  const samples = await probe.stop()
  return { pages, probeMax: Math.max(...samples.map((s) => s.ms)) }
}
