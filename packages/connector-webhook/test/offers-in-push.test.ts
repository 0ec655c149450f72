import { inflateRawSync } from 'node:zlib'
import { createSqliteStorage, type SqliteStorage } from '@complib/core/sqlite'
import { startReceiver } from '@complib/test-support/receiver'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPushRunner, type PushRunner } from '../src/runner'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const OFFER = { supplier: 'Mouser', sku: '595-LM358DR', url: null, stock: 12, minimumQuantity: 1, multiple: 1, packaging: null, currency: 'USD', priceBreaks: [{ quantity: 1, price: 0.52 }], fetchedAt: '2026-11-26T12:00:00.000Z' }
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

const entitiesOf = (raw: Buffer) => (JSON.parse(raw.toString()) as { entities: Array<{ id: string; offers?: unknown[] }> }).entities

describe('a push with includeOffers', () => {
  it("gives each component its suppliers' offers, and only when the connector asks", async () => {
    receiver = await startReceiver()
    const source = await storage.sources.create({ type: 'mouser', name: 'Mouser', config: {}, secrets: { apiKey: 'never-sent-0123456789' } })
    const withOffers = await storage.components.create({ name: 'LM358' })
    const without = await storage.components.create({ name: 'NE555' })
    await storage.offers.replace(withOffers.id, source.id, '595-LM358DR', [OFFER])
    const asked = await storage.connectors.create({ type: 'webhook', name: 'hook', enabled: true, config: { url: receiver.url, requestsPerSecond: 1000, concurrency: 4, cron: null, includeOffers: true }, secret: SECRET, code: null })
    await runner.start(asked.id, 'manual')
    await runner.settled(asked.id)
    const sent = entitiesOf(receiver.received[0]!.raw)
    expect(sent.find((e) => e.id === withOffers.id)!.offers).toEqual([{ ...OFFER, sourceId: source.id, ref: '595-LM358DR' }])
    expect(sent.find((e) => e.id === without.id)!.offers).toEqual([])
    expect(receiver.received[0]!.raw.toString()).not.toContain('never-sent')

    const plain = await storage.connectors.create({ type: 'webhook', name: 'plain', enabled: true, config: { url: receiver.url, requestsPerSecond: 1000, concurrency: 4, cron: null }, secret: SECRET, code: null })
    await runner.start(plain.id, 'manual')
    await runner.settled(plain.id)
    for (const e of entitiesOf(receiver.received[1]!.raw)) expect(e).not.toHaveProperty('offers')
  })

  it('keeps the batch with its offers before sending, so a delivery made again (a resume) sends the same bytes', async () => {
    let kept: Promise<Uint8Array | null> | undefined
    let connectorId = ''
    // At the first delivery, what a resume after a crash would read: the kept body, offers and all.
    receiver = await startReceiver((_, i) => {
      if (i === 0) kept = storage.runs.list(connectorId, { limit: 1 }).then(async (page) => (await storage.runs.getBatchPayload(page.items[0]!.id, 0)).body)
      return { status: i < 1 ? 500 : 202 }
    })
    const source = await storage.sources.create({ type: 'mouser', name: 'Mouser', config: {}, secrets: {} })
    const c = await storage.components.create({ name: 'LM358' })
    await storage.offers.replace(c.id, source.id, 'r', [OFFER])
    const connector = await storage.connectors.create({ type: 'webhook', name: 'hook', enabled: true, config: { url: receiver.url, requestsPerSecond: 1000, concurrency: 1, cron: null, includeOffers: true }, secret: SECRET, code: null })
    connectorId = connector.id
    await runner.start(connector.id, 'manual')
    await runner.settled(connector.id)
    const body = await kept
    expect(body).not.toBeNull()
    expect(inflateRawSync(body!).equals(receiver.received[0]!.raw)).toBe(true)
    expect(receiver.received[1]!.raw.equals(receiver.received[0]!.raw)).toBe(true)
  })
})
