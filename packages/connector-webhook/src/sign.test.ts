import { createHmac } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import vectors from '@complib/test-support/webhook-vectors.json' with { type: 'json' }
import { signDelivery } from './sign'

/** An independent implementation of the spec, with node:crypto only. */
function referenceSignature(secret: string, id: string, timestamp: number, body: string | Uint8Array): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
  const mac = createHmac('sha256', key)
  mac.update(`${id}.${timestamp}.`)
  mac.update(body)
  return `v1,${mac.digest('base64')}`
}

describe('signDelivery', () => {
  for (const [i, v] of vectors.vectors.entries()) {
    it(`matches known-answer vector ${i + 1} (${v.source})`, () => {
      const headers = signDelivery({ id: v.id, timestamp: v.timestamp, body: v.body, secrets: [v.secret] })
      expect(headers['webhook-signature']).toBe(v.signature)
      expect(referenceSignature(v.secret, v.id, v.timestamp, v.body)).toBe(v.signature)
    })
  }

  it('signs the exact bytes given, multi-byte characters included', () => {
    const v = vectors.vectors[3]!
    const bytes = new TextEncoder().encode(v.body)
    const headers = signDelivery({ id: v.id, timestamp: v.timestamp, body: bytes, secrets: [v.secret] })
    expect(headers['webhook-signature']).toBe(v.signature)
  })

  it('produces headers a standardwebhooks receiver verifies', () => {
    const secret = vectors.vectors[0]!.secret
    const body = JSON.stringify({ entities: [{ id: 'cmp_1', name: 'R 10k' }] })
    const headers = signDelivery({ id: 'msg_abc', timestamp: Math.floor(Date.now() / 1000), body, secrets: [secret] })
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body))
  })

  it('fails verification when the body is re-serialised', () => {
    const secret = vectors.vectors[0]!.secret
    const body = '{"entities": [ {"id":"cmp_1"} ]}'
    const headers = signDelivery({ id: 'msg_abc', timestamp: Math.floor(Date.now() / 1000), body, secrets: [secret] })
    const reserialised = JSON.stringify(JSON.parse(body))
    expect(() => new Webhook(secret).verify(reserialised, { ...headers })).toThrow()
  })

  it('sends old and new signatures space-separated during a rotation, each verifying alone', () => {
    const [oldSecret, newSecret] = [vectors.vectors[0]!.secret, vectors.vectors[1]!.secret]
    const body = '{"entities":[]}'
    const timestamp = Math.floor(Date.now() / 1000)
    const headers = signDelivery({ id: 'msg_rot', timestamp, body, secrets: [newSecret, oldSecret] })
    const parts = headers['webhook-signature'].split(' ')
    expect(parts).toEqual([referenceSignature(newSecret, 'msg_rot', timestamp, body), referenceSignature(oldSecret, 'msg_rot', timestamp, body)])
    expect(() => new Webhook(oldSecret).verify(body, { ...headers })).not.toThrow()
    expect(() => new Webhook(newSecret).verify(body, { ...headers })).not.toThrow()
  })

  it('refuses to sign without a secret', () => {
    expect(() => signDelivery({ id: 'msg_x', timestamp: 1, body: '', secrets: [] })).toThrow(/no signing secret/)
  })
})
