import { createSqliteStorage, type SqliteStorage } from '@complib/core/sqlite'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { withChange } from '@complib/core'
import { CRON_ACTOR, createPushRunner, type PushRunner } from '../src/runner'

const URL = 'http://receiver.test/hooks/components'
const OLD = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const NEW = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
const requests: Array<{ headers: Headers; raw: string }> = []
const server = setupServer(
  http.post(URL, async ({ request }) => {
    requests.push({ headers: request.headers, raw: await request.text() })
    return new HttpResponse(null, { status: 202 })
  }),
)

let storage: SqliteStorage
let runner: PushRunner
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())
beforeEach(async () => {
  requests.length = 0
  storage = await createSqliteStorage()
  runner = createPushRunner({ storage })
  await storage.components.create({ name: 'R 10k', ipn: 'R-1' })
})
afterEach(async () => {
  vi.useRealTimers()
  await runner.close()
  await storage.close()
})

const connector = (over: Record<string, unknown> = {}) =>
  storage.connectors.create({ type: 'webhook', name: 'hook', enabled: true, config: { url: URL, requestsPerSecond: 1000, concurrency: 4, cron: null, ...over }, secret: OLD, code: null })

describe('push runs (msw)', () => {
  it('signs with both secrets during a rotation; each verifies alone', async () => {
    const c = await connector()
    await storage.connectors.rotateSecret(c.id, NEW, new Date(Date.now() + 3600_000).toISOString())
    await runner.start(c.id, 'manual')
    await runner.settled(c.id)
    expect(requests).toHaveLength(1)
    const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, requests[0]!.headers.get(h)!]))
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2)
    expect(() => new Webhook(OLD).verify(requests[0]!.raw, headers)).not.toThrow()
    expect(() => new Webhook(NEW).verify(requests[0]!.raw, headers)).not.toThrow()
  })

  it('signs with the new secret only once the grace period is over', async () => {
    const c = await connector()
    await storage.connectors.rotateSecret(c.id, NEW, new Date(Date.now() - 1000).toISOString())
    await runner.start(c.id, 'manual')
    await runner.settled(c.id)
    const signature = requests[0]!.headers.get('webhook-signature')!
    expect(signature.split(' ')).toHaveLength(1)
  })

  it('runs on the cron schedule, the same full walk, triggered as cron and started by the scheduler', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-23T05:59:58.000Z'), toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
    const c = await connector({ cron: '0 */6 * * *' })
    // Schedules are synced during the request that changed a connector: its caller did not start the tick's run.
    const actor = { kind: 'user' as const, id: 'usr_01JD7W3T9X4QF5B8S2M6K0N1PZ', name: 'ada' }
    await withChange({ actor, channel: 'api', requestId: 'req-1', comment: null }, () => runner.syncSchedules())
    await vi.advanceTimersByTimeAsync(1000)
    expect(await storage.runs.listActive()).toEqual([])
    await vi.advanceTimersByTimeAsync(2000)
    vi.useRealTimers()
    await runner.settled(c.id)
    const runs = await storage.runs.list(c.id, { limit: 10 })
    expect(runs.items.map((r) => [r.trigger, r.status, r.total, r.startedBy])).toEqual([['cron', 'succeeded', 1, CRON_ACTOR]])
    expect(requests).toHaveLength(1)
    // The audit trail says the scheduler pushed, as it does for a push through the API.
    const [entry] = (await storage.audit.list({ limit: 10, action: 'pushConnector' })).items
    expect(entry).toMatchObject({ actor: CRON_ACTOR, channel: 'system', target: { type: 'connector', id: c.id }, details: { runId: runs.items[0]!.id, trigger: 'cron' } })
  })

  it('stops scheduling when the connector is disabled', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-23T05:59:58.000Z'), toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
    const c = await connector({ cron: '0 */6 * * *' })
    await runner.syncSchedules()
    await storage.connectors.update(c.id, { enabled: false })
    await runner.syncSchedules()
    await vi.advanceTimersByTimeAsync(5000)
    vi.useRealTimers()
    expect((await storage.runs.list(c.id, { limit: 10 })).total).toBe(0)
  })
})
