import type { IncomingHttpHeaders } from 'node:http'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'

/** A delivery the receiver refuses: `status` is what it answers (4xx). */
export class DeliveryError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'DeliveryError'
  }
}

/** One verified push batch. */
export interface Delivery {
  /** `webhook-id`: the same for every attempt of a batch, so it deduplicates resends. */
  webhookId: string
  entities: Entity[]
}

/** A component as pushed: only `id` is relied on here, as the upsert key. */
export type Entity = { id: string } & Record<string, unknown>

/**
 * Checks a delivery: its Standard Webhooks signature over `raw`, the body
 * exactly as it arrived, then the batch it carries.
 *
 * Throws a `DeliveryError`: 400 when headers or body are malformed, 401 when
 * the signature does not match or the timestamp is out of tolerance.
 *
 * Never verify `JSON.stringify(JSON.parse(raw))` instead of `raw`: a
 * re-serialised body can differ in bytes (escapes, number formats,
 * whitespace), and the signature covers the bytes.
 *
 * @example
 * const delivery = verifyDelivery(rawBuffer, req.headers, process.env.WEBHOOK_SECRET!)
 */
export function verifyDelivery(raw: Buffer | string, headers: Headers, secret: string): Delivery {
  const webhookId = verifySignature(raw, headers, secret)
  return { webhookId, entities: parseBatch(raw) }
}

type Headers = IncomingHttpHeaders | Record<string, string | undefined>

/**
 * Checks the signature of `raw` and returns its `webhook-id`.
 * `standardwebhooks` accepts any one of several space-separated `v1,…`
 * signatures (a secret rotation sends the old and the new one) and a
 * `webhook-timestamp` within 5 minutes of now.
 */
export function verifySignature(raw: Buffer | string, headers: Headers, secret: string): string {
  const picked = {
    'webhook-id': _header(headers, 'webhook-id'),
    'webhook-timestamp': _header(headers, 'webhook-timestamp'),
    'webhook-signature': _header(headers, 'webhook-signature'),
  }
  try {
    // jsonParse: false: the body is read separately, so a malformed one is a 400 of its own.
    new Webhook(secret).verify(raw, picked, { jsonParse: false })
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw new DeliveryError(_isMissing(picked) ? 400 : 401, `signature check failed: ${error.message}`)
    throw error
  }
  return picked['webhook-id']
}

/** Reads `{"entities":[{ "id": "…", … }, …]}`; anything else is a 400. */
export function parseBatch(raw: Buffer | string): Entity[] {
  let body: unknown
  try {
    body = JSON.parse(raw.toString())
  } catch {
    throw new DeliveryError(400, 'body is not JSON')
  }
  const entities = (body as { entities?: unknown } | null)?.entities
  if (!Array.isArray(entities)) throw new DeliveryError(400, 'body has no "entities" array')
  for (const [i, entity] of entities.entries()) {
    if (typeof entity !== 'object' || entity === null || typeof (entity as Entity).id !== 'string' || !(entity as Entity).id) {
      throw new DeliveryError(400, `entities[${i}] has no string "id"`)
    }
  }
  return entities as Entity[]
}

function _header(headers: Headers, name: string): string {
  const value = headers[name]
  return (Array.isArray(value) ? value[0] : value) ?? ''
}

function _isMissing(picked: Record<string, string>): boolean {
  return Object.values(picked).some((v) => v === '')
}
