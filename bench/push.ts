// Push throughput and memory: the running server pushes the whole library to
// a receiver in its own process (connector code in the sandbox, throttle,
// signed deliveries, durable run records), against the physical limit: a
// plain loop in this process that POSTs the same batches from memory (their
// bytes read from a copy of the library before the clock starts; only the
// signing with node:crypto and the POST with bare node:http are timed) at the
// same concurrency.
// Alternated in one run; medians quoted.
import { fork } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { Agent, request } from 'node:http'
import { rmSync } from 'node:fs'
import { createSqliteStorage } from '@complib/core/sqlite'
import pLimit from 'p-limit'
import type { BenchRow, HttpBenchContext } from './http'
import { int, mb, median } from './lib/load'
import { startProbe } from './lib/probe'
import { copyLibrary, type ServerProcess } from './lib/server'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const CONCURRENCY = 8
const BATCH = 250

export async function benchPush(ctx: HttpBenchContext, server: ServerProcess): Promise<BenchRow[]> {
  const receiver = fork(new URL('./lib/receiver-process.mjs', import.meta.url), { stdio: 'ignore' })
  const port = await new Promise<number>((resolve) => receiver.once('message', (m: { port: number }) => resolve(m.port)))
  const url = `http://127.0.0.1:${port}/hooks/components`
  const batches = await _readBatches(ctx.library)
  try {
    const connector = await _api<{ id: string }>(server, 'POST', '/api/connectors', {
      type: 'webhook',
      name: 'bench',
      config: { url, requestsPerSecond: 1000, concurrency: CONCURRENCY },
      secret: SECRET,
    })
    // Idle: the server just started on the library (run.ts starts it afresh for the push).
    const idle = server.startRss
    const { databaseBytes } = await _api<{ databaseBytes: number }>(server, 'GET', '/api/stats')
    const peaks: number[] = []
    const accepted: number[] = []
    const probeMax: number[] = []
    const subject: number[] = []
    const baseline: number[] = []
    const rounds = ctx.quick ? 1 : 3
    // One untimed round of each first: JIT, the isolate and the receiver's sockets warm up.
    await _plainLoop(batches, url)
    await _serverPush(server, connector.id)
    await _healthMs(server)
    for (let r = 0; r < rounds; r++) {
      baseline.push(await _plainLoop(batches, url))
      server.resetPeak()
      const probe = startProbe(server.url, '/api/health', 5)
      const push = await _serverPush(server, connector.id)
      probeMax.push(Math.max(...(await probe.stop()).map((p) => p.ms)))
      subject.push(push.rate)
      accepted.push(push.acceptedMs)
      peaks.push(server.peakRss())
    }
    const health = await _healthMs(server)
    ctx.log(`push rounds: server ${subject.map(int).join(', ')}; plain loop ${baseline.map(int).join(', ')} components/s`)
    const peak = Math.max(...peaks)
    const ratio = median(subject) / median(baseline)
    const slowest = Math.max(...accepted)
    return [
      {
        scenario: `push start: POST /api/connectors/{id}/push until its 202, ${int(ctx.size)} components`,
        value: slowest,
        subject: `${slowest.toFixed(1)} ms at most (per round: ${accepted.map((ms) => ms.toFixed(1)).join(', ')}); a health probe every 5 ms waited at most ${Math.max(...probeMax).toFixed(1)} ms during the pushes`,
        baseline: `${health.toFixed(2)} ms: GET /api/health, median of 50`,
        ratio: (slowest / health).toFixed(1),
        target: `≤ 50 ms${slowest > 50 ? ' (missed)' : ''}`,
      },
      {
        scenario: `push ${int(ctx.size)} components, concurrency ${CONCURRENCY}, no throttle`,
        value: median(subject),
        subject: `${int(median(subject))} components/s`,
        baseline: `${int(median(baseline))}/s plain loop: the same batches from memory, signed and POSTed`,
        ratio: ratio.toFixed(2),
        target: `≥ 0.8${ratio < 0.8 ? ' (missed)' : ''}`,
      },
      {
        scenario: `push memory: the server's peak RSS during those pushes`,
        value: peak,
        subject: `peak RSS ${mb(peak)} (per round: ${peaks.map((p) => Math.round(p / 1048576)).join(', ')} MB)`,
        baseline: `idle ${mb(idle)} (just started; the database file is ${mb(databaseBytes)})`,
        ratio: (peak / idle).toFixed(2),
        target: `≤ 200 MB${peak > 200 * 1048576 ? ' (missed)' : ''}`,
      },
    ]
  } finally {
    receiver.kill()
  }
}

