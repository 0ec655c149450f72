import { createHmac } from 'node:crypto'
import { deflateRawSync } from 'node:zlib'
import { createSqliteStorage, type SqliteStorage } from '@complib/core/sqlite'
import { Webhook } from 'standardwebhooks'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPushRunner, type PushRunner } from '../src/runner'
import { startReceiver } from '@complib/test-support/receiver'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
let storage: SqliteStorage
let runner: PushRunner
let receiver: Awaited<ReturnType<typeof startReceiver>>

beforeEach(async () => {
  storage = await createSqliteStorage()
  runner = createPushRunner({ storage })
})
afterEach(async () => {
  await runner.close()
  await receiver?.close()
  await storage.close()
})

async function seed(n: number): Promise<string[]> {
  return storage.transaction(async (tx) => {
    const ids: string[] = []
    for (let i = 0; i < n; i++) ids.push((await tx.components.create({ name: `part ${i}`, ipn: `P-${i}` })).id)
    return ids
  })
}
const connector = (config: Record<string, unknown>, code: string | null = null) =>
  storage.connectors.create({ type: 'webhook', name: 'hook', enabled: true, config: { requestsPerSecond: 1000, concurrency: 4, cron: null, ...config }, secret: SECRET, code })
const entitiesOf = (raw: Buffer) => (JSON.parse(raw.toString()) as { entities: Array<{ id: string }> }).entities

