// The filtered list at the library's size: a page of each filter the library
// table offers, one request at a time, beside the unfiltered page measured in
// the same rounds; and how long a health probe, sent every few milliseconds
// meanwhile, waited behind them (SQLite answers on the one thread every request
// shares). Their growth with the library's size is printed by run.ts.
import type { ServerProcess } from './lib/server'
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
  // The library table's most common view: a category by name (its index's order, decision 0321).
  'category=Resistors&sort=name',
]

export interface FilterTimes {
  /** Page times by filter, in ms; '' is the unfiltered page. */
  pages: Map<string, number[]>
  /** The longest wait of the health probe while the filtered pages ran, in ms. */
  probeMax: number
}

export async function benchFilters(ctx: HttpBenchContext, server: ServerProcess): Promise<BenchRow[]> {
  // 100 measured rounds, so the p99 is the 99th page of each filter, not the slowest of 20 (one pause of the machine).
  const rounds = ctx.quick ? 5 : 101
  const here = await measureFilters(server.url, rounds)
  const p99 = (filter: string) => percentile(here.pages.get(filter)!, 0.99)
  const unfiltered = p99('')
  const rows: BenchRow[] = LIST_FILTERS.map((filter) => {
    const p = p99(filter)
    return {
      scenario: `filtered page: GET /api/components?${filter}&limit=50 at ${int(ctx.size)} components (${rounds - 1} rounds)`,
      value: p,
      subject: `p50 ${percentile(here.pages.get(filter)!, 0.5).toFixed(2)} ms, p99 ${p.toFixed(2)} ms`,
      baseline: `p99 ${unfiltered.toFixed(2)} ms, the unfiltered page, same rounds`,
      ratio: (p / unfiltered).toFixed(1),
      target: `p99 ≤ 10 ms${p > 10 ? ' (missed)' : ''}`,
    }
  })
  rows.push({
    scenario: `filtered pages: longest wait of a health probe every 5 ms while they ran, ${int(ctx.size)} components`,
    value: here.probeMax,
    subject: `${here.probeMax.toFixed(1)} ms`,
    baseline: '—',
    ratio: '—',
    target: `≤ 20 ms${here.probeMax > 20 ? ' (missed)' : ''}`,
  })
  return rows
}

/** A page of every filter and the unfiltered one, `rounds` times (the first warms up), with a health probe beside them. */
export async function measureFilters(url: string, rounds: number): Promise<FilterTimes> {
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
