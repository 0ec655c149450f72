import { signDelivery } from './sign'

export interface DeliveryRequest {
  url: string
  /** The exact bytes to send: `{"entities":[…]}`. */
  body: Uint8Array
  webhookId: string
  secrets: readonly string[]
  /** Headers naming the run and the batch (`complib-run-id`, `complib-batch: 3/5`), sent beside the signature ones. */
  headers?: Readonly<Record<string, string>> | undefined
  /** Give up on an answer after this long (default 30 s). */
  timeoutMs?: number | undefined
  /** Abandons the request (the run was cancelled or the server is stopping). */
  signal?: AbortSignal | undefined
  fetch?: typeof fetch | undefined
}

export interface DeliveryResult {
  ok: boolean
  /** HTTP status, or 0 when no answer came (timeout, refused, reset). */
  status: number
  retryAfter?: number | undefined
  durationMs: number
  error: string | null
}

/**
 * One signed POST. The signature covers the exact bytes sent, with a fresh
 * timestamp for every attempt and the batch's `webhook-id`. Redirects are not
 * followed (a 3xx is a failure the code sees); only 2xx is success. Never
 * throws: a network failure is a result with status 0.
 */
export async function deliver(request: DeliveryRequest): Promise<DeliveryResult> {
  const timeoutMs = request.timeoutMs ?? 30_000
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'complib-webhook/1',
    ...request.headers,
    ...signDelivery({ id: request.webhookId, timestamp: Math.floor(Date.now() / 1000), body: request.body, secrets: request.secrets }),
  }
  const started = performance.now()
  // The answer timeout, and a cancel or a stop: none may wait for a receiver that never answers.
  // A timer of our own rather than AbortSignal.timeout inside AbortSignal.any, whose timeout
  // signal can be garbage-collected before it fires (https://github.com/nodejs/node/issues/57736):
  // under load a request then waited forever.
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs)
  const onAbort = () => controller.abort(request.signal?.reason)
  if (request.signal?.aborted) onAbort()
  else request.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const signal = controller.signal
    const res = await (request.fetch ?? fetch)(request.url, { method: 'POST', headers, body: request.body, redirect: 'manual', signal })
    // The answer's body is not needed; do not let a slow or huge one hold the connection.
    await res.body?.cancel().catch(() => {})
    return { ok: res.status >= 200 && res.status < 300, status: res.status, retryAfter: parseRetryAfter(res.headers.get('retry-after')), durationMs: performance.now() - started, error: null }
  } catch (error) {
    const e = error as Error
    const message = request.signal?.aborted
      ? 'abandoned: the run was cancelled or the server is stopping'
      : e.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : `${e.message}${(e.cause as Error | undefined)?.message ? `: ${(e.cause as Error).message}` : ''}`
    return { ok: false, status: 0, durationMs: performance.now() - started, error: message }
  } finally {
    clearTimeout(timer)
    request.signal?.removeEventListener('abort', onAbort)
  }
}

/** `Retry-After` in seconds: a number of seconds or an HTTP date. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined
  const seconds = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Math.ceil((Date.parse(value) - Date.now()) / 1000)
  // Capped at a day: the value is only advice to the code, and must stay a safe integer.
  return Number.isNaN(seconds) ? undefined : Math.min(Math.max(0, seconds), 86_400)
}
