import { type RunDetail } from '@complib/core'
import { createSqliteStorage } from '@complib/core/sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import { createPushRunner } from '../src/runner'
import { startReceiver, type Answer } from '@complib/test-support/receiver'

// The default connector code against a receiver that misbehaves in one way each:
// what sendWebhook returns (no redirect followed, only 2xx is
// success, status 0 when no answer came), combined with the default policy
// (3 attempts, 1000 ms then 2000 ms apart, then an error carrying the status).
// The 30 s answer timeout is shortened to ANSWER_TIMEOUT_MS here.

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
// Long enough that a prompt answer on a loaded machine (2 shared cores, the whole suite running)
// never counts as no answer; a receiver that is slow on purpose takes 3 s.
const ANSWER_TIMEOUT_MS = 1500
const cleanup: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const fn of cleanup) await fn()
})

/** Pushes 3 components (one batch) through `code` to a receiver answering with `answer`. */
async function pushAgainst(answer: (index: number) => Answer, code: string | null = null) {
  const storage = await createSqliteStorage()
  const runner = createPushRunner({ storage, requestTimeoutMs: ANSWER_TIMEOUT_MS })
  const receiver = await startReceiver((_, i) => answer(i))
  cleanup.push(async () => {
    await runner.close()
    await receiver.close()
    await storage.close()
  })
  for (let i = 0; i < 3; i++) await storage.components.create({ name: `part ${i}` })
  const c = await storage.connectors.create({ type: 'webhook', name: 'hook', enabled: true, config: { url: receiver.url, requestsPerSecond: 1000, concurrency: 4, cron: null }, secret: SECRET, code })
  const started = performance.now()
  const { id } = await runner.start(c.id, 'manual')
  await runner.settled(c.id)
  const run: RunDetail = await storage.runs.get(id)
  return { run, batch: run.batches[0]!, receiver, elapsed: performance.now() - started }
}

const gaps = (attempts: Array<{ at: string }>) => attempts.slice(1).map((a, i) => Date.parse(a.at) - Date.parse(attempts[i]!.at))

describe.concurrent('receiver faults, with the default connector code', () => {
  for (const [name, answer, retryAfter] of [
    ['500', { status: 500 }, undefined],
    ['503 with Retry-After in seconds', { status: 503, headers: { 'retry-after': '7' } }, 7],
    ['429 with Retry-After as an HTTP date', { status: 429, headers: { 'retry-after': new Date(Date.now() + 120_000).toUTCString() } }, 'date'],
    ['429 without Retry-After', { status: 429 }, undefined],
    ['410', { status: 410 }, undefined],
    ['413', { status: 413 }, undefined],
  ] as const) {
    it(`${name}: 3 attempts 1 s then 2 s apart, then the batch fails carrying the status`, async () => {
      const { run, batch, receiver } = await pushAgainst(() => answer)
      expect(run.status).toBe('failed')
      expect(batch.attempts.map((a) => a.status)).toEqual([answer.status, answer.status, answer.status])
      expect(batch.lastStatus).toBe(answer.status)
      expect(batch.error).toBe(`[connector:webhook] batch 0: receiver answered ${answer.status} after 3 attempts`)
      expect(run.error).toBe(`1 of 1 batches failed; first: ${batch.error}`)
      const [first, second] = gaps(batch.attempts)
      expect(first).toBeGreaterThanOrEqual(950)
      expect(second).toBeGreaterThanOrEqual(1950)
      for (const a of batch.attempts) {
        expect(a.error).toBeNull()
        if (retryAfter === undefined) expect(a).not.toHaveProperty('retryAfter')
        else if (retryAfter === 'date') expect(a.retryAfter).toBeGreaterThan(100)
        else expect(a.retryAfter).toBe(retryAfter)
      }
      expect(receiver.received).toHaveLength(3)
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1)
      expect(new Set(receiver.received.map((r) => r.raw.toString())).size).toBe(1)
    })
  }

  it('301: the redirect is not followed; the target never hears of it', async () => {
    const target = await startReceiver()
    cleanup.push(target.close)
    const { run, batch } = await pushAgainst(() => ({ status: 301, headers: { location: target.url } }))
    expect(run.status).toBe('failed')
    expect(batch.attempts.map((a) => a.status)).toEqual([301, 301, 301])
    expect(batch.error).toBe('[connector:webhook] batch 0: receiver answered 301 after 3 attempts')
    expect(target.received).toEqual([])
  })

  for (const [name, answer, error] of [
    ['an answer slower than the timeout', { status: 202, delayMs: 3000 }, `no answer within ${ANSWER_TIMEOUT_MS} ms`],
    ['a receiver that never answers', { status: 202, fault: 'never' }, `no answer within ${ANSWER_TIMEOUT_MS} ms`],
    ['a connection reset', { status: 202, fault: 'reset' }, /^(socket hang up|read ECONNRESET)$/],
  ] as const) {
    it(`${name}: 3 attempts without a status, each saying why, then the batch fails`, async () => {
      const { run, batch } = await pushAgainst(() => answer)
      expect(run.status).toBe('failed')
      expect(batch.attempts.map((a) => a.status)).toEqual([null, null, null])
      expect(batch.lastStatus).toBeNull()
      for (const a of batch.attempts) expect(a.error).toMatch(error)
      expect(batch.error).toBe('[connector:webhook] batch 0: no answer from the receiver after 3 attempts')
      // Three answer timeouts plus 3 s of retry delays: 7.6 s alone, over 20 s once while CI's other suites loaded both cores.
    }, 60_000)
  }

  it('a 2xx whose body trickles in: succeeds at the status, without waiting for the body', async () => {
    const { run, batch, elapsed } = await pushAgainst(() => ({ status: 200, fault: 'slow-body', delayMs: 5000 }))
    expect(run.status).toBe('succeeded')
    expect(batch.attempts.map((a) => a.status)).toEqual([200])
    expect(batch.attempts[0]!.durationMs).toBeLessThan(2000)
    expect(elapsed).toBeLessThan(4000)
  })

  it('a 503 then a 202: the second attempt succeeds and both are recorded', async () => {
    const { run, batch } = await pushAgainst((i) => (i === 0 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 202 }))
    expect(run).toMatchObject({ status: 'succeeded', batchesSucceeded: 1, entitiesSent: 3 })
    expect(batch.attempts.map((a) => [a.status, a.retryAfter])).toEqual([
      [503, 1],
      [202, undefined],
    ])
  })

  it('code that honours Retry-After gets it from sendWebhook and waits that long', async () => {
    const code = `async function push(entities, config, helpers) {
      for (let attempt = 1; ; attempt++) {
        const res = await helpers.sendWebhook(config.url, entities)
        if (res.ok) return
        if (attempt === 2) throw Object.assign(new Error('gave up on ' + res.status), { status: res.status })
        await helpers.sleep((res.retryAfter ?? 1) * 1000)
      }
    }`
    const { run, batch } = await pushAgainst((i) => (i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 202 }), code)
    expect(run.status).toBe('succeeded')
    expect(batch.attempts.map((a) => a.status)).toEqual([429, 202])
    expect(gaps(batch.attempts)[0]).toBeGreaterThanOrEqual(1950)
  })
})
