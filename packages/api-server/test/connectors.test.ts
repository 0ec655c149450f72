import { describe, expect, it } from 'vitest'
import { startReceiver } from '@complib/test-support/receiver'
import { useTestApi } from './harness'

const api = useTestApi()

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const MISSING = 'con_01JD7W3T9X4QF5B8S2M6K0N1PZ'
const create = async (over: Record<string, unknown> = {}) => {
  const res = await api.call('POST', '/api/connectors', { body: { name: 'Hook', config: { url: 'http://127.0.0.1:9999/hooks/components' }, ...over } })
  expect(res.status, res.text).toBe(201)
  return res.body
}

describe('connectors', () => {
  it('lists the webhook type with its config schema', async () => {
    const [type] = (await api.call('GET', '/api/connectors/types')).body
    expect(type.type).toBe('webhook')
    expect(type.configSchema.properties).toHaveProperty('url')
    expect(type.defaultCode).toContain('async function push(entities, config, helpers)')
  })

  it('creates with defaults and never returns the secret whole', async () => {
    const c = await create({ secret: SECRET })
    expect(c.config).toEqual({ url: 'http://127.0.0.1:9999/hooks/components', requestsPerSecond: 10, concurrency: 4, cron: null, includeOffers: false })
    expect(c.secretHint).toBe('whsec_…LaSw')
    for (const res of [await api.call('GET', `/api/connectors/${c.id}`), await api.call('GET', '/api/connectors'), await api.call('GET', `/api/connectors/${c.id}/code`)]) {
      expect(res.text).not.toContain(SECRET.slice(6))
    }
    const generated = await create()
    expect(generated.secretHint).toMatch(/^whsec_…/)
  })

  it('validates config by type: url, throttle bounds, cron', async () => {
    for (const [config, field] of [
      [{}, 'body.config.url'],
      [{ url: 'not a url' }, 'body.config.url'],
      [{ url: 'http://x', requestsPerSecond: 5000 }, 'body.config.requestsPerSecond'],
      [{ url: 'http://x', concurrency: 0 }, 'body.config.concurrency'],
      [{ url: 'http://x', cron: '61 * * * *' }, 'body.config.cron'],
    ] as const) {
      const res = await api.call('POST', '/api/connectors', { body: { name: 'x', config } })
      expect(res.status, JSON.stringify(config)).toBe(400)
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field)
    }
    expect((await api.call('POST', '/api/connectors', { body: { name: 'x', type: 'ftp', config: {} } })).status).toBe(400)
    expect((await api.call('POST', '/api/connectors', { body: { name: 'x', config: { url: 'http://x' }, secret: 'whsec_short' } })).status).toBe(400)
    expect((await api.call('GET', '/api/connectors')).body).toEqual([])
  })

  it('shows the next run of a cron schedule', async () => {
    const c = await create({ config: { url: 'http://127.0.0.1:1/h', cron: '0 */6 * * *' } })
    expect(new Date(c.nextRunAt).getUTCHours() % 6).toBe(0)
    const off = await api.call('PATCH', `/api/connectors/${c.id}`, { body: { enabled: false } })
    expect(off.body.nextRunAt).toBeNull()
  })

  it('PATCH {"config":{"cron":…}} was a 400 "body.config.url: required"; now config merges as RFC 7396 says (null removes)', async () => {
    const c = await create({ config: { url: 'http://127.0.0.1:9999/hooks/components', concurrency: 8 } })
    const set = await api.call('PATCH', `/api/connectors/${c.id}`, { body: { config: { cron: '30 */6 * * *' } } })
    expect(set.status, set.text).toBe(200)
    expect(set.body.config).toEqual({ url: 'http://127.0.0.1:9999/hooks/components', requestsPerSecond: 10, concurrency: 8, cron: '30 */6 * * *', includeOffers: false })
    const cleared = await api.call('PATCH', `/api/connectors/${c.id}`, { body: { config: { cron: null, requestsPerSecond: 50 } }, headers: { 'content-type': 'application/merge-patch+json' } })
    expect(cleared.status, cleared.text).toBe(200)
    expect(cleared.body.config).toEqual({ url: 'http://127.0.0.1:9999/hooks/components', requestsPerSecond: 50, concurrency: 8, cron: null, includeOffers: false })
    // The merged result is still validated by the type.
    const bad = await api.call('PATCH', `/api/connectors/${c.id}`, { body: { config: { url: null } } })
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0].path).toBe('body.config.url')
  })

  it('patches with If-Match and deletes', async () => {
    const c = await create()
    expect((await api.call('PATCH', `/api/connectors/${c.id}`, { body: { name: 'x' }, headers: { 'if-match': '"7"' } })).status).toBe(412)
    expect((await api.call('PATCH', `/api/connectors/${c.id}`, { body: { config: { url: 'http://127.0.0.1:2/h', concurrency: 8 } } })).body.config.concurrency).toBe(8)
    expect((await api.call('DELETE', `/api/connectors/${c.id}`)).status).toBe(204)
    expect((await api.call('GET', `/api/connectors/${c.id}`)).status).toBe(404)
  })

  it('edits code, rejecting a syntax error with its line, and resets to the default', async () => {
    const c = await create()
    expect((await api.call('GET', `/api/connectors/${c.id}/code`)).body.isDefault).toBe(true)
    const bad = await api.call('PUT', `/api/connectors/${c.id}/code`, { body: { code: 'async function push() {\n  return (\n}' } })
    expect(bad.status).toBe(400)
    expect(bad.body.detail).toMatch(/line 3/)
    const code = 'async function push(entities, config, helpers) { await helpers.sendWebhook(config.url, entities) }'
    expect((await api.call('PUT', `/api/connectors/${c.id}/code`, { body: { code } })).body).toEqual({ code, isDefault: false })
    expect((await api.call('PUT', `/api/connectors/${c.id}/code`, { body: { code: null } })).body.isDefault).toBe(true)
  })

  it('rotates the secret, keeping the old one for the grace period', async () => {
    const c = await create({ secret: SECRET })
    const rotated = await api.call('POST', `/api/connectors/${c.id}/secret/rotate`, { body: { graceSeconds: 3600 } })
    expect(rotated.status).toBe(200)
    expect(rotated.body.secretHint).not.toBe(c.secretHint)
    expect(new Date(rotated.body.previousSecretExpiresAt).getTime()).toBeGreaterThan(Date.now())
    expect((await api.call('POST', `/api/connectors/${c.id}/secret/rotate`, { body: { graceSeconds: -1 } })).status).toBe(400)
  })

  it('pushes now: 202 with the run, which delivers every component and records its batches', async () => {
    const receiver = await startReceiver()
    try {
      for (let i = 0; i < 3; i++) await api.call('POST', '/api/components', { body: { name: `part ${i}` } })
      const c = await create({ secret: SECRET, config: { url: receiver.url } })
      const res = await api.call('POST', `/api/connectors/${c.id}/push`)
      expect(res.status).toBe(202)
      expect(res.headers.get('location')).toBe(`/api/connector-runs/${res.body.id}`)
      expect(res.body).toMatchObject({ trigger: 'manual', total: 3, batchesTotal: 1 })
      await api.runner.settled(c.id)
      const run = await api.call('GET', `/api/connector-runs/${res.body.id}`)
      expect(run.body).toMatchObject({ status: 'succeeded', entitiesSent: 3 })
      expect(run.body.batches[0]).toMatchObject({ status: 'succeeded', lastStatus: 202, attempts: [expect.objectContaining({ status: 202 })] })
      expect(receiver.received).toHaveLength(1)
      expect((await api.call('GET', `/api/connectors/${c.id}/runs`)).body.map((r: { id: string }) => r.id)).toEqual([res.body.id])
      expect((await api.call('POST', `/api/connectors/${MISSING}/push`)).status).toBe(404)
    } finally {
      await receiver.close()
    }
  })

  it('refuses a second push while a run is active', async () => {
    const receiver = await startReceiver(() => ({ status: 202, delayMs: 500 }))
    try {
      await api.call('POST', '/api/components', { body: { name: 'A' } })
      const c = await create({ config: { url: receiver.url } })
      expect((await api.call('POST', `/api/connectors/${c.id}/push`)).status).toBe(202)
      expect((await api.call('POST', `/api/connectors/${c.id}/push`)).status).toBe(409)
      expect((await api.call('DELETE', `/api/connectors/${c.id}`)).status).toBe(409)
      await api.runner.settled(c.id)
    } finally {
      await receiver.close()
    }
  })

  it('dry-runs the code: what it would send, nothing sent', async () => {
    await api.call('POST', '/api/components', { body: { name: 'A' } })
    const c = await create()
    const res = await api.call('POST', `/api/connectors/${c.id}/test`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ error: null, sent: [{ url: 'http://127.0.0.1:9999/hooks/components', entities: 1 }] })
    await api.call('PUT', `/api/connectors/${c.id}/code`, { body: { code: 'async function push() { throw new Error("nope") }' } })
    expect((await api.call('POST', `/api/connectors/${c.id}/test`)).body.error).toBe('nope')
  })

  it('lists runs and refuses unknown runs and connectors', async () => {
    const c = await create()
    expect((await api.call('GET', `/api/connectors/${c.id}/runs`)).body).toEqual([])
    expect((await api.call('GET', `/api/connectors/${MISSING}/runs`)).status).toBe(404)
    const run = await api.storage.runs.create({ connectorId: c.id, trigger: 'manual', batches: [{ webhookId: 'msg_1', ids: ['cmp_1'] }] })
    expect((await api.call('GET', `/api/connector-runs/${run.id}`)).body.batches).toHaveLength(1)
    expect((await api.call('POST', `/api/connector-runs/${run.id}/cancel`)).body.status).toBe('cancelled')
    expect((await api.call('POST', `/api/connector-runs/${run.id}/cancel`)).status).toBe(409)
    expect((await api.call('POST', `/api/connector-runs/${run.id}/resume`)).status).toBe(409)
    expect((await api.call('GET', '/api/connector-runs/run_01JD7W3T9X4QF5B8S2M6K0N1PZ')).status).toBe(404)
    expect((await api.call('GET', `/api/connectors/${MISSING}`)).status).toBe(404)
    expect((await api.call('DELETE', `/api/connectors/${MISSING}`)).status).toBe(404)
  })

  it('resumes an interrupted run', async () => {
    const receiver = await startReceiver()
    try {
      const comp = (await api.call('POST', '/api/components', { body: { name: 'A' } })).body
      const c = await create({ config: { url: receiver.url } })
      const run = await api.storage.runs.create({ connectorId: c.id, trigger: 'manual', batches: [{ webhookId: 'msg_1', ids: [comp.id] }] })
      await api.storage.runs.update(run.id, { status: 'running', startedAt: new Date().toISOString() })
      const res = await api.call('POST', `/api/connector-runs/${run.id}/resume`)
      expect(res.status).toBe(202)
      await api.runner.settled(c.id)
      expect((await api.call('GET', `/api/connector-runs/${run.id}`)).body.status).toBe('succeeded')
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual(['msg_1'])
    } finally {
      await receiver.close()
    }
  })
})
