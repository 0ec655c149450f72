// Push throughput: the connector (sandboxed code, throttle, signed deliveries,
// durable run records) against a plain loop that reads the same batches,
// signs them with node:crypto and POSTs them at the same concurrency, measured
// alternately in one run against one receiver in its own process.
import { fork } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pLimit from '../packages/connector-webhook/node_modules/p-limit/index.js'
import { createPushRunner } from '../packages/connector-webhook/src/runner.ts'
import createSqlJsStorage from '../packages/core/src/storage/sqljs.ts'
import { createRandom, makeComponent } from './lib/library-data'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const CONCURRENCY = 8

export async function benchPush(options: { quick: boolean }) {
  const size = options.quick ? 10_000 : 100_000
  const rounds = options.quick ? 1 : 3
  const dir = mkdtempSync(join(tmpdir(), 'complib-bench-push-'))
  const receiver = fork(new URL('./lib/receiver-process.mjs', import.meta.url), { stdio: 'ignore' })
  const port = await new Promise<number>((resolve) => receiver.once('message', (m: { port: number }) => resolve(m.port)))
  const url = `http://127.0.0.1:${port}/hooks/components`
  const storage = await createSqlJsStorage({ dir })
  try {
    const random = createRandom(42)
    for (let start = 0; start < size; start += 1000) {
      await storage.transaction(async (tx) => {
        for (let i = start; i < Math.min(size, start + 1000); i++) await tx.components.create(makeComponent(i, random))
      })
    }
    await storage.snapshot()
    const connector = await storage.connectors.create({
      type: 'webhook',
      name: 'bench',
      enabled: true,
      config: { url, requestsPerSecond: 1000, concurrency: CONCURRENCY, cron: null },
      secret: SECRET,
      code: null,
    })
    const runner = createPushRunner({ storage })
    const subject: number[] = []
    const baseline: number[] = []
    let peakRss = 0
    const idleRss = process.memoryUsage().rss
    // One untimed round of each first: JIT, the isolate and the receiver's sockets warm up.
    await _plainLoop(storage, url, size)
    await runner.start(connector.id, 'manual')
    await runner.settled(connector.id)
    for (let r = 0; r < rounds; r++) {
      baseline.push(await _plainLoop(storage, url, size))
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50)
      const t0 = performance.now()
      const run = await runner.start(connector.id, 'manual')
      await runner.settled(connector.id)
      subject.push(size / ((performance.now() - t0) / 1000))
      clearInterval(sampler)
      const done = await storage.runs.get(run.id)
      if (done.status !== 'succeeded') throw new Error(`bench push run ${done.status}: ${done.error}`)
    }
    await runner.close()
    const [s, b] = [_median(subject), _median(baseline)]
    console.log(`push rounds: subject ${subject.map(Math.round).join(', ')}; baseline ${baseline.map(Math.round).join(', ')} components/s`)
    const n = size.toLocaleString('en')
    return {
      rows: [
        { scenario: `push ${n} components, concurrency ${CONCURRENCY}, no throttle`, subject: `${Math.round(s)} components/s`, baseline: `${Math.round(b)}/s plain sign+POST loop`, ratio: (s / b).toFixed(2), target: '≥ 0.7' },
        { scenario: `push memory (${n} components)`, subject: `peak RSS ${(peakRss / 1048576).toFixed(0)} MB`, baseline: `idle ${(idleRss / 1048576).toFixed(0)} MB`, ratio: (peakRss / idleRss).toFixed(2), target: '≤ 300 MB' },
      ],
    }
  } finally {
    await storage.close()
    receiver.kill()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The same batches, read, signed with node:crypto and POSTed, `CONCURRENCY` at a time. Components per second. */
async function _plainLoop(storage: Awaited<ReturnType<typeof createSqlJsStorage>>, url: string, size: number): Promise<number> {
  const key = Buffer.from(SECRET.slice(6), 'base64')
  const ids = await storage.components.liveIds()
  const limit = pLimit(CONCURRENCY)
  const t0 = performance.now()
  const jobs: Promise<void>[] = []
  for (let i = 0; i < ids.length; i += 250) {
    const batch = ids.slice(i, i + 250)
    jobs.push(
      limit(async () => {
        const body = JSON.stringify({ entities: await storage.components.getMany(batch) })
        const id = `msg_${i}`
        const ts = Math.floor(Date.now() / 1000)
        const signature = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64')
        const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': `v1,${signature}` } })
        if (res.status !== 202) throw new Error(`baseline: ${res.status}`)
      }),
    )
  }
  await Promise.all(jobs)
  return size / ((performance.now() - t0) / 1000)
}

function _median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
