// Fairness: how long one maximum-size request keeps everyone else waiting.
// While the largest bulk create the API accepts runs (and then the commit of
// the largest import it accepts), GET /api/health is polled every 10 ms (a
// new connection each time); the row quotes the health latencies seen meanwhile,
// against the same polling of an idle server.
import { request } from 'node:http'
import type { BenchRow, HttpBenchContext } from './http'
import { percentile } from './lib/load'

/** The health-latency rows: a maximum-size bulk create, and the commit of a maximum-size import. */
export async function benchFairness(ctx: HttpBenchContext, server: { url: string }, limits: FairnessLimits): Promise<BenchRow[]> {
  const idle = await pollHealthDuring(server.url, () => new Promise<{ status?: number }>((r) => setTimeout(() => r({}), 1000)))
  ctx.log(`fairness: idle health p50 ${_ms(percentile(idle.latencies, 0.5))}, max ${_ms(Math.max(...idle.latencies))}`)
  const rows: BenchRow[] = []
  const bulk = maxBulkCreate(limits)
  const during = await pollHealthDuring(server.url, () => _send(server.url, 'POST', '/api/bulk/components', 'application/json', bulk))
  ctx.log(`fairness: bulk create (${_mb(bulk.length)}) answered ${during.status} in ${_ms(during.ms)}`)
  if (during.status !== 200) throw new Error(`bench: the maximum-size bulk create answered ${during.status}: ${during.body.slice(0, 300)}`)
  rows.push(_row(`fairness: GET /api/health every 10 ms during a maximum-size bulk create (${_describeBulk(limits, bulk.length)})`, during, idle))

  const csv = maxImport(limits)
  const upload = await _send(server.url, 'POST', '/api/imports?format=csv&upsertKey=ipn', 'text/csv', csv)
  if (upload.status !== 201) throw new Error(`bench: the maximum-size import answered ${upload.status}: ${upload.body.slice(0, 300)}`)
  const id = (JSON.parse(upload.body) as { id: string }).id
  ctx.log(`fairness: import upload (${_mb(csv.length)}) answered in ${_ms(upload.ms)}`)
  const commit = await pollHealthDuring(server.url, () => _send(server.url, 'POST', `/api/imports/${id}/commit`, 'application/json', ''))
  ctx.log(`fairness: import commit answered ${commit.status} in ${_ms(commit.ms)}`)
  if (commit.status !== 200) throw new Error(`bench: the maximum-size import commit answered ${commit.status}: ${commit.body.slice(0, 300)}`)
  rows.push(_row(`fairness: GET /api/health every 10 ms during the commit of a maximum-size import (${limits.importRows.toLocaleString('en')} rows, ${limits.importCells.toLocaleString('en')} cells; ${_mb(csv.length)})`, commit, idle))
  return rows
}

/** The limits the bench builds its largest requests from (the API's own: see run.ts). */
export interface FairnessLimits {
  bulkItems: number
  bulkChildren: number
  bulkBodyBytes: number
  parameters: number
  tags: number
  mpns: number
  importRows: number
  importCells: number
  importBodyBytes: number
}

/**
 * The heaviest bulk create the API takes: as many items as a request takes,
 * the children budget spent on the dearest children (part numbers, then new
 * tags, then parameters), and the rest of the body limit in descriptions
 * (each indexed for full-text search).
 */
export function maxBulkCreate(limits: FairnessLimits): string {
  const run = Date.now().toString(36)
  const perItem = Math.floor(limits.bulkChildren / limits.bulkItems)
  const mpns = Math.min(limits.mpns, perItem)
  const tags = Math.min(limits.tags, perItem - mpns)
  const parameters = Math.min(limits.parameters, perItem - mpns - tags)
  const item = (i: number, description: string) => ({
    name: `fair ${run} ${i}`,
    description,
    parameters: Array.from({ length: parameters }, (_, j) => ({ type: `P${j}`, value: `${(i + j) % 1000}k`, unit: 'R' })),
    tags: Array.from({ length: tags }, (_, j) => `t${run}-${i}-${j}`),
    mpns: Array.from({ length: mpns }, (_, j) => ({ manufacturer: `M${j % 10}`, partNumber: `${run}-${i}-${j}` })),
  })
  const bare = Buffer.byteLength(JSON.stringify({ items: Array.from({ length: limits.bulkItems }, (_, i) => item(i, '')) }))
  const words = _words(Math.floor((limits.bulkBodyBytes * 0.98 - bare) / limits.bulkItems))
  const body = JSON.stringify({ items: Array.from({ length: limits.bulkItems }, (_, i) => item(i, words)) })
  if (Buffer.byteLength(body) > limits.bulkBodyBytes) throw new Error(`bench: the maximum bulk create is ${Buffer.byteLength(body)} bytes, over the route's ${limits.bulkBodyBytes}`)
  return body
}

