// Reads against the physical limit: GET one component (random ids) and GET a
// page of 50, each against bare node:http in its own process serving the exact
// bytes the server gave for the same paths. The load generator runs in a
// process of its own; its CPU is printed beside the server's (and the bare
// server's), and a row whose generator used most of a core, or more CPU than
// the server it loaded, says that its ratio measures the generator. Subject and baseline
// alternate (A B A B …); medians are quoted.
import type { BenchRow, HttpBenchContext } from './http'
import { createRandom } from './lib/library-data'
import { int, load, median, pct, record, startBytesServer, type LoadRequest, type LoadResult } from './lib/load'
import type { ServerProcess } from './lib/server'

/** A generator past this share of one core is the bottleneck (what the rows then say). */
const SATURATED = 0.9

export async function benchReads(ctx: HttpBenchContext, server: ServerProcess, ids: string[]): Promise<BenchRow[]> {
  const random = createRandom(7)
  const one = Array.from({ length: ctx.quick ? 200 : 2000 }, () => `/api/components/${ids[Math.floor(random() * ids.length)]}`)
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
  for (const [name, paths, target] of [
    [`read one: GET /api/components/:id, random ids, ${int(ctx.size)} components`, one, 0.75],
    ['read a page of 50: GET /api/components?limit=50 (20 pages by cursor)', pages, 0.6],
  ] as const) {
    const recorded = await Promise.all([...new Set(paths)].map((p) => record(server.url, p)))
    const bytes = await startBytesServer(recorded)
    const requests: LoadRequest[] = paths.map((path) => ({ method: 'GET', path }))
    try {
      const run = (url: string, pid: number, s = seconds) => load({ generator: ctx.generator, url, connections: 10, seconds: s, requests, watch: { server: pid } })
      await run(bytes.url, bytes.pid, 1) // warm-up, untimed
      await run(server.url, server.pid, 1)
      const subject: LoadResult[] = []
      const baseline: LoadResult[] = []
      for (let r = 0; r < (ctx.quick ? 1 : 3); r++) {
        baseline.push(await run(bytes.url, bytes.pid))
        subject.push(await run(server.url, server.pid))
      }
      const show = (list: LoadResult[]) => list.map((l) => `${int(l.rps)} (server ${pct(l.cpu.server!)}, ${ctx.generator} ${pct(l.cpu.generator!)})`).join(', ')
      ctx.log(`${name}: subject ${show(subject)}; baseline ${show(baseline)} req/s`)
      ctx.log(`${name}: server CPU per request ${subject.map((l) => ((l.cpu.server! * 1e6) / l.rps).toFixed(0)).join(', ')} µs; bare node:http ${baseline.map((l) => ((l.cpu.server! * 1e6) / l.rps).toFixed(0)).join(', ')} µs`)
      const s = _medianRound(subject)
      const b = _medianRound(baseline)
      const ratio = s.rps / b.rps
      const limited = [s, b].find(_generatorBound)
      rows.push({
        scenario: name,
        value: s.rps,
        subject: `${int(s.rps)} req/s (p99 ${s.p99Ms.toFixed(1)} ms); CPU: server ${pct(s.cpu.server!)}, ${ctx.generator} ${pct(s.cpu.generator!)}`,
        baseline: `${int(b.rps)} req/s bare node:http, same bytes; CPU: it ${pct(b.cpu.server!)}, ${ctx.generator} ${pct(b.cpu.generator!)}`,
        ratio: ratio.toFixed(2),
        target:
          `≥ ${target}${ratio < target ? ' (missed)' : ''}` +
          (limited ? ` (the generator was the limit: ${pct(limited.cpu.generator!)} of a core against the ${limited === s ? 'server' : 'bare server'}'s ${pct(limited.cpu.server!)}; the ratio measures it)` : ''),
      })
    } finally {
      bytes.stop()
    }
  }
  return rows
}

/**
 * Whether the generator, not the server it loaded, limited a round: it used
 * most of a core, or more CPU than the server (on a machine whose cores are
 * all busy, the hungrier of the two runs out first).
 */
function _generatorBound(round: LoadResult): boolean {
  return round.cpu.generator! >= SATURATED || round.cpu.generator! >= round.cpu.server!
}

/** The round with the median request rate (its CPU figures belong to it). */
function _medianRound(rounds: LoadResult[]): LoadResult {
  const rate = median(rounds.map((r) => r.rps))
  return rounds.find((r) => r.rps === rate)!
}
