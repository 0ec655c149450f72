import { describe, expect, it } from 'vitest'
import { startReceiver } from '@complib/test-support/receiver'
import { useTestApi } from './harness'

const api = useTestApi()

const HINT = 'an admin can change the outbound policy in Settings'
/** Who the keyless loopback mode of the tests acts as. */
const LOCAL = { kind: 'local', id: null, name: 'local' }

const create = async (url: string) => {
  const res = await api.call('POST', '/api/connectors', { body: { name: 'Hook', config: { url } } })
  expect(res.status, res.text).toBe(201)
  return res.body as { id: string }
}
const push = async (connectorId: string) => {
  const res = await api.call('POST', `/api/connectors/${connectorId}/push`)
  expect(res.status, res.text).toBe(202)
  await api.runner.settled(connectorId)
  return (await api.call('GET', `/api/connector-runs/${res.body.id}`)).body
}

describe('connectors under the outbound policy', () => {
  it('a connector URL at 169.254.169.254 fails its run, naming the rule, with no attempt made', async () => {
    await api.call('POST', '/api/components', { body: { name: 'A' } })
    const c = await create('http://169.254.169.254/latest/meta-data')
    const run = await push(c.id)
    expect(run).toMatchObject({ status: 'failed', error: `[connector:webhook] 169.254.169.254 is a link-local/cloud metadata address; ${HINT}`, entitiesSent: 0 })
    expect(run.batches.map((b: { attempts: unknown[] }) => b.attempts)).toEqual([[]])
    // The dry run refuses it too.
    expect((await api.ok('POST', `/api/connectors/${c.id}/test`)).error).toBe(`169.254.169.254 is a link-local/cloud metadata address; ${HINT}`)
  })

  it('allowedHosts set through PATCH /api/settings: 127.0.0.1 pushes when listed, not when only 10.0.0.0/8 is', async () => {
    const receiver = await startReceiver()
    try {
      await api.call('POST', '/api/components', { body: { name: 'A' } })
      const c = await create(receiver.url)
      await api.ok('PATCH', '/api/settings', { outbound: { blockMetadata: true, allowedHosts: ['10.0.0.0/8'] } })
      const refused = await push(c.id)
      expect(refused).toMatchObject({ status: 'failed', error: `[connector:webhook] 127.0.0.1 is not among the allowed hosts of the outbound policy; ${HINT}` })
      expect(receiver.received).toHaveLength(0)

      await api.ok('PATCH', '/api/settings', { outbound: { blockMetadata: true, allowedHosts: ['127.0.0.1'] } })
      const sent = await push(c.id)
      expect(sent).toMatchObject({ status: 'succeeded', entitiesSent: 1 })
      expect(receiver.received).toHaveLength(1)
    } finally {
      await receiver.close()
    }
  })

  it('a run records who started it: the caller of the push', async () => {
    const receiver = await startReceiver()
    try {
      await api.call('POST', '/api/components', { body: { name: 'A' } })
      const c = await create(receiver.url)
      const run = await push(c.id)
      expect(run).toMatchObject({ status: 'succeeded', startedBy: LOCAL })
      expect((await api.ok('GET', `/api/connectors/${c.id}/runs`)).map((r: { startedBy: unknown }) => r.startedBy)).toEqual([LOCAL])
    } finally {
      await receiver.close()
    }
  })
})
