import { FetchError, ofetch, type $Fetch } from 'ofetch'
import { ComplibApiError } from './errors'

export interface ClientOptions {
  /** Base address of the service, e.g. `http://127.0.0.1:4000` (the `/api` prefix is added). */
  baseUrl: string
  /** Needed when the server listens off loopback. */
  apiKey?: string | undefined
  /** A fetch implementation (tests inject one). */
  fetch?: typeof fetch | undefined
  /** Retries of a network error or 5xx answer (default 2), with a growing delay. */
  retries?: number | undefined
}

export interface Health {
  status: 'ok'
  version: string
  storage: string
  uptimeSeconds: number
}

export interface ComplibClient {
  /** `GET /api/health`. */
  health(): Promise<Health>
  /** The underlying ofetch instance, for routes the typed surface does not cover yet. */
  request: $Fetch
}

/**
 * Creates a client for the complib API.
 *
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:4000' })
 * console.log((await client.health()).version)
 */
export function createClient(options: ClientOptions): ComplibClient {
  const request = ofetch.create({
    baseURL: `${options.baseUrl.replace(/\/+$/, '')}/api`,
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    retry: options.retries ?? 2,
    retryDelay: (ctx) => 200 * 2 ** ((options.retries ?? 2) - (typeof ctx.options.retry === 'number' ? ctx.options.retry : 0)),
    retryStatusCodes: [500, 502, 503, 504],
  }, options.fetch ? { fetch: options.fetch } : {})
  return {
    health: () => _call(() => request<Health>('/health')),
    request,
  }
}

async function _call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    // After ofetch's retries: an answer with a problem body becomes the typed error.
    const body = error instanceof FetchError ? (error.data as { code?: unknown } | undefined) : undefined
    if (body && typeof body === 'object' && typeof body.code === 'string') throw new ComplibApiError(body as ComplibApiError['problem'])
    throw error
  }
}