/**
 * Starts a push through the API and waits for it: how long the 202 took, and
 * components per second from the run record's own times.
 */
async function _serverPush(server: ServerProcess, connectorId: string): Promise<{ acceptedMs: number; rate: number }> {
  const t0 = performance.now()
  const run = await _api<{ id: string; total: number }>(server, 'POST', `/api/connectors/${connectorId}/push`)
  const acceptedMs = performance.now() - t0
  for (;;) {
    await new Promise((r) => setTimeout(r, 100))
    const now = await _api<{ status: string; error: string | null; startedAt: string; finishedAt: string | null; total: number }>(server, 'GET', `/api/connector-runs/${run.id}`)
    if (now.status === 'running' || now.status === 'queued') continue
    if (now.status !== 'succeeded') throw new Error(`bench: push run ${now.status}: ${now.error}`)
    return { acceptedMs, rate: now.total / ((Date.parse(now.finishedAt!) - Date.parse(now.startedAt)) / 1000) }
  }
}

/** The median round trip of the health check: what any answer costs on this machine. */
async function _healthMs(server: ServerProcess): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now()
    await _api(server, 'GET', '/api/health')
    times.push(performance.now() - t0)
  }
  return median(times)
}

interface Batches {
  batches: Buffer[]
  components: number
}

/** Every batch's body as the connector sends it (the stored JSON of each component), read before any timing. */
async function _readBatches(library: string): Promise<Batches> {
  const dir = copyLibrary(library)
  const storage = await createSqliteStorage({ dir })
  try {
    const ids = await storage.components.liveIds()
    const batches: Buffer[] = []
    for (let i = 0; i < ids.length; i += BATCH) batches.push(Buffer.from(`{"entities":[${(await storage.components.getManyJson(ids.slice(i, i + BATCH))).join(',')}]}`, 'utf8'))
    return { batches, components: ids.length }
  } finally {
    await storage.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The batches, from memory (bytes), signed with node:crypto and POSTed with bare node:http
 * over kept-alive connections (the lightest client Node has; fetch costs more per request),
 * `CONCURRENCY` at a time. Components per second.
 */
async function _plainLoop({ batches, components }: Batches, url: string): Promise<number> {
  const key = Buffer.from(SECRET.slice(6), 'base64')
  const agent = new Agent({ keepAlive: true })
  const limit = pLimit(CONCURRENCY)
  const t0 = performance.now()
  await Promise.all(
    batches.map((body, i) =>
      limit(async () => {
        const id = `msg_${i}`
        const ts = String(Math.floor(Date.now() / 1000))
        const signature = createHmac('sha256', key).update(`${id}.${ts}.`).update(body).digest('base64')
        const headers = { 'content-type': 'application/json', 'content-length': String(body.byteLength), 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${signature}` }
        const status = await new Promise<number>((resolve, reject) => {
          const req = request(url, { method: 'POST', headers, agent }, (res) => {
            res.resume()
            res.once('end', () => resolve(res.statusCode ?? 0))
          })
          req.once('error', reject)
          req.end(body)
        })
        if (status !== 202) throw new Error(`baseline: ${status}`)
      }),
    ),
  )
  const rate = components / ((performance.now() - t0) / 1000)
  agent.destroy()
  return rate
}

async function _api<T>(server: ServerProcess, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) })
  if (!res.ok) throw new Error(`bench: ${method} ${path} answered ${res.status}: ${await res.text()}`)
  return (await res.json()) as T
}
