import { createHmac } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createReceiver, type Receiver } from '../src/receiver'
import { type Complib, liveComponents, pushAndWait, seedComponents, startComplib } from '@complib/example-test-support'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const WRONG_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'

let complib: Complib
let receiver: Receiver
let receiverUrl: string
let dir: string
let file: string
let connectorId: string

beforeAll(async () => {
  complib = await startComplib()
  dir = await mkdtemp(join(tmpdir(), 'receiver-node-e2e-'))
  file = join(dir, 'components.json')
  receiver = await createReceiver({ secret: SECRET, file })
  receiverUrl = await receiver.listen(0)
  // 600 components, 5 of them deleted: batches of 250, 250 and 95, sent concurrently.
  const ids = await seedComponents(complib, 600)
  for (const id of ids.slice(10, 15)) await complib.call('DELETE', `/api/components/${id}`)
  const connector = await complib.call('POST', '/api/connectors', {
    name: 'receiver-node',
    config: { url: receiverUrl, concurrency: 4, requestsPerSecond: 100 },
    secret: SECRET,
  })
  connectorId = connector.id
})

afterAll(async () => {
  await receiver?.close()
  await complib?.close()
  await rm(dir, { recursive: true, force: true })
})

const stored = async () => JSON.parse(await readFile(file, 'utf8'))

/** Posts a body signed as complib signs, with node:crypto. */
async function post(body: string, { id = 'msg_manual', timestamp = Math.floor(Date.now() / 1000), secret = SECRET, url = receiverUrl } = {}) {
  const mac = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`${id}.${timestamp}.${body}`)
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${mac.digest('base64')}` },
    body,
  })
  return { status: res.status, body: await res.json() }
}

describe('receiver-node with a real complib push', () => {
  it('holds exactly the live components after a push', async () => {
    const run = await pushAndWait(complib, connectorId)
    expect(run).toMatchObject({ status: 'succeeded', total: 595, batchesTotal: 3, batchesSucceeded: 3 })
    const live = await liveComponents(complib)
    expect(live).toHaveLength(595)
    expect((await stored()).components).toEqual(Object.fromEntries(live.map((c) => [c.id, c])))
    expect(Object.keys((await stored()).components).sort()).toEqual(live.map((c) => c.id).sort())
    expect((await stored()).seenWebhookIds.sort()).toEqual(run.batches.map((b: { webhookId: string }) => b.webhookId).sort())
  })

  it('updates components in place on the next push', async () => {
    const [first] = await liveComponents(complib)
    await complib.call('PATCH', `/api/components/${first!.id}`, { description: 'thick film, 1% — ±100 ppm/°C' })
    expect((await pushAndWait(complib, connectorId)).status).toBe('succeeded')
    const { components, seenWebhookIds } = await stored()
    expect(components[first!.id].description).toBe('thick film, 1% — ±100 ppm/°C')
    expect(Object.keys(components)).toHaveLength(595)
    expect(seenWebhookIds).toHaveLength(6)
  })

  it('refuses a tampered body, a wrong secret, a stale timestamp and no signature with 4xx, changing nothing', async () => {
    const before = await readFile(file)
    const body = '{"entities":[{"id":"cmp_intruder","name":"X"}]}'
    const tampered = await fetch(receiverUrl, {
      method: 'POST',
      headers: await _headersOf(body),
      body: body.replace('"X"', '"Y"'),
    })
    expect(tampered.status).toBe(401)
    expect((await post(body, { secret: WRONG_SECRET })).status).toBe(401)
    expect((await post(body, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 })).status).toBe(401)
    expect((await post(body, { timestamp: Math.floor(Date.now() / 1000) + 6 * 60 })).status).toBe(401)
    expect((await fetch(receiverUrl, { method: 'POST', body })).status).toBe(400)
    expect((await readFile(file)).equals(before)).toBe(true)
  })

  it('fails the run when the receiver holds another secret, with 401 in the record', async () => {
    const other = await createReceiver({ secret: WRONG_SECRET, file: join(dir, 'other.json') })
    try {
      const url = await other.listen(0)
      const connector = await complib.call('POST', '/api/connectors', { name: 'wrong-secret', config: { url, concurrency: 4, requestsPerSecond: 100 }, secret: SECRET })
      const run = await pushAndWait(complib, connector.id)
      expect(run.status).toBe('failed')
      expect(run.batches.every((b: { lastStatus: number }) => b.lastStatus === 401)).toBe(true)
      expect(other.store.read().components).toEqual({})
    } finally {
      await other.close()
    }
  })

  it('acknowledges a re-sent webhook-id without applying it again', async () => {
    const other = await createReceiver({ secret: SECRET, file: join(dir, 'resend.json') })
    try {
      const url = await other.listen(0)
      const old = '{"entities":[{"id":"cmp_a","name":"old"}]}'
      expect(await post(old, { id: 'msg_1', url })).toEqual({ status: 200, body: { duplicate: false, upserted: 1 } })
      expect((await post('{"entities":[{"id":"cmp_a","name":"new"}]}', { id: 'msg_2', url })).status).toBe(200)
      // The same batch again, freshly signed, as complib resends after a crash.
      expect(await post(old, { id: 'msg_1', url })).toEqual({ status: 200, body: { duplicate: true, upserted: 0 } })
      expect(JSON.parse(await readFile(join(dir, 'resend.json'), 'utf8')).components.cmp_a.name).toBe('new')
    } finally {
      await other.close()
    }
  })

  it('verifies the raw bytes: escapes and number formats that JSON.stringify would rewrite still verify', async () => {
    const other = await createReceiver({ secret: SECRET, file: join(dir, 'raw.json') })
    try {
      const url = await other.listen(0)
      const raw = '{"entities": [{"id": "cmp_u", "name": "Caf\\u00e9 10\\u00b5F", "tolerance": 1.0, "qty": 1e3}]}'
      expect(JSON.stringify(JSON.parse(raw))).not.toBe(raw)
      expect((await post(raw, { id: 'msg_raw', url })).status).toBe(200)
      expect(other.store.read().components.cmp_u).toEqual({ id: 'cmp_u', name: 'Café 10µF', tolerance: 1, qty: 1000 })
    } finally {
      await other.close()
    }
  })

  it('answers 404 elsewhere and 405 to other methods', async () => {
    expect((await fetch(new URL('/elsewhere', receiverUrl), { method: 'POST' })).status).toBe(404)
    expect((await fetch(receiverUrl)).status).toBe(405)
  })
})

async function _headersOf(body: string): Promise<Record<string, string>> {
  const timestamp = Math.floor(Date.now() / 1000)
  const mac = createHmac('sha256', Buffer.from(SECRET.slice(6), 'base64')).update(`msg_t.${timestamp}.${body}`)
  return { 'content-type': 'application/json', 'webhook-id': 'msg_t', 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${mac.digest('base64')}` }
}
