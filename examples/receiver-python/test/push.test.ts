import { createHmac } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Complib, liveComponents, pushAndWait, seedComponents, startComplib } from '@complib/example-test-support'
import { type PythonReceiver, startPythonReceiver } from './python-receiver'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const NEW_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'

let complib: Complib
let receiver: PythonReceiver
let dir: string
let file: string
let connectorId: string

beforeAll(async () => {
  complib = await startComplib()
  dir = await mkdtemp(join(tmpdir(), 'receiver-python-e2e-'))
  file = join(dir, 'components.json')
  receiver = await startPythonReceiver({ secret: SECRET, file })
  // 600 components, 5 of them deleted: batches of 250, 250 and 95, sent concurrently.
  const ids = await seedComponents(complib, 600)
  for (const id of ids.slice(20, 25)) await complib.call('DELETE', `/api/components/${id}`)
  const connector = await complib.call('POST', '/api/connectors', {
    name: 'receiver-python',
    config: { url: receiver.url, concurrency: 4, requestsPerSecond: 100 },
    secret: SECRET,
  })
  connectorId = connector.id
})

afterAll(async () => {
  await receiver?.close()
  await complib?.close()
  await rm(dir, { recursive: true, force: true })
})

const stored = async (path = file) => JSON.parse(await readFile(path, 'utf8'))

/** Posts a body signed as complib signs, with node:crypto. */
async function post(url: string, body: string, { id = 'msg_manual', timestamp = Math.floor(Date.now() / 1000), secret = SECRET, sentBody = body } = {}) {
  const mac = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`${id}.${timestamp}.${body}`)
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${mac.digest('base64')}` },
    body: sentBody,
  })
  return { status: res.status, body: await res.json() }
}

describe('receiver-python with a real complib push', () => {
  it('holds exactly the live components after a push', async () => {
    const run = await pushAndWait(complib, connectorId)
    expect(run).toMatchObject({ status: 'succeeded', total: 595, batchesTotal: 3, batchesSucceeded: 3 })
    const live = await liveComponents(complib)
    expect(live).toHaveLength(595)
    const { components, seenWebhookIds } = await stored()
    expect(components).toEqual(Object.fromEntries(live.map((c) => [c.id, c])))
    expect(seenWebhookIds.sort()).toEqual(run.batches.map((b: { webhookId: string }) => b.webhookId).sort())
  })

  it('updates components in place on the next push', async () => {
    const [first] = await liveComponents(complib)
    await complib.call('PATCH', `/api/components/${first!.id}`, { description: 'céramique X7R — ±10 %' })
    expect((await pushAndWait(complib, connectorId)).status).toBe('succeeded')
    const { components } = await stored()
    expect(components[first!.id].description).toBe('céramique X7R — ±10 %')
    expect(Object.keys(components).sort()).toEqual((await liveComponents(complib)).map((c) => c.id).sort())
  })

  it('refuses a tampered body, a wrong secret, a timestamp outside 5 minutes and no signature with 4xx, changing nothing', async () => {
    const before = await readFile(file)
    const body = '{"entities":[{"id":"cmp_intruder","name":"X"}]}'
    const now = Math.floor(Date.now() / 1000)
    expect((await post(receiver.url, body, { sentBody: body.replace('"X"', '"Y"') })).status).toBe(401)
    expect((await post(receiver.url, body, { secret: NEW_SECRET })).status).toBe(401)
    expect((await post(receiver.url, body, { timestamp: now - 6 * 60 })).status).toBe(401)
    expect((await post(receiver.url, body, { timestamp: now + 6 * 60 })).status).toBe(401)
    expect((await fetch(receiver.url, { method: 'POST', body })).status).toBe(400)
    expect((await readFile(file)).equals(before)).toBe(true)
  })

  it('keeps verifying through a secret rotation: old and new signatures are both sent for the grace period', async () => {
    await complib.call('POST', `/api/connectors/${connectorId}/secret/rotate`, { secret: NEW_SECRET, graceSeconds: 3600 })
    // This receiver still holds the old secret.
    expect((await pushAndWait(complib, connectorId)).status).toBe('succeeded')
    const updated = await startPythonReceiver({ secret: NEW_SECRET, file: join(dir, 'rotated.json') })
    try {
      await complib.call('PATCH', `/api/connectors/${connectorId}`, { config: { url: updated.url, concurrency: 4, requestsPerSecond: 100 } })
      expect((await pushAndWait(complib, connectorId)).status).toBe('succeeded')
      expect(Object.keys((await stored(join(dir, 'rotated.json'))).components)).toHaveLength(595)
    } finally {
      await updated.close()
    }
    // Once the grace period is over only the new secret signs: the old receiver refuses.
    await complib.call('POST', `/api/connectors/${connectorId}/secret/rotate`, { secret: NEW_SECRET, graceSeconds: 0 })
    await complib.call('PATCH', `/api/connectors/${connectorId}`, { config: { url: receiver.url, concurrency: 4, requestsPerSecond: 100 } })
    const run = await pushAndWait(complib, connectorId)
    expect(run.status).toBe('failed')
    expect(run.batches.every((b: { lastStatus: number }) => b.lastStatus === 401)).toBe(true)
  })

  it('acknowledges a re-sent webhook-id without applying it again', async () => {
    const other = await startPythonReceiver({ secret: SECRET, file: join(dir, 'resend.json') })
    try {
      const old = '{"entities":[{"id":"cmp_a","name":"old"}]}'
      expect(await post(other.url, old, { id: 'msg_1' })).toEqual({ status: 200, body: { duplicate: false, upserted: 1 } })
      expect((await post(other.url, '{"entities":[{"id":"cmp_a","name":"new"}]}', { id: 'msg_2' })).status).toBe(200)
      // The same batch again, freshly signed, as complib resends after a crash.
      expect(await post(other.url, old, { id: 'msg_1' })).toEqual({ status: 200, body: { duplicate: true, upserted: 0 } })
      expect((await stored(join(dir, 'resend.json'))).components.cmp_a.name).toBe('new')
    } finally {
      await other.close()
    }
  })
})
