import { defineConnector, type Component, type ConnectorDefinition } from '@complib/core'
import { createSqliteStorage, type SqliteStorage } from '@complib/core/sqlite'
import { inflateRawSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPushRunner, type PushRunner } from '../src/runner'
import { startReceiver } from '@complib/test-support/receiver'

// A run's entitiesSent once counted the ids frozen at its start
// (3,791 reported, 3,191 received when 600 were deleted mid-run). It counts
// what the receiver acknowledged; components gone before their batch was read
// are counted as skipped.

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
let storage: SqliteStorage
let runner: PushRunner | undefined
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined

beforeEach(async () => {
  storage = await createSqliteStorage()
})
afterEach(async () => {
  await runner?.close()
  await receiver?.close()
  await storage.close()
  runner = receiver = undefined
})

async function seed(n: number): Promise<void> {
  await storage.transaction(async (tx) => {
    for (let i = 0; i < n; i++) await tx.components.create({ name: `part ${i}`, ipn: `P-${i}` })
  })
}
const connector = (config: Record<string, unknown>, code: string | null = null, type = 'webhook') =>
  storage.connectors.create({ type, name: 'hook', enabled: true, config: { requestsPerSecond: 1000, concurrency: 1, cron: null, ...config }, secret: SECRET, code })
// The package has no zod of its own: a schema that takes any config will do for a plugin under test.
const ANY_CONFIG = { parse: (v: unknown) => v, safeParse: (v: unknown) => ({ success: true, data: v }) } as unknown as ConnectorDefinition['configSchema']
const receivedCount = () => receiver!.received.reduce((n, r) => n + (JSON.parse(r.raw.toString()) as { entities: unknown[] }).entities.length, 0)

describe('run counts', () => {
  it('a push where components are deleted mid-run reports entitiesSent equal to what the receiver received and the deleted ones as skipped', async () => {
    // The first batch is held at the receiver while components of later batches are deleted and purged.
    receiver = await startReceiver((_, i) => ({ status: 202, delayMs: i === 0 ? 400 : 0 }))
    runner = createPushRunner({ storage })
    await seed(1000)
    const c = await connector({ url: receiver.url })
    const run = await runner.start(c.id, 'manual')
    while (receiver.received.length < 1) await new Promise((r) => setTimeout(r, 10))
    const batch1 = (await storage.runs.getBatchPayload(run.id, 1)).ids
    const batch3 = (await storage.runs.getBatchPayload(run.id, 3)).ids
    for (const id of batch1.slice(0, 100)) await storage.components.delete(id)
    for (const id of batch1.slice(100, 150)) await storage.components.purge(id)
    for (const id of batch3) await storage.components.delete(id)
    await runner.settled(c.id)
    const done = await storage.runs.get(run.id)
    expect(receivedCount()).toBe(600)
    expect(done).toMatchObject({ status: 'succeeded', total: 1000, batchesSucceeded: 4, entitiesSent: 600, entitiesSkipped: 400 })
    expect(done.batches.map((b) => [b.entitiesSent, b.entitiesSkipped])).toEqual([
      [250, 0],
      [100, 150],
      [250, 0],
      [0, 250],
    ])
  })

  it('a push whose code sends only some of its entities reports what was sent', async () => {
    receiver = await startReceiver()
    runner = createPushRunner({ storage })
    await seed(300)
    const code = `async function push(entities, config, helpers) {
      const even = entities.filter((e) => Number(e.ipn.slice(2)) % 2 === 0)
      if (even.length) await helpers.sendWebhook(config.url, even)
    }`
    const c = await connector({ url: receiver.url }, code)
    const run = await runner.start(c.id, 'manual')
    await runner.settled(c.id)
    expect(receivedCount()).toBe(150)
    expect(await storage.runs.get(run.id)).toMatchObject({ status: 'succeeded', total: 300, entitiesSent: 150, entitiesSkipped: 0 })
  })

  it('a plugin run counts the entities it says it delivered (else its whole batch), and components deleted before their batch as skipped', async () => {
    const delivered: Component[] = []
    let hold!: () => void
    const held = new Promise<void>((resolve) => (hold = resolve))
    const plugin = defineConnector({
      type: 'collect',
      configSchema: ANY_CONFIG,
      async run(batch) {
        if (batch.index > 0) {
          delivered.push(...batch.entities)
          return
        }
        // The first batch is held while components of the second are deleted, and delivers only its even parts.
        await held
        const even = batch.entities.filter((e) => Number(e.ipn.slice(2)) % 2 === 0)
        delivered.push(...even)
        return { entitiesSent: even.length }
      },
    })
    runner = createPushRunner({ storage, connectors: [plugin] })
    await seed(300)
    const c = await storage.connectors.create({ type: 'collect', name: 'collect', enabled: true, config: {}, secret: null, code: null })
    const run = await runner.start(c.id, 'manual')
    const batch1 = (await storage.runs.getBatchPayload(run.id, 1)).ids
    for (const id of batch1.slice(0, 20)) await storage.components.delete(id)
    hold()
    await runner.settled(c.id)
    expect(delivered).toHaveLength(125 + 30)
    expect(await storage.runs.get(run.id)).toMatchObject({ status: 'succeeded', total: 300, entitiesSent: 155, entitiesSkipped: 20 })
  })

  it('counts a finished run from the batches\' sums, never reading every batch (4,000 for a push of a million parts)', async () => {
    receiver = await startReceiver((_, i) => ({ status: i === 2 ? 500 : 202 }))
    // Every read of a run with all its batches is refused: the runner asks for the run alone, and for the sums.
    const get = storage.runs.get.bind(storage.runs)
    storage.runs.get = ((id: string, options?: { batches?: number }) => {
      if (options?.batches === undefined) throw new Error('a run read with every batch')
      return get(id, options)
    }) as typeof storage.runs.get
    runner = createPushRunner({ storage })
    await seed(1000)
    // One attempt a batch, so the failed one fails at once.
    const c = await connector({ url: receiver.url }, `async function push(entities, config, helpers) {
      const res = await helpers.sendWebhook(config.url, entities)
      if (!res.ok) throw new Error('receiver answered ' + res.status)
    }`)
    const run = await runner.start(c.id, 'manual')
    await runner.settled(c.id)
    storage.runs.get = get
    const done = await storage.runs.get(run.id)
    expect(done).toMatchObject({ status: 'failed', batchesSucceeded: 3, batchesFailed: 1, entitiesSent: 750, entitiesSkipped: 0 })
    expect(done.error).toMatch(/^1 of 4 batches failed; first: .*batch 2/)
  })
})

