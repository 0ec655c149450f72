import { withChange, type Actor } from '@complib/core'
import { createSqliteStorage, type SqliteStorage } from '@complib/core/sqlite'
import { startReceiver } from '@complib/test-support/receiver'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Resolve } from '../src/outbound-policy'
import { CRON_ACTOR, createPushRunner, type PushRunner } from '../src/runner'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const HINT = 'an admin can change the outbound policy in Settings'
const ada: Actor = { kind: 'user', id: 'usr_01JD7W3T9X4QF5B8S2M6K0N1PZ', name: 'ada' }
/** Names the tests resolve without DNS: one to the receiver's machine, one to the metadata address. */
const resolve: Resolve = async (host) => {
  if (host === 'receiver.example') return [{ address: '127.0.0.1', family: 4 }]
  if (host === 'metadata.example') return [{ address: '169.254.169.254', family: 4 }]
  throw new Error(`getaddrinfo ENOTFOUND ${host}`)
}

let storage: SqliteStorage
let runner: PushRunner
let receiver: Awaited<ReturnType<typeof startReceiver>>
beforeEach(async () => {
  storage = await createSqliteStorage()
  runner = createPushRunner({ storage, resolve })
  receiver = await startReceiver()
  await storage.components.create({ name: 'R 10k', ipn: 'R-1' })
})
afterEach(async () => {
  await runner.close()
  await receiver.close()
  await storage.close()
})

const connector = (url: string, code: string | null = null) =>
  storage.connectors.create({ type: 'webhook', name: 'hook', enabled: true, config: { url, requestsPerSecond: 1000, concurrency: 1, cron: null }, secret: SECRET, code })
const push = async (connectorId: string) => {
  const run = await runner.start(connectorId, 'manual')
  await runner.settled(connectorId)
  return storage.runs.get(run.id)
}

describe('the outbound policy of push runs', () => {
  it('a connector URL at the metadata address fails its run before the code runs', async () => {
    const c = await connector('http://169.254.169.254/latest/meta-data', 'async function push(e, c, h) { h.log("ran") }')
    const run = await push(c.id)
    expect(run).toMatchObject({ status: 'failed', error: `[connector:webhook] 169.254.169.254 is a link-local/cloud metadata address; ${HINT}`, entitiesSent: 0 })
    expect(run.logs).toEqual([])
    expect(run.batches[0]).toMatchObject({ status: 'pending', attempts: [] })
  })

  it('a URL whose name resolves to the metadata address is refused the same way', async () => {
    const c = await connector('http://metadata.example/hook')
    expect((await push(c.id)).error).toBe(`[connector:webhook] metadata.example resolves to 169.254.169.254, which is a link-local/cloud metadata address; ${HINT}`)
  })

  it('a send the code makes to a refused destination fails the batch, even when the code catches the error', async () => {
    const code = `async function push(e, c, h) {
      try { await h.sendWebhook('http://[fd00:ec2::254]/x', e) } catch (error) { h.log('caught: ' + error.message) }
    }`
    const c = await connector(receiver.url, code)
    const run = await push(c.id)
    expect(run.status).toBe('failed')
    expect(run.batches[0]!.error).toBe(`[connector:webhook] batch 0: fd00:ec2::254 is a link-local/cloud metadata address; ${HINT}`)
    expect(run.logs).toEqual([`[batch 0] caught: fd00:ec2::254 is a link-local/cloud metadata address; ${HINT}`])
    expect(receiver.received).toHaveLength(0)
  })

  it('follows the settings at each run: allowedHosts 10.0.0.0/8 refuses the receiver on 127.0.0.1, allowedHosts 127.0.0.1 lets it through', async () => {
    const c = await connector(receiver.url)
    await storage.settings.update({ outbound: { blockMetadata: true, allowedHosts: ['10.0.0.0/8'] } })
    expect((await push(c.id)).error).toBe(`[connector:webhook] 127.0.0.1 is not among the allowed hosts of the outbound policy; ${HINT}`)
    expect(receiver.received).toHaveLength(0)
    await storage.settings.update({ outbound: { blockMetadata: true, allowedHosts: ['127.0.0.1'] } })
    expect(await push(c.id)).toMatchObject({ status: 'succeeded', entitiesSent: 1 })
    expect(receiver.received).toHaveLength(1)
  })

  it('connects to the address the policy checked (the name never reaches DNS again)', async () => {
    await storage.settings.update({ outbound: { blockMetadata: true, allowedHosts: ['receiver.example'] } })
    const c = await connector(receiver.url.replace('127.0.0.1', 'receiver.example'))
    expect(await push(c.id)).toMatchObject({ status: 'succeeded', entitiesSent: 1 })
    expect(receiver.received.map((r) => r.headers.host)).toEqual([new URL(receiver.url).host.replace('127.0.0.1', 'receiver.example')])
  })

  it('a dry run names the refusal of the URL, and of a send by the code', async () => {
    const refused = await connector('http://169.254.169.254/')
    expect(await runner.dryRun(refused.id)).toEqual({ sent: [], logs: [], error: `169.254.169.254 is a link-local/cloud metadata address; ${HINT}` })
    const code = `async function push(e, c, h) { try { await h.sendWebhook('http://metadata.example/', e) } catch {} }`
    const sneaky = await connector(receiver.url, code)
    expect(await runner.dryRun(sneaky.id)).toMatchObject({ sent: [], error: `metadata.example resolves to 169.254.169.254, which is a link-local/cloud metadata address; ${HINT}` })
  })
})

describe('who started a run', () => {
  it('the caller of the current change context, null outside one, the cron scheduler for a cron run', async () => {
    const c = await connector(receiver.url)
    const change = { actor: ada, channel: 'api' as const, requestId: 'req-1', comment: null }
    const manual = await withChange(change, () => runner.start(c.id, 'manual'))
    await runner.settled(c.id)
    // A timer set during a request carries its context: a cron run is still the scheduler's.
    const cron = await withChange(change, () => runner.start(c.id, 'cron', { scheduledFor: '2026-11-23T06:00:00.000Z' }))
    await runner.settled(c.id)
    const bare = await runner.start(c.id, 'manual')
    await runner.settled(c.id)
    expect([manual.startedBy, cron.startedBy, bare.startedBy]).toEqual([ada, CRON_ACTOR, null])
    expect((await storage.runs.get(manual.id)).startedBy).toEqual(ada)
    expect(CRON_ACTOR).toEqual({ kind: 'system', id: null, name: 'cron' })
  })

  it('a resumed run keeps who started it', async () => {
    const c = await connector(receiver.url)
    const run = await storage.runs.create({ connectorId: c.id, trigger: 'manual', batches: [], startedBy: ada })
    await runner.resume(run.id)
    await runner.settled(c.id)
    expect(await storage.runs.get(run.id)).toMatchObject({ status: 'succeeded', startedBy: ada })
  })
})
