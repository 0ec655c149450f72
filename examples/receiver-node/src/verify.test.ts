import { createHmac } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import vectors from '@complib/test-support/webhook-vectors.json' with { type: 'json' }
import { DeliveryError, verifyDelivery, verifySignature } from './verify'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const OTHER_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'

/** Signs as complib does, with node:crypto only (independent of standardwebhooks). */
function sign(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  const mac = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
  return `v1,${mac.update(`${id}.${timestamp}.`).update(body).digest('base64')}`
}
const now = () => Math.floor(Date.now() / 1000)
const headersFor = (body: string | Buffer, { id = 'msg_1', timestamp = now(), secret = SECRET } = {}) => ({
  'webhook-id': id,
  'webhook-timestamp': String(timestamp),
  'webhook-signature': sign(secret, id, timestamp, body),
})
const statusOf = (fn: () => unknown): number | undefined => {
  try {
    fn()
  } catch (error) {
    if (error instanceof DeliveryError) return error.status
    throw error
  }
  return undefined
}

afterEach(() => {
  vi.useRealTimers()
})

describe('verifyDelivery: known-answer vectors', () => {
  for (const [i, v] of vectors.vectors.entries()) {
    it(`accepts vector ${i + 1} (${v.source}) at its own time; a one-byte change to it is refused`, () => {
      vi.useFakeTimers({ toFake: ['Date'] })
      vi.setSystemTime(v.timestamp * 1000)
      const headers = { 'webhook-id': v.id, 'webhook-timestamp': String(v.timestamp), 'webhook-signature': v.signature }
      expect(verifySignature(Buffer.from(v.body), headers, v.secret)).toBe(v.id)
      expect(statusOf(() => verifySignature(Buffer.from(`${v.body} `), headers, v.secret))).toBe(401)
      expect(statusOf(() => verifySignature(Buffer.from(v.body), { ...headers, 'webhook-id': `${v.id}x` }, v.secret))).toBe(401)
      expect(statusOf(() => verifySignature(Buffer.from(v.body), { ...headers, 'webhook-timestamp': String(v.timestamp + 1) }, v.secret))).toBe(401)
    })
  }

  it('refuses a vector at the real time: its timestamp is years old', () => {
    const v = vectors.vectors[4]!
    const headers = { 'webhook-id': v.id, 'webhook-timestamp': String(v.timestamp), 'webhook-signature': v.signature }
    expect(() => verifyDelivery(Buffer.from(v.body), headers, v.secret)).toThrow(/too old/)
  })

  it('returns the batch of the batch-shaped vector', () => {
    const v = vectors.vectors[4]!
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(v.timestamp * 1000)
    const headers = { 'webhook-id': v.id, 'webhook-timestamp': String(v.timestamp), 'webhook-signature': v.signature }
    expect(verifyDelivery(Buffer.from(v.body), headers, v.secret)).toEqual({ webhookId: 'msg_batch_0001', entities: JSON.parse(v.body).entities })
  })
})

describe('verifyDelivery', () => {
  const body = '{"entities":[{"id":"cmp_1","name":"R 10k"}]}'

  it('accepts a fresh, correctly signed batch', () => {
    expect(verifyDelivery(Buffer.from(body), headersFor(body), SECRET).entities).toEqual([{ id: 'cmp_1', name: 'R 10k' }])
  })

  it('refuses a tampered body, a wrong secret and a stale or future timestamp with 401', () => {
    const tampered = body.replace('10k', '10K')
    expect(statusOf(() => verifyDelivery(Buffer.from(tampered), headersFor(body), SECRET))).toBe(401)
    expect(statusOf(() => verifyDelivery(Buffer.from(body), headersFor(body, { secret: OTHER_SECRET }), SECRET))).toBe(401)
    expect(statusOf(() => verifyDelivery(Buffer.from(body), headersFor(body, { timestamp: now() - 10 * 60 }), SECRET))).toBe(401)
    expect(statusOf(() => verifyDelivery(Buffer.from(body), headersFor(body, { timestamp: now() + 10 * 60 }), SECRET))).toBe(401)
  })

  it('accepts a timestamp a minute old (clocks drift; the tolerance is 5 minutes)', () => {
    expect(verifyDelivery(Buffer.from(body), headersFor(body, { timestamp: now() - 60 }), SECRET).webhookId).toBe('msg_1')
  })

  it('refuses missing headers with 400', () => {
    const { 'webhook-signature': _, ...unsigned } = headersFor(body)
    expect(statusOf(() => verifyDelivery(Buffer.from(body), unsigned, SECRET))).toBe(400)
    expect(statusOf(() => verifyDelivery(Buffer.from(body), {}, SECRET))).toBe(400)
  })

  it('accepts any one matching signature of several (a secret rotation sends old and new)', () => {
    const timestamp = now()
    const both = `${sign(OTHER_SECRET, 'msg_1', timestamp, body)} ${sign(SECRET, 'msg_1', timestamp, body)}`
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': both }
    expect(verifyDelivery(Buffer.from(body), headers, SECRET).webhookId).toBe('msg_1')
    expect(verifyDelivery(Buffer.from(body), headers, OTHER_SECRET).webhookId).toBe('msg_1')
    expect(statusOf(() => verifyDelivery(Buffer.from(body), headers, 'whsec_' + Buffer.alloc(32, 7).toString('base64')))).toBe(401)
  })

  it('refuses a signed body that is not a batch with 400', () => {
    for (const bad of ['not json', '{"items":[]}', '{"entities":[{"name":"no id"}]}', '{"entities":[null]}']) {
      expect(statusOf(() => verifyDelivery(Buffer.from(bad), headersFor(bad), SECRET)), bad).toBe(400)
    }
  })
})

describe('why the raw body, not a re-serialisation', () => {
  // Valid JSON as a sender may write it: escaped non-ASCII, 1.0, 1e3, spaces.
  const raw = '{"entities": [{"id": "cmp_1", "name": "Caf\\u00e9 10\\u00b5F", "tolerance": 1.0, "qty": 1e3}]}'

  it('re-serialising the parsed body changes its bytes', () => {
    const reserialised = JSON.stringify(JSON.parse(raw))
    expect(reserialised).toBe('{"entities":[{"id":"cmp_1","name":"Café 10µF","tolerance":1,"qty":1000}]}')
    expect(Buffer.from(reserialised).equals(Buffer.from(raw))).toBe(false)
  })

  it('the raw bytes verify; the re-serialised body, carrying the same data, does not', () => {
    const headers = headersFor(raw)
    expect(verifyDelivery(Buffer.from(raw), headers, SECRET).entities[0]).toMatchObject({ name: 'Café 10µF', qty: 1000 })
    const reserialised = JSON.stringify(JSON.parse(raw))
    expect(statusOf(() => verifyDelivery(Buffer.from(reserialised), headers, SECRET))).toBe(401)
  })
})