describe('the bytes of a batch on disk while it is out', () => {
  // A batch sent as read keeps only its history mark (nothing written but the mark); one the
  // code changed keeps its exact bytes, deflated, so a resend after a crash is identical.
  const heldBatch = async (code: string | null) => {
    receiver = await startReceiver(() => ({ status: 202, delayMs: 300 }))
    runner = createPushRunner({ storage })
    await storage.components.create({ name: 'Ω µ 🔌 part', ipn: 'X-0' })
    await seed(2)
    const c = await connector({ url: receiver.url }, code)
    const run = await runner.start(c.id, 'manual')
    while (receiver.received.length < 1) await new Promise((r) => setTimeout(r, 10))
    const payload = await storage.runs.getBatchPayload(run.id, 0)
    await runner.settled(c.id)
    return { payload, sent: receiver.received[0]!.raw, run: await storage.runs.get(run.id) }
  }

  it('sent as read (the default code): the mark only, and the body is the stored views, byte for byte', async () => {
    const { payload, sent, run } = await heldBatch(null)
    expect(payload.body).toBeNull()
    expect(payload.mark).toBeGreaterThan(0)
    const views = await storage.components.getManyJson(payload.ids)
    expect(sent.toString('utf8')).toBe(`{"entities":[${views.join(',')}]}`)
    expect(run).toMatchObject({ status: 'succeeded', entitiesSent: 3 })
  })

  it('changed by the code: its exact bytes are kept until the receiver acknowledges them', async () => {
    const code = `async function push(entities, config, helpers) {
      const res = await helpers.sendWebhook(config.url, entities.filter((e) => e.ipn !== 'P-1'))
      if (!res.ok) throw new Error('receiver answered ' + res.status)
    }`
    const { payload, sent, run } = await heldBatch(code)
    expect(payload.body).not.toBeNull()
    expect(inflateRawSync(payload.body!).equals(sent)).toBe(true)
    expect((JSON.parse(sent.toString('utf8')) as { entities: Component[] }).entities.map((e) => e.ipn)).toEqual(['X-0', 'P-0'])
    expect(run).toMatchObject({ status: 'succeeded', entitiesSent: 2 })
  })
})
