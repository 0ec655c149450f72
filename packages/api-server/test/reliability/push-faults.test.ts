import { afterAll, describe, expect, it } from 'vitest'
import { startReceiver } from '@complib/test-support/receiver'
import { okJson, settledRun, sleep } from './json-api'
import { startServe, type ServeProcess } from './server-process'

// A real server pushing to a receiver that never answers, and running hostile
// connector code: the API keeps answering, other connectors keep delivering,
// the server's memory stays bounded, and a cancel is prompt.
// (The per-fault behaviour is in connector-webhook/test/receiver-faults.test.ts,
// the per-case hostile code in connector-webhook/test/hostile-code.test.ts.)

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const servers: ServeProcess[] = []
afterAll(async () => {
  for (const s of servers) await s.stop()
})

const api = (server: ServeProcess, method: string, path: string, body?: unknown) => okJson(server.url, method, path, body)

/** Latencies (ms) of `count` GETs of a page of components, one after another, `gapMs` apart. */
async function getLatencies(server: ServeProcess, count: number, gapMs: number): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const res = await fetch(`${server.url}/api/components?limit=100`)
    await res.arrayBuffer()
    expect(res.status).toBe(200)
    out.push(performance.now() - started)
    await sleep(gapMs)
  }
  return out.sort((a, b) => a - b)
}
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const finished = (server: ServeProcess, runId: string) => settledRun(server.url, runId)

async function seeded(count: number): Promise<ServeProcess> {
  const server = await startServe()
  servers.push(server)
  const items = Array.from({ length: count }, (_, i) => ({ name: `part ${i}`, description: 'x'.repeat(200) }))
  for (let i = 0; i < items.length; i += 1000) await api(server, 'POST', '/api/bulk/components', { items: items.slice(i, i + 1000) })
  return server
}

describe('a real server under push faults', () => {
  it('answers the API while a receiver never answers, delivers through another connector meanwhile, and cancels at once', { timeout: 60_000 }, async () => {
    const server = await seeded(2000)
    const silent = await startReceiver(() => ({ status: 202, fault: 'never' }))
    const healthy = await startReceiver()
    try {
      const idle = await getLatencies(server, 20, 50)
      const stuck = await api(server, 'POST', '/api/connectors', { name: 'silent', secret: SECRET, config: { url: silent.url, concurrency: 4, requestsPerSecond: 1000 } })
      const run = await api(server, 'POST', `/api/connectors/${stuck.id}/push`)
      while (silent.inFlight() < 4) await sleep(20)
      const during = await getLatencies(server, 40, 50)
      // Another connector delivers everything while the first waits on its receiver.
      const other = await api(server, 'POST', '/api/connectors', { name: 'healthy', secret: SECRET, config: { url: healthy.url, concurrency: 4, requestsPerSecond: 1000 } })
      const otherRun = await finished(server, (await api(server, 'POST', `/api/connectors/${other.id}/push`)).id)
      expect(otherRun).toMatchObject({ status: 'succeeded', entitiesSent: 2000 })
      console.log(`GET /api/components?limit=100 while a receiver never answers: p50 ${pct(during, 50).toFixed(1)} ms, max ${pct(during, 100).toFixed(1)} ms (idle: p50 ${pct(idle, 50).toFixed(1)} ms, max ${pct(idle, 100).toFixed(1)} ms)`)
      expect(pct(during, 100)).toBeLessThan(1000)
      expect(silent.inFlight()).toBe(4)

      const started = performance.now()
      const cancelled = await api(server, 'POST', `/api/connector-runs/${run.id}/cancel`)
      expect(performance.now() - started).toBeLessThan(3000)
      expect(cancelled.status).toBe('cancelled')
      const detail = await api(server, 'GET', `/api/connector-runs/${run.id}`)
      const tried = detail.batches.filter((b: any) => b.attempts.length > 0)
      expect(tried).toHaveLength(4)
      for (const b of tried) expect(b.attempts).toEqual([expect.objectContaining({ status: null, error: 'abandoned: the run was cancelled or the server is stopping' })])
    } finally {
      await silent.close()
      await healthy.close()
    }
  })

  it('runs hostile connector code beside a well-behaved connector: each hostile run fails clearly, the API answers, memory stays bounded', { timeout: 90_000 }, async () => {
    const server = await seeded(1000)
    const receiver = await startReceiver()
    const healthy = await startReceiver()
    try {
      const hostile: Record<string, [string, RegExp]> = {
        'log flood': [`async function push(e, c, h) { const s = 'x'.repeat(1e6); for (let i = 0; i < 1e5; i++) h.log(s); throw new Error('logged enough') }`, /logged enough$/],
        'memory bomb': [`async function push() { const a = []; for (;;) a.push(new Array(1e6).fill(Math.random())) }`, /ran out of memory|the sandbox was stopped/],
        // The sandbox's CPU limit is wall time: on a loaded machine copying the padded batch out may
        // reach it before the ninth call is refused, which is as clear a failure.
        'send flood': [`async function push(e, c, h) { const big = e.map((x) => ({ ...x, pad: 'y'.repeat(4000) })); const all = []; for (let i = 0; i < 1e4; i++) all.push(h.sendWebhook(c.url, big)); await Promise.all(all) }`, /at most 8 helper calls|more than 32 MiB waiting to be sent|CPU time limit/],
        'infinite loop': [`async function push() { for (;;) {} }`, /CPU time limit/],
        escape: [`async function push() { this.constructor.constructor('return process')().exit(1) }`, /'?process'? is not defined/],
      }
      const baseline = server.rss()
      let peak = baseline
      const sampler = setInterval(() => (peak = Math.max(peak, server.rss())), 100)
      const runs: Array<[string, string, RegExp]> = []
      for (const [name, [code, error]] of Object.entries(hostile)) {
        const c = await api(server, 'POST', '/api/connectors', { name, secret: SECRET, config: { url: receiver.url, concurrency: 4, requestsPerSecond: 1000 } })
        await api(server, 'PUT', `/api/connectors/${c.id}/code`, { code })
        runs.push([name, (await api(server, 'POST', `/api/connectors/${c.id}/push`)).id, error])
      }
      const fine = await api(server, 'POST', '/api/connectors', { name: 'fine', secret: SECRET, config: { url: healthy.url, concurrency: 2, requestsPerSecond: 1000 } })
      const fineRun = (await api(server, 'POST', `/api/connectors/${fine.id}/push`)).id
      const during = await getLatencies(server, 20, 100)
      for (const [name, id, error] of runs) {
        const run = await finished(server, id)
        expect(run.status, name).toBe('failed')
        expect(run.error, name).toMatch(error)
      }
      expect(await finished(server, fineRun)).toMatchObject({ status: 'succeeded', entitiesSent: 1000 })
      clearInterval(sampler)
      console.log(
        `hostile code (${Object.keys(hostile).join(', ')}) beside a healthy push: GET p50 ${pct(during, 50).toFixed(1)} ms, max ${pct(during, 100).toFixed(1)} ms; server RSS ${(baseline / 2 ** 20).toFixed(0)} MB before, peak ${(peak / 2 ** 20).toFixed(0)} MB`,
      )
      // Before the sandbox bounds, the log flood alone grew a server by ~1 GB and the send flood by ~2.8 GB.
      expect(peak - baseline).toBeLessThan(600 * 2 ** 20)
      expect(server.exitCode()).toBeNull()
      expect((await api(server, 'GET', '/api/health')).status).toBe('ok')
    } finally {
      await receiver.close()
      await healthy.close()
    }
  })
})
