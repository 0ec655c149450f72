import { Webhook } from 'standardwebhooks'

/** The three Standard Webhooks headers of one delivery attempt. */
export interface SignatureHeaders {
  'webhook-id': string
  'webhook-timestamp': string
  'webhook-signature': string
}

export interface SignOptions {
  /** `msg_…`: the same for every attempt of one batch. */
  id: string
  /** Unix seconds: fresh for every attempt. */
  timestamp: number
  /** The exact bytes that will be sent. */
  body: Uint8Array | string
  /**
   * Signing secrets (`whsec_…`). During a rotation both the new and the old
   * secret sign, and the signatures are sent space-separated, so receivers
   * still holding the old secret keep verifying.
   */
  secrets: readonly string[]
}

/**
 * Signs one delivery per the Standard Webhooks specification: HMAC-SHA256 of
 * `${id}.${timestamp}.${body}` with each secret, as `v1,<base64>`.
 * A thin wrapper over `standardwebhooks`, run outside the sandbox.
 *
 * @example
 * const headers = signDelivery({ id: 'msg_1', timestamp: 1700000000, body, secrets: [secret] })
 */
export function signDelivery(options: SignOptions): SignatureHeaders {
  if (options.secrets.length === 0) throw new Error('[connector:webhook] no signing secret')
  const at = new Date(options.timestamp * 1000)
  const body = typeof options.body === 'string' ? options.body : Buffer.from(options.body.buffer, options.body.byteOffset, options.body.byteLength)
  const signature = options.secrets.map((secret) => _webhook(secret).sign(options.id, at, body)).join(' ')
  return {
    'webhook-id': options.id,
    'webhook-timestamp': String(options.timestamp),
    'webhook-signature': signature,
  }
}

// Decoding a secret is cheap but not free; a push signs thousands of batches with one or two secrets.
const _cache = new Map<string, Webhook>()
function _webhook(secret: string): Webhook {
  let webhook = _cache.get(secret)
  if (!webhook) {
    webhook = new Webhook(secret)
    if (_cache.size > 64) _cache.clear()
    _cache.set(secret, webhook)
  }
  return webhook
}