/** The largest import: as many rows and non-empty cells as an import takes, and the rest of the body limit in descriptions. */
export function maxImport(limits: FairnessLimits): string {
  const run = Date.now().toString(36)
  const parameters = Math.min(limits.parameters, Math.floor(limits.importCells / limits.importRows) - 3)
  const header = ['name', 'ipn', 'description', ...Array.from({ length: parameters }, (_, j) => `P${j}`)].join(',')
  const row = (i: number, description: string) => [`imp ${i}`, `IMP-${run}-${i}`, description, ...Array.from({ length: parameters }, (_, j) => String((i + j) % 100))].join(',')
  const bare = Buffer.byteLength(header) + Array.from({ length: limits.importRows }, (_, i) => row(i, '').length + 1).reduce((a, b) => a + b, 0)
  const words = _words(Math.floor((limits.importBodyBytes * 0.98 - bare) / limits.importRows))
  return `${[header, ...Array.from({ length: limits.importRows }, (_, i) => row(i, words))].join('\n')}\n`
}

/** About `bytes` of words, for descriptions (full-text indexed word by word). */
function _words(bytes: number): string {
  const words: string[] = []
  let size = 0
  for (let i = 0; size < bytes - 12; i++) {
    const w = `w${(i * 7919) % 100000}`
    words.push(w)
    size += w.length + 1
  }
  return words.join(' ')
}

/** Polls GET /api/health every 10 ms on its own connection while `work` runs; latencies in ms. */
export async function pollHealthDuring<T extends { status?: number }>(url: string, work: () => Promise<T>): Promise<T & { latencies: number[]; ms: number }> {
  const latencies: number[] = []
  let done = false
  const poller = (async () => {
    while (!done) {
      const t0 = performance.now()
      const res = await _send(url, 'GET', '/api/health', '', '')
      if (res.status !== 200) throw new Error(`bench: /api/health answered ${res.status}`)
      latencies.push(performance.now() - t0)
      await new Promise((r) => setTimeout(r, 10))
    }
  })()
  const t0 = performance.now()
  try {
    const result = await work()
    return { ...result, latencies, ms: performance.now() - t0 }
  } finally {
    done = true
    await poller
  }
}

function _row(scenario: string, during: { latencies: number[] }, idle: { latencies: number[] }): BenchRow {
  const max = Math.max(...during.latencies)
  return {
    scenario,
    value: percentile(during.latencies, 0.99),
    subject: `p50 ${_ms(percentile(during.latencies, 0.5))}, p99 ${_ms(percentile(during.latencies, 0.99))}, max ${_ms(max)}`,
    baseline: `idle p50 ${_ms(percentile(idle.latencies, 0.5))}, max ${_ms(Math.max(...idle.latencies))}`,
    ratio: '—',
    target: `max ≤ 300 ms${max > 300 ? ' (missed)' : ''}`,
  }
}

// A connection per request, as a health checker makes them: a kept-alive one may be closed by the
// server's idle timer just as a stalled event loop gets round to it (ECONNRESET).
function _send(url: string, method: string, path: string, type: string, body: string): Promise<{ status: number; body: string; ms: number }> {
  const t0 = performance.now()
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-length': Buffer.byteLength(body) }
    if (type) headers['content-type'] = type
    const req = request(`${url}${path}`, { method, headers, agent: false }, (res) => {
      res.setEncoding('utf8')
      let text = ''
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, body: text, ms: performance.now() - t0 }))
      res.on('error', reject)
    })
    req.on('error', (error) => reject(new Error(`bench: ${method} ${path}: ${error.message}`)))
    req.end(body)
  })
}

const _ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`
const _mb = (n: number) => `${(n / 1048576).toFixed(1)} MiB`
const _describeBulk = (l: FairnessLimits, bytes: number) => `${l.bulkItems.toLocaleString('en')} items, ${l.bulkChildren.toLocaleString('en')} children; ${_mb(bytes)}`
