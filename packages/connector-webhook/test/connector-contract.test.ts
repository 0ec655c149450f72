import { testConnector } from '@complib/core/testing'
import { afterAll, beforeAll } from 'vitest'
import { webhookConnector } from '../src/connector'
import { startReceiver } from '@complib/test-support/receiver'

// The built-in type passes the same contract suite as third-party connector packages.
let receiver: Awaited<ReturnType<typeof startReceiver>>
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())

testConnector(webhookConnector, {
  config: () => ({ url: receiver.url, requestsPerSecond: 100, concurrency: 2, cron: null }),
  invalidConfig: { url: 'ftp://example.com/hook' },
  // A receiver keeps one copy per webhook-id (Standard Webhooks' idempotency key), so a batch
  // sent again counts once only if it carries the same webhook-id.
  received: () => {
    const byDelivery = new Map<string, string[]>()
    for (const r of receiver.received) {
      const body = JSON.parse(r.raw.toString('utf8')) as { entities: Array<{ id: string }> }
      byDelivery.set(String(r.headers['webhook-id']), body.entities.map((e) => e.id))
    }
    return [...byDelivery.values()].flat()
  },
})
