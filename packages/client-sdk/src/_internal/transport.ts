import type { Problem } from '@complib/core'
import { FetchError, ofetch, type $Fetch, type FetchContext, type FetchOptions } from 'ofetch'
import type { ClientOptions } from '../options'
import { ComplibNetworkError, toApiError } from '../errors'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** The client's own options (documented on ClientOptions), and the comment `withComment` gave. */
export interface TransportOptions extends ClientOptions {
  comment?: string | undefined
}

export interface CallOptions {
  /** Query parameters; arrays repeat the key, undefined and null are left out. */
  query?: object | undefined
  /** A JSON body. */
  body?: unknown
  /** A body sent as is (a file), with its content type. */
  rawBody?: NonNullable<RequestInit['body']> | undefined
  contentType?: string | undefined
  /** Sent as `If-Match`: a version number (3) or an ETag (`"3"`). */
  ifMatch?: number | string | undefined
  /**
   * Whether sending the request twice does no harm. Only then are network
   * errors and 5xx answers retried. Defaults: GET, PUT, PATCH and DELETE yes
   * (a merge patch applied twice leaves the same record), POST no.
   */
  idempotent?: boolean | undefined
  responseType?: 'json' | 'text' | 'arrayBuffer' | 'stream' | undefined
  signal?: AbortSignal | undefined
}

export interface RawResult<T> {
  data: T
  status: number
  headers: Headers
}

export interface Transport {
  call<T>(method: Method, path: string, options?: CallOptions): Promise<T>
  raw<T>(method: Method, path: string, options?: CallOptions): Promise<RawResult<T>>
  /** The ofetch instance under it (base URL, key and retries set). */
  request: $Fetch
}

/** Retry only what a retry can fix: no answer, or a server error that may pass. */
const RETRY_STATUSES = [500, 502, 503, 504]
/** The longest `Retry-After` waited for before a retry. */
const MAX_RETRY_AFTER_MS = 30_000

/**
 * The HTTP layer of the client: base URL and key, JSON in and out, retries
 * with a doubling delay for idempotent requests, and every failure turned
 * into a typed error (`ComplibApiError` and subclasses, `ComplibNetworkError`).
 */
export function createTransport(options: TransportOptions): Transport {
  const retries = options.retries ?? 2
  const firstDelay = options.retryDelayMs ?? 250
  const request = ofetch.create(
    {
      baseURL: `${options.baseUrl.replace(/\/+$/, '')}/api`,
      headers: _headers(options),
      retry: retries,
      retryStatusCodes: RETRY_STATUSES,
      retryDelay: (ctx) => _retryDelay(ctx, retries, firstDelay),
      ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
    },
    options.fetch ? { fetch: options.fetch } : {},
  )

  async function raw<T>(method: Method, path: string, call: CallOptions = {}): Promise<RawResult<T>> {
    const url = path + _queryString(call.query)
    const headers: Record<string, string> = {}
    if (call.ifMatch !== undefined) headers['if-match'] = typeof call.ifMatch === 'number' ? `"${call.ifMatch}"` : call.ifMatch
    if (call.contentType) headers['content-type'] = call.contentType
    const idempotent = call.idempotent ?? method !== 'POST'
    try {
      // responseType narrows ofetch's option type per call; the caller names T.
      const res = await request.raw<T>(url, {
        method,
        headers,
        body: call.rawBody ?? (call.body as Record<string, unknown> | undefined),
        retry: idempotent ? retries : 0,
        ...(call.responseType ? { responseType: call.responseType } : {}),
        ...(call.signal ? { signal: call.signal } : {}),
      } as FetchOptions<'json'>)
      return { data: res._data as T, status: res.status, headers: res.headers }
    } catch (error) {
      throw _toError(error, `${method} ${path}`)
    }
  }

  return {
    raw,
    call: async <T>(method: Method, path: string, call?: CallOptions) => (await raw<T>(method, path, call)).data,
    request,
  }
}

/** The headers every request carries: the credential (a token before the key) and the comment. */
function _headers(options: TransportOptions): Record<string, string> {
  const headers: Record<string, string> = {}
  const credential = options.token || options.apiKey
  if (credential) headers.authorization = `Bearer ${credential}`
  if (options.comment !== undefined) headers[COMMENT_HEADER] = encodeComment(options.comment)
  return headers
}

export const COMMENT_HEADER = 'complib-comment'

/**
 * A comment as the `Complib-Comment` header carries it: printable ASCII as
 * is, anything else percent-encoded as UTF-8 (header values are bytes, not
 * text). A `%` is encoded too, since the server decodes a value holding one.
 */
export function encodeComment(comment: string): string {
  return /^[\x20-\x24\x26-\x7e]*$/.test(comment) ? comment : encodeURIComponent(comment)
}

/**
 * A path with its parameters encoded.
 *
 * @example
 * path`/components/${id}/tags/${tagId}`
 */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce((out, s, i) => out + s + (i < values.length ? encodeURIComponent(values[i]!) : ''), '')
}

function _queryString(query: object | undefined): string {
  if (!query) return ''
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) params.append(key, String(item))
    }
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}

function _retryDelay(ctx: FetchContext, retries: number, firstDelay: number): number {
  const left = typeof ctx.options.retry === 'number' ? ctx.options.retry : 0
  const delay = firstDelay * 2 ** (retries - left)
  // A 503 may say when to come back; honour it when it is reasonable.
  const after = Number(ctx.response?.headers.get('retry-after'))
  return Number.isFinite(after) && after > 0 ? Math.max(delay, Math.min(after * 1000, MAX_RETRY_AFTER_MS)) : delay
}

function _toError(error: unknown, request: string): Error {
  if (!(error instanceof FetchError)) return error instanceof Error ? error : new Error(String(error))
  if (!error.response) return new ComplibNetworkError(request, error.cause ?? error)
  return toApiError(_problemOf(error.response, error.data), request)
}

/** The problem body of an error answer; a body that is not one (a proxy's HTML page) becomes one. */
function _problemOf(response: Response, data: unknown): Problem {
  const body = data as Partial<Problem> | undefined
  if (body && typeof body === 'object' && typeof body.code === 'string' && typeof body.status === 'number') {
    return { type: '', title: '', detail: '', ...body } as Problem
  }
  const text = typeof data === 'string' ? data.slice(0, 200) : ''
  return {
    type: 'about:blank',
    title: response.statusText || `HTTP ${response.status}`,
    status: response.status,
    detail: text || response.statusText || `the server answered ${response.status}`,
    code: `HTTP_${response.status}`,
  }
}
