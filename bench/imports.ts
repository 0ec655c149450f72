// Imports at library size (decision 1308): a generated CSV of 100,000 parts
// (10,000 with --quick) uploaded to the built server on an empty data folder,
// planned, committed; each phase's wall time, the server's peak RSS, GET
// /api/health while the import runs (fairness.ts's poller), and GET
// /api/components?limit=50 during the commit against the same read at rest.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pollHealthDuring } from './fairness'
import type { BenchRow, HttpBenchContext } from './http'
import { percentile } from './lib/load'
import { startServerProcess } from './lib/server'

export async function benchImports(ctx: HttpBenchContext): Promise<BenchRow[]> {
  const rows = ctx.quick ? 10_000 : 100_000
  const dir = mkdtempSync(join(tmpdir(), 'complib-bench-imports-'))
  const server = await startServerProcess(dir)
  try {
    const csv = importFile(rows)
    const idleReads = await _reads(server.url, 2000)
    server.resetPeak()
    const t0 = performance.now()
    let session: Session | undefined
    let readsDuringCommit: number[] = []
    const phases: Record<string, number> = {}
    const health = await pollHealthDuring(server.url, async () => {
      const upload = await fetch(`${server.url}/api/imports?name=bench.csv`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: csv })
      if (upload.status !== 202) throw new Error(`bench: the import upload answered ${upload.status}: ${(await upload.text()).slice(0, 300)}`)
      phases.upload = performance.now() - t0
      const id = ((await upload.json()) as Session).id
      session = await _settled(server.url, id)
      phases.plan = performance.now() - t0 - phases.upload
      if (session.status !== 'pending') throw new Error(`bench: the import planned as ${session.status}: ${session.failure}`)
      const t1 = performance.now()
      const commit = await fetch(`${server.url}/api/imports/${id}/commit`, { method: 'POST' })
      if (commit.status !== 202) throw new Error(`bench: the commit answered ${commit.status}: ${(await commit.text()).slice(0, 300)}`)
      let committing = true
      const reader = (async () => {
        while (committing) readsDuringCommit.push(...(await _reads(server.url, 1)))
      })()
      session = await _settled(server.url, id)
      committing = false
      await reader
      phases.commit = performance.now() - t1
      return { status: 200 }
    })
    if (session?.status !== 'committed') throw new Error(`bench: the import ended ${session?.status}: ${session?.failure}`)
    const peak = server.peakRss()
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`
    const ms = (v: number) => `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`
    const s = (v: number) => `${(v / 1000).toFixed(1)} s`
    ctx.log(`imports: ${rows} rows (${mb(csv.length)}): upload ${s(phases.upload!)}, plan ${s(phases.plan!)}, commit ${s(phases.commit!)}; peak RSS ${mb(peak)}; ${readsDuringCommit.length} reads during the commit`)
    if (readsDuringCommit.length === 0) readsDuringCommit = [NaN]
    return [
      {
        scenario: `imports: a ${rows.toLocaleString('en')}-row CSV (${mb(csv.length)}) uploaded, planned and committed as a job`,
        value: phases.commit,
        subject: `upload answered ${s(phases.upload!)}, planned ${s(phases.plan!)} later, committed in ${s(phases.commit!)}; server peak RSS ${mb(peak)}`,
        baseline: `RSS at start ${mb(server.startRss)}`,
        ratio: '—',
        target: 'all-or-nothing; memory bounded by the file',
      },
      {
        scenario: 'imports: GET /api/health every 10 ms during the whole import',
        value: percentile(health.latencies, 0.99),
        subject: `p50 ${ms(percentile(health.latencies, 0.5))}, p99 ${ms(percentile(health.latencies, 0.99))}, max ${ms(Math.max(...health.latencies))}`,
        baseline: '—',
        ratio: '—',
        target: `max ≤ 300 ms${Math.max(...health.latencies) > 300 ? ' (missed)' : ''}`,
      },
      {
        scenario: 'imports: GET /api/components?limit=50 during the commit',
        value: percentile(readsDuringCommit, 0.99),
        subject: `p50 ${ms(percentile(readsDuringCommit, 0.5))}, p99 ${ms(percentile(readsDuringCommit, 0.99))} (${readsDuringCommit.length} reads)`,
        baseline: `idle p50 ${ms(percentile(idleReads, 0.5))}, p99 ${ms(percentile(idleReads, 0.99))}`,
        ratio: `${(percentile(readsDuringCommit, 0.99) / percentile(idleReads, 0.99)).toFixed(1)}×`,
        target: 'p99 ≤ 300 ms',
      },
    ]
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

interface Session {
  id: string
  status: string
  failure: string | null
}

/** A spreadsheet as users keep one: ipn, name, description, category, maker, MPN, two parameters, a location and a quantity. */
export function importFile(rows: number): string {
  const lines = ['IPN,Name,Description,Category,Manufacturer,MPN,Resistance,Package,Location,Quantity']
  for (let i = 0; i < rows; i++) {
    lines.push(`IMP-${String(i).padStart(6, '0')},R ${i} 0603,thick film resistor ${i % 97} ohm 1%,Resistors/Chip,Yageo,RC0603FR-${String(i).padStart(6, '0')}L,${(i % 1000) + 1}k,0603,Shelf ${i % 10}/Bin ${i % 50},${i % 500}`)
  }
  return `${lines.join('\n')}\n`
}

async function _settled(url: string, id: string): Promise<Session> {
  for (;;) {
    const res = await fetch(`${url}/api/imports/${id}`)
    const body = (await res.json()) as Session
    if (body.status !== 'planning' && body.status !== 'committing') return body
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** Latencies of `n` GET /api/components?limit=50, one after another. */
async function _reads(url: string, n: number): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    const res = await fetch(`${url}/api/components?limit=50`)
    await res.arrayBuffer()
    if (res.status !== 200) throw new Error(`bench: GET /api/components answered ${res.status}`)
    out.push(performance.now() - t0)
    if (n > 1 && out.length >= 50 && out.reduce((a, b) => a + b, 0) > 2000) break
  }
  return out
}
