import { createHmac } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Complib, liveComponents, pushAndWait, type Relay, type RelayedDelivery, seedComponents, startComplib, startRelay } from './index'

/** A receiver started in mirror mode on a free port, writing to `file`. */
export type StartMirrorReceiver = (options: { secret: string; file: string }) => Promise<{ url: string; close(): Promise<void> }>

/**
 * The mirror-mode suite both example receivers pass, with a real complib push
 * through a relay that can hold a batch back: complete pushes prune what
 * complib deleted, an incomplete one prunes nothing, a late batch of an older
 * run changes nothing, a resent batch is not applied twice, and `complib-*`
 * headers count only on a delivery whose signature verified.
 */
export function testMirrorReceiver(name: string, start: StartMirrorReceiver): void {
  const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

  let complib: Complib
  let receiver: { close(): Promise<void> }
  let relay: Relay
  let dir: string
  let file: string
  let connectorId: string

  beforeAll(async () => {
    complib = await startComplib()
    dir = await mkdtemp(join(tmpdir(), `${name}-mirror-`))
    file = join(dir, 'components.json')
    const started = await start({ secret: SECRET, file })
    receiver = started
    // complib → relay → receiver: the relay can hold a batch back and send it later.
    relay = await startRelay(started.url)
    await seedComponents(complib, 600)
    const connector = await complib.call('POST', '/api/connectors', {
      name: `${name}-mirror`,
      config: { url: relay.url, concurrency: 4, requestsPerSecond: 100 },
      secret: SECRET,
    })
    connectorId = connector.id
  })

  afterAll(async () => {
    await relay?.close()
    await receiver?.close()
    await complib?.close()
    await rm(dir, { recursive: true, force: true })
  })

  const stored = async () => JSON.parse(await readFile(file, 'utf8'))
  const liveById = async () => Object.fromEntries((await liveComponents(complib)).map((c) => [c.id, c]))
  const idsIn = (delivery: RelayedDelivery): string[] => JSON.parse(delivery.body.toString()).entities.map((e: { id: string }) => e.id)
  const deleteIds = async (ids: string[]) => {
    for (const id of ids) await complib.call('DELETE', `/api/components/${id}`)
  }

  describe(`${name} in mirror mode with a real complib push`, () => {
    let incompleteRunId: string

    it('holds the live components after a push, and drops those deleted in complib after the next', async () => {
      const first = await pushAndWait(complib, connectorId)
      expect(first).toMatchObject({ status: 'succeeded', total: 600, batchesTotal: 3 })
      expect((await stored()).components).toEqual(await liveById())
      const live = Object.keys(await liveById())
      // One from each batch, and the very last.
      await deleteIds([live[0]!, live[1]!, live[260]!, live[261]!, live[520]!, live[598]!, live[599]!])
      const second = await pushAndWait(complib, connectorId)
      expect(second).toMatchObject({ status: 'succeeded', total: 593, batchesTotal: 3 })
      const { components, mirror } = await stored()
      expect(Object.keys(components)).toHaveLength(593)
      expect(components).toEqual(await liveById())
      expect(mirror).toEqual({ runs: {}, lastCompletedRunId: second.id })
    })

    it('prunes nothing while a batch of the run is missing', async () => {
      const gone = Object.keys(await liveById()).slice(100, 105)
      await deleteIds(gone)
      // Batch 2 is acknowledged by the relay and kept back: the receiver sees 1 and 3 only.
      relay.hold((d) => d.headers['complib-batch'] === '2/3')
      const run = await pushAndWait(complib, connectorId)
      relay.hold(null)
      expect(run).toMatchObject({ status: 'succeeded', batchesTotal: 3 })
      expect(relay.held()).toHaveLength(1)
      const { components, mirror } = await stored()
      for (const id of gone) expect(components[id], id).toBeDefined()
      expect(Object.keys(mirror.runs[run.id].applied).sort()).toEqual(['1', '3'])
      expect(mirror.lastCompletedRunId).not.toBe(run.id)
      incompleteRunId = run.id
    })

    it('prunes on the next complete push', async () => {
      // Change what the held batch carries, so its late arrival would show.
      const heldIds = idsIn(relay.held()[0]!)
      await deleteIds(heldIds.slice(0, 3))
      await complib.call('PATCH', `/api/components/${heldIds[5]}`, { description: 'newer than the held batch' })
      const run = await pushAndWait(complib, connectorId)
      expect(run).toMatchObject({ status: 'succeeded', total: 585 })
      const { components, mirror } = await stored()
      expect(components).toEqual(await liveById())
      expect(mirror).toEqual({ runs: {}, lastCompletedRunId: run.id })
    })

    it('ignores the late batch of the older run: nothing comes back, nothing is overwritten', async () => {
      const [late] = relay.held()
      expect(late!.headers['complib-run-id']).toBe(incompleteRunId)
      const answer = await relay.forward(late!)
      expect(answer).toEqual({ status: 200, body: { duplicate: false, upserted: 0, mirror: { stale: true, complete: false, removed: 0 } } })
      const { components } = await stored()
      expect(components).toEqual(await liveById())
      expect(components[idsIn(late!)[5]!].description).toBe('newer than the held batch')
    })

    it('acknowledges a resent batch without applying it again', async () => {
      const before = (await stored()).components
      const sent = relay.deliveries.filter((d) => d.headers['complib-batch'] === '1/3').at(-1)!
      expect(await relay.forward(sent)).toEqual({ status: 200, body: { duplicate: true, upserted: 0 } })
      expect((await stored()).components).toEqual(before)
    })

    it('trusts complib-* headers only on a delivery whose signature verified', async () => {
      const before = await readFile(file)
      const sent = relay.deliveries.at(-1)!
      // A delivery of a new "run" of one batch would prune everything else; its signature does not match.
      const forged = { headers: { ...sent.headers, 'complib-run-id': 'run_7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'complib-batch': '1/1' }, body: Buffer.from('{"entities":[]}') }
      expect((await relay.forward(forged)).status).toBe(401)
      expect((await readFile(file)).equals(before)).toBe(true)
    })

    it('applies a signed delivery without run headers as a plain upsert', async () => {
      const body = '{"entities":[{"id":"cmp_elsewhere","name":"not from a run"}]}'
      const timestamp = Math.floor(Date.now() / 1000)
      const mac = createHmac('sha256', Buffer.from(SECRET.slice(6), 'base64')).update(`msg_plain.${timestamp}.${body}`)
      const headers = { 'content-type': 'application/json', 'webhook-id': 'msg_plain', 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${mac.digest('base64')}` }
      expect(await relay.forward({ headers, body: Buffer.from(body) })).toEqual({ status: 200, body: { duplicate: false, upserted: 1 } })
      // Until the next complete push, which did not carry it.
      expect((await stored()).components.cmp_elsewhere).toBeDefined()
      expect((await pushAndWait(complib, connectorId)).status).toBe('succeeded')
      expect((await stored()).components).toEqual(await liveById())
    })
  })
}
