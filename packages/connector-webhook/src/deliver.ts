import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { OutboundRefusedError, type OutboundGuard } from './outbound-policy'
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
  /**
   * The outbound policy the destination must pass (createOutboundGuard), with
   * the connections checked under it: a connection kept alive is reused only
   * by deliveries under the same guard.
   */
  outbound?: DeliveryOutbound | undefined
}

export interface DeliveryOutbound {
  guard: OutboundGuard
  agents: DeliveryAgents
}

/** Kept-alive connections, per scheme. */
export interface DeliveryAgents {
  'http:': http.Agent
  'https:': https.Agent
}

/** Connections of their own, for the deliveries of one guard (one run); `destroy` closes them. */
export function createDeliveryAgents(): DeliveryAgents & { destroy(): void } {
  const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) }
  return { ...agents, destroy: () => Object.values(agents).forEach((a) => a.destroy()) }
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
 * throws: a network failure is a result with status 0. The one exception is
 * a destination `request.outbound` refuses (OutboundRefusedError): that is no
 * attempt, since nothing was sent.
 *
 * Sent with node:http (kept-alive connections, one per batch in flight), or
 * with `request.fetch` when one is given. Through fetch a push cost about a
 * tenth more of the server's CPU (the Request, web streams, a copy of the
 * body) and one more buffer per batch in flight.
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
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'))
  }, timeoutMs)
  const onAbort = () => controller.abort(request.signal?.reason)
  if (request.signal?.aborted) onAbort()
  else request.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const signal = controller.signal
    const answer = request.fetch
      ? await _fetched(request.fetch, request.url, headers, request.body, signal, request.outbound?.guard)
      : await _posted(request.url, headers, request.body, signal, request.outbound)
    return { ok: answer.status >= 200 && answer.status < 300, status: answer.status, retryAfter: parseRetryAfter(answer.retryAfter), durationMs: performance.now() - started, error: null }
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw error
    const e = error as Error
    const message = request.signal?.aborted
      ? 'abandoned: the run was cancelled or the server is stopping'
      : timedOut
        ? `no answer within ${timeoutMs} ms`
        : `${e.message}${(e.cause as Error | undefined)?.message ? `: ${(e.cause as Error).message}` : ''}`
    return { ok: false, status: 0, durationMs: performance.now() - started, error: message }
  } finally {
    clearTimeout(timer)
    request.signal?.removeEventListener('abort', onAbort)
  }
}

interface _Answer {
  status: number
  retryAfter: string | null
}

/** Connections kept alive between deliveries, per scheme. */
const AGENTS = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) }
/** An answer's body is drained so its connection can be used again, up to this many bytes or this long; then the connection closes. */
const DRAIN_BYTES = 64 * 1024
const DRAIN_MS = 1000

/**
 * The POST through node:http(s); resolves at the answer's status line and headers.
 * Under a guard, a host name is resolved and checked by the guard's `lookup`
 * as the connection opens, which then goes to a checked address (node:net
 * looks up no address literal, so those are checked before).
 */
async function _posted(url: string, headers: Record<string, string>, body: Uint8Array, signal: AbortSignal, outbound: DeliveryOutbound | undefined): Promise<_Answer> {
  const target = new URL(url)
  if (outbound && isIP(target.hostname.replace(/^\[(.*)\]$/, '$1'))) await outbound.guard.check(url)
  return new Promise((resolve, reject) => {
    // Looked up at each call (not imported by name): a test's interceptor (msw) replaces the module's functions.
    const send = target.protocol === 'https:' ? https.request : target.protocol === 'http:' ? http.request : undefined
    if (!send) return reject(new Error(`${url} is not an http(s) URL`))
    const scheme = target.protocol as 'http:' | 'https:'
    const req = send(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(body.byteLength) },
      agent: (outbound?.agents ?? AGENTS)[scheme],
      ...(outbound ? { lookup: outbound.guard.lookup } : {}),
      signal,
    })
    req.on('error', reject)
    req.once('response', (res) => {
      resolve({ status: res.statusCode ?? 0, retryAfter: _header(res.headers['retry-after']) })
      // The answer's body is not needed; a slow or huge one must not hold the connection.
      let drained = 0
      const cut = setTimeout(() => res.destroy(), DRAIN_MS).unref()
      res.on('data', (chunk: Buffer) => {
        drained += chunk.byteLength
        if (drained > DRAIN_BYTES) res.destroy()
      })
      res.once('close', () => clearTimeout(cut))
      res.once('error', () => {})
    })
    req.end(body)
  })
}

/**
 * The POST through a given fetch (tests, other transports). The guard checks
 * the destination first, but the fetch resolves the name again on its own: a
 * DNS answer that changes in between is not caught on this path.
 */
async function _fetched(fetcher: typeof fetch, url: string, headers: Record<string, string>, body: Uint8Array, signal: AbortSignal, guard: OutboundGuard | undefined): Promise<_Answer> {
  await guard?.check(url)
  const res = await fetcher(url, { method: 'POST', headers, body, redirect: 'manual', signal })
  // The answer's body is not needed; do not let a slow or huge one hold the connection.
  await res.body?.cancel().catch(() => {})
  return { status: res.status, retryAfter: res.headers.get('retry-after') }
}

function _header(value: string | string[] | undefined): string | null {
  return value === undefined ? null : Array.isArray(value) ? (value[0] ?? null) : value
}

/** `Retry-After` in seconds: a number of seconds or an HTTP date. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined
  const seconds = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Math.ceil((Date.parse(value) - Date.now()) / 1000)
  // Capped at a day: the value is only advice to the code, and must stay a safe integer.
  return Number.isNaN(seconds) ? undefined : Math.min(Math.max(0, seconds), 86_400)
}