describe('push runs', () => {
  it('pushes 1,038 components as 250, 250, 250, 250, 38: every live id once, no deleted one, all signed', async () => {
    receiver = await startReceiver()
    const ids = await seed(1040)
    await storage.components.delete(ids[3]!)
    await storage.components.delete(ids[500]!)
    const c = await connector({ url: receiver.url })
    const run = await runner.start(c.id, 'manual')
    await runner.settled(c.id)
    const done = await storage.runs.get(run.id)
    expect(done).toMatchObject({ status: 'succeeded', total: 1038, batchesTotal: 5, batchesSucceeded: 5, entitiesSent: 1038 })
    expect(receiver.received.map((r) => entitiesOf(r.raw).length).sort((a, b) => b - a)).toEqual([250, 250, 250, 250, 38])
    const sent = receiver.received.flatMap((r) => entitiesOf(r.raw).map((e) => e.id))
    expect(new Set(sent).size).toBe(1038)
    expect(sent).not.toContain(ids[3])
    expect(sent).not.toContain(ids[500])
    const webhook = new Webhook(SECRET)
    for (const r of receiver.received) {
      const headers = { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) }
      expect(r.headers['content-type']).toBe('application/json')
      expect(headers['webhook-id']).toMatch(/^msg_/)
      expect(() => webhook.verify(r.raw, headers)).not.toThrow()
      const mac = createHmac('sha256', Buffer.from(SECRET.slice(6), 'base64')).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.`).update(r.raw).digest('base64')
      expect(headers['webhook-signature']).toBe(`v1,${mac}`)
    }
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(5)
    // Each delivery names its run and its batch, so a receiver can tell when it has seen the whole push.
    expect(receiver.received.map((r) => r.headers['complib-run-id'])).toEqual(Array(5).fill(run.id))
    expect(receiver.received.map((r) => String(r.headers['complib-batch'])).sort()).toEqual(['1/5', '2/5', '3/5', '4/5', '5/5'])
  })

  it('keeps within the concurrency and the requests per second', async () => {
    receiver = await startReceiver(() => ({ status: 202, delayMs: 150 }))
    await seed(250 * 8)
    const c = await connector({ url: receiver.url, concurrency: 2, requestsPerSecond: 4 })
    await runner.start(c.id, 'manual')
    await runner.settled(c.id)
    expect(receiver.received).toHaveLength(8)
    expect(receiver.maxInFlight()).toBeLessThanOrEqual(2)
    // Seen by the receiver, with up to 100 ms of network jitter allowed: an unthrottled run puts 6 in such a window.
    const starts = receiver.received.map((r) => r.at).sort((a, b) => a - b)
    for (const t of starts) expect(starts.filter((s) => s >= t && s < t + 900).length).toBeLessThanOrEqual(4)
  })

  it('retries with the default policy, keeping the webhook-id and the bytes', async () => {
    receiver = await startReceiver((_, i) => ({ status: i < 2 ? 500 : 202 }))
    await seed(3)
    const c = await connector({ url: receiver.url })
    const started = performance.now()
    const run = await runner.start(c.id, 'manual')
    await runner.settled(c.id)
    const elapsed = performance.now() - started
    expect(elapsed).toBeGreaterThanOrEqual(2900)
    expect(elapsed).toBeLessThan(6000)
    const detail = await storage.runs.get(run.id)
    expect(detail.status).toBe('succeeded')
    expect(detail.batches[0]!.attempts.map((a) => a.status)).toEqual([500, 500, 202])
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1)
    expect(new Set(receiver.received.map((r) => r.raw.toString())).size).toBe(1)
  })

  it('fails the run when the receiver keeps failing, saying what happened', async () => {
    receiver = await startReceiver(() => ({ status: 503 }))
    await seed(2)
    const c = await connector({ url: receiver.url })
    const run = await runner.start(c.id, 'manual')
    await runner.settled(c.id)
    const detail = await storage.runs.get(run.id)
    expect(detail.status).toBe('failed')
    expect(detail.batches[0]!.error).toBe('[connector:webhook] batch 0: receiver answered 503 after 3 attempts')
    expect(detail.error).toMatch(/1 of 1 batches failed/)
  })

  it('fails a run whose code loops forever, and the next connector still works', async () => {
    receiver = await startReceiver()
    await seed(2)
    const bad = await connector({ url: receiver.url }, 'async function push() { for (;;) {} }')
    const badRun = await runner.start(bad.id, 'manual')
    await runner.settled(bad.id)
    expect((await storage.runs.get(badRun.id)).status).toBe('failed')
    const good = await connector({ url: receiver.url })
    const goodRun = await runner.start(good.id, 'manual')
    await runner.settled(good.id)
    expect((await storage.runs.get(goodRun.id)).status).toBe('succeeded')
  })

  it('refuses a second run of the same connector while one is active, and cancels', async () => {
    receiver = await startReceiver(() => ({ status: 202, delayMs: 300 }))
    await seed(600)
    const c = await connector({ url: receiver.url, concurrency: 1 })
    const run = await runner.start(c.id, 'manual')
    await expect(runner.start(c.id, 'manual')).rejects.toMatchObject({ code: 'CONFLICT' })
    const cancelled = await runner.cancel(run.id)
    expect(cancelled.status).toBe('cancelled')
    expect(receiver.received.length).toBeLessThan(3)
  })

  it('cancels at once while the receiver never answers (cancel waited for the 30 s answer timeout)', async () => {
    receiver = await startReceiver(() => ({ status: 202, fault: 'never' }))
    await seed(600)
    const c = await connector({ url: receiver.url, concurrency: 2 })
    const run = await runner.start(c.id, 'manual')
    while (receiver.received.length < 2) await new Promise((r) => setTimeout(r, 20))
    const started = performance.now()
    const cancelled = await runner.cancel(run.id)
    expect(performance.now() - started).toBeLessThan(2000)
    expect(cancelled.status).toBe('cancelled')
    const detail = await storage.runs.get(run.id)
    const abandoned = detail.batches.filter((b) => b.attempts.length > 0)
    expect(abandoned).toHaveLength(2)
    for (const b of abandoned) expect(b.attempts[0]).toMatchObject({ status: null, error: 'abandoned: the run was cancelled or the server is stopping' })
  })

  it('cancels at once while the code never returns (cancel waited for the 10 min wall-clock limit)', async () => {
    receiver = await startReceiver()
    await seed(3)
    const c = await connector({ url: receiver.url }, 'function push() { return new Promise(() => {}) }')
    const run = await runner.start(c.id, 'manual')
    await new Promise((r) => setTimeout(r, 300))
    const started = performance.now()
    const cancelled = await runner.cancel(run.id)
    expect(performance.now() - started).toBeLessThan(2000)
    expect(cancelled.status).toBe('cancelled')
    expect((await storage.runs.get(run.id)).batches[0]!.error).toBe('[connector:webhook] batch 0: stopped: the run was cancelled or the server is stopping')
  })

  it('stops at once while the receiver never answers, and the run stays resumable (a stop waited for the answer timeout)', async () => {
    receiver = await startReceiver(() => ({ status: 202, fault: 'never' }))
    await seed(3)
    const c = await connector({ url: receiver.url })
    const run = await runner.start(c.id, 'manual')
    while (receiver.received.length < 1) await new Promise((r) => setTimeout(r, 20))
    const started = performance.now()
    await runner.close()
    expect(performance.now() - started).toBeLessThan(2000)
    expect((await storage.runs.get(run.id)).status).toBe('running')
    expect((await storage.runs.listActive()).map((r) => r.id)).toEqual([run.id])
  })

  it('resumes an interrupted run: acknowledged batches are not sent again, a resent one keeps its id and bytes', async () => {
    receiver = await startReceiver()
    await seed(600)
    const c = await connector({ url: receiver.url })
    const ids = await storage.components.liveIds()
    const run = await storage.runs.create({
      connectorId: c.id,
      trigger: 'manual',
      batches: [
        { webhookId: 'msg_first', ids: ids.slice(0, 250) },
        { webhookId: 'msg_second', ids: ids.slice(250, 500) },
        { webhookId: 'msg_third', ids: ids.slice(500) },
      ],
    })
    // As a crash would leave it: batch 0 acknowledged, batch 1 sent once (bytes kept), batch 2 never started.
    const text = JSON.stringify({ entities: await storage.components.getMany(ids.slice(250, 500)) })
    const body = deflateRawSync(text)
    await storage.runs.update(run.id, { status: 'running', startedAt: new Date().toISOString() })
    await storage.runs.updateBatch(run.id, 0, { status: 'succeeded' })
    await storage.runs.updateBatch(run.id, 1, { status: 'sending', body })
    await storage.components.update(ids[260]!, { description: 'changed after the first send' })
    const resumed = await runner.resumeInterrupted()
    expect(resumed.map((r) => r.id)).toEqual([run.id])
    await runner.settled(c.id)
    expect((await storage.runs.get(run.id)).status).toBe('succeeded')
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual(['msg_second', 'msg_third'])
    const second = receiver.received.find((r) => r.headers['webhook-id'] === 'msg_second')!
    expect(second.raw.toString()).toBe(text)
  })

  it('plans a push as it sends: the start plans 8 batches, and a run stopped before the rest were planned sends them after a resume, as if frozen at its start', async () => {
    // The first delivery never gets an answer, so with one batch out at a time the run plans nothing more.
    receiver = await startReceiver((_, i) => (i === 0 ? { status: 202, fault: 'never' } : { status: 202 }))
    const ids = await seed(2600)
    const c = await connector({ url: receiver.url, concurrency: 1 })
    const run = await runner.start(c.id, 'manual')
    expect(run).toMatchObject({ total: 2600, batchesTotal: 11 })
    while (receiver.received.length < 1) await new Promise((r) => setTimeout(r, 20))
    // Planned at the start: 8 batches, and no more while the first one is out.
    expect((await storage.runs.get(run.id)).batches).toHaveLength(8)
    await runner.close()
    expect((await storage.runs.get(run.id)).batches).toHaveLength(8)

    // Meanwhile a part of an unplanned batch is deleted (planned all the same, and skipped), and a new one is made (not sent).
    await storage.components.delete(ids[2300]!)
    const late = await storage.components.create({ name: 'made during the push' })
    runner = createPushRunner({ storage })
    expect((await runner.resumeInterrupted()).map((r) => r.id)).toEqual([run.id])
    await runner.settled(c.id)
    const done = await storage.runs.get(run.id)
    expect(done).toMatchObject({ status: 'succeeded', total: 2600, batchesTotal: 11, batchesSucceeded: 11, entitiesSent: 2599, entitiesSkipped: 1 })
    expect(done.batches.map((b) => b.size)).toEqual([...Array(10).fill(250), 100])
    const sent = receiver.received.slice(1).flatMap((r) => entitiesOf(r.raw).map((e) => e.id))
    expect(sent).toHaveLength(2599)
    expect(new Set(sent)).toEqual(new Set(ids.filter((id) => id !== ids[2300])))
    expect(sent).not.toContain(late.id)
    // Each delivery names the run's batch count as planned.
    expect(receiver.received.slice(1).map((r) => String(r.headers['complib-batch']).split('/')[1])).toEqual(Array(11).fill('11'))
  })

  it('dry-runs the code without sending anything', async () => {
    receiver = await startReceiver()
    await seed(5)
    const c = await connector({ url: receiver.url })
    const result = await runner.dryRun(c.id)
    expect(result).toMatchObject({ error: null, sent: [{ url: receiver.url, entities: 3 }] })
    expect(receiver.received).toEqual([])
  })

  it('a dry run keeps the log line written after an awaited helper call (14 to 21 of 80 dry runs lost it: it arrived after the call record was gone)', async () => {
    receiver = await startReceiver()
    await seed(3)
    const code = `async function push(entities, config, helpers) {
      helpers.log('before')
      await helpers.sendWebhook(config.url, entities)
      await helpers.sleep(1)
      helpers.log('after', entities.length)
    }`
    const c = await connector({ url: receiver.url }, code)
    // 80 dry runs, 8 at a time: each starts a sandbox worker, and 80 workers at once on a 2-core
    // machine can hold one off the CPU past the code's 2 s limit (wall-clock per stretch).
    const results = []
    for (let wave = 0; wave < 10; wave++) results.push(...(await Promise.all(Array.from({ length: 8 }, () => runner.dryRun(c.id)))))
    expect(results).toHaveLength(80)
    for (const result of results) expect(result).toMatchObject({ error: null, logs: ['before', 'after 3'] })
    expect(receiver.received).toEqual([])
  })
})

describe('runs where servers share the storage', () => {
  /** The storage as a server sharing it sees it: runs are claimed, and the sweep's read of the active runs can be held. */
  function shared(gate: { hold: Promise<void> | null }) {
    const claims = { claimRun: async () => ({ lost: new AbortController().signal, release: async () => {} }) }
    const runs = {
      ...storage.runs,
      listActive: async () => {
        const list = await storage.runs.listActive()
        // The first read (the sweep's) is held; later ones pass.
        const hold = gate.hold
        gate.hold = null
        if (hold) await hold
        return list
      },
    }
    return Object.assign(Object.create(storage) as SqliteStorage, claims, { runs })
  }

  it('does not stop a run launched while its sweep was reading the active runs', async () => {
    receiver = await startReceiver(() => ({ status: 202, delayMs: 150 }))
    await seed(600)
    let release!: () => void
    const gate: { hold: Promise<void> | null } = { hold: new Promise<void>((r) => (release = r)) }
    const sharing = createPushRunner({ storage: shared(gate), sweepMs: 100 })
    try {
      const c = await connector({ url: receiver.url, concurrency: 1 })
      // The first sweep (after 100 ms) has read the active runs (none) and waits at the gate; a push starts meanwhile.
      await new Promise((r) => setTimeout(r, 250))
      const run = await sharing.start(c.id, 'manual')
      release()
      await sharing.settled(c.id)
      expect(await storage.runs.get(run.id)).toMatchObject({ status: 'succeeded', entitiesSent: 600 })
    } finally {
      await sharing.close()
    }
  })

  it('does not take over a run that ended between its sweep reading it as active and claiming it', async () => {
    receiver = await startReceiver(() => ({ status: 202 }))
    const ids = await seed(3)
    const logs: string[] = []
    let release!: () => void
    const gate: { hold: Promise<void> | null } = { hold: new Promise<void>((r) => (release = r)) }
    const sharing = createPushRunner({ storage: shared(gate), sweepMs: 60_000, log: (line) => void logs.push(line) })
    try {
      const cancelled = await connector({ url: receiver.url })
      const gone = await connector({ url: receiver.url })
      const batches = () => [{ webhookId: `msg_${Math.random().toString(36).slice(2)}`, ids }]
      const a = await storage.runs.create({ connectorId: cancelled.id, trigger: 'manual', batches: batches() })
      const b = await storage.runs.create({ connectorId: gone.id, trigger: 'manual', batches: batches() })
      // The sweep reads both as active (a server died holding them) and waits at the gate...
      const sweep = sharing.resumeInterrupted()
      await new Promise((r) => setTimeout(r, 50))
      // ...while another server ends them: one is cancelled, the other finishes and its connector is deleted.
      await storage.runs.update(a.id, { status: 'cancelled', finishedAt: new Date().toISOString() })
      await storage.runs.update(b.id, { status: 'succeeded', finishedAt: new Date().toISOString() })
      await storage.connectors.delete(gone.id)
      release()
      expect(await sweep).toEqual([])
      await sharing.settled(cancelled.id)
      expect((await storage.runs.get(a.id)).status).toBe('cancelled')
      expect(receiver.received).toHaveLength(0)
      expect(logs).toEqual([])
    } finally {
      await sharing.close()
    }
  })

  it('keeps a run cancelled through another server cancelled when it ends before this server notices', async () => {
    receiver = await startReceiver(() => ({ status: 202, delayMs: 100 }))
    await seed(300)
    const sharing = createPushRunner({ storage: shared({ hold: null }), sweepMs: 60_000 })
    try {
      const c = await connector({ url: receiver.url, concurrency: 1 })
      const run = await sharing.start(c.id, 'manual')
      while (receiver.received.length === 0) await new Promise((r) => setTimeout(r, 10))
      // Another server's cancel: the storage says so, this server's sweep has not run.
      await storage.runs.update(run.id, { status: 'cancelled', finishedAt: new Date().toISOString() })
      await sharing.settled(c.id)
      expect((await storage.runs.get(run.id)).status).toBe('cancelled')
    } finally {
      await sharing.close()
    }
  })
})
