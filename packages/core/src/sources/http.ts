import { SourceError } from './source-error'

/** How a source calls its provider: every request bounded in time and size, counted against the quota, and its failures told as SourceErrors. */
export interface SourceHttp {
  /**
   * Sends a request and parses the answer as JSON. 401/403 throw `auth`,
   * 429 `quota` (with `Retry-After`), 408 and 5xx `unavailable`, other 4xx
   * `refused`, an answer that is not JSON `bad-answer`. With
   * `notFoundAsNull`, a 404 resolves null instead.
   */
  json<T = unknown>(url: string | URL, init?: SourceRequestInit & { notFoundAsNull?: false }): Promise<T>
  json<T = unknown>(url: string | URL, init: SourceRequestInit & { notFoundAsNull: true }): Promise<T | null>
  /** Sends a request and answers whatever came (any status), bounded the same: for providers that say more in an error's body. */
  request(url: string | URL, init?: SourceRequestInit): Promise<SourceAnswer>
  /**
   * `fetch` with the same bounds and quota, for libraries that call fetch
   * themselves (an OAuth2 client, a GraphQL client). Its errors are
   * SourceErrors too; statuses are left to the caller.
   */
  fetch: typeof globalThis.fetch
}

export interface SourceRequestInit {
  method?: string
  headers?: Record<string, string>
  /** A string is sent as is; an object as JSON (with its content type); URLSearchParams as a form. */
  body?: string | URLSearchParams | Record<string, unknown> | unknown[]
}

export interface SourceAnswer {
  status: number
  headers: Headers
  text: string
  /** The text parsed as JSON, or a `bad-answer` SourceError. */
  json<T = unknown>(): T
}

export interface SourceHttpOptions {
  /** Aborts every request (the caller went away, the server stops). */
  signal?: AbortSignal | undefined
  /** How long one request may take, headers and body (default 15 s). */
  timeoutMs?: number | undefined
  /** The largest answer read (default 8 MiB); a longer one is a `bad-answer`. */
  maxBytes?: number | undefined
  /** Called before every request: the source's limiter (it may wait, or throw a `quota` SourceError). */
  beforeRequest?: (() => Promise<void>) | undefined
  /** Values never to repeat in an error message (the source's secrets). */
  secrets?: readonly string[] | undefined
}

/**
 * The HTTP client a source is given (decision 1606). Messages name the
 * provider's host and path, never the query (Mouser's key travels there) nor
 * a secret.
 */
export function createSourceHttp(options: SourceHttpOptions = {}): SourceHttp {
  const timeoutMs = options.timeoutMs ?? 15_000
  const maxBytes = options.maxBytes ?? 8 * 1024 * 1024
  const secrets = (options.secrets ?? []).filter((s) => s.length >= 4)
  const scrub = (text: string) => secrets.reduce((out, secret) => out.split(secret).join('…'), text)
  const where = (url: string | URL) => {
    try {
      const u = new URL(url)
      return `${u.host}${u.pathname}`
    } catch {
      return 'the provider'
    }
  }

  const send = async (input: string | URL | Request, init: RequestInit | undefined): Promise<{ response: Response; text: string }> => {
    await options.beforeRequest?.()
    const url = input instanceof Request ? input.url : input
    const timeout = AbortSignal.timeout(timeoutMs)
    const signals = [timeout, ...(options.signal ? [options.signal] : []), ...(init?.signal ? [init.signal] : [])]
    const signal = AbortSignal.any(signals)
    let response: Response
    try {
      response = await fetch(input, { ...init, signal, redirect: 'follow' })
    } catch (error) {
      throw _failure(error, timeout, options.signal, where(url), timeoutMs, 'could not be reached')
    }
    try {
      return { response, text: await _readBounded(response, maxBytes, where(url)) }
    } catch (error) {
      if (error instanceof SourceError) throw error
      throw _failure(error, timeout, options.signal, where(url), timeoutMs, 'broke off its answer')
    }
  }

  const request = async (url: string | URL, init: SourceRequestInit = {}): Promise<SourceAnswer> => {
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers }
    let body: string | URLSearchParams | undefined
    if (typeof init.body === 'string' || init.body instanceof URLSearchParams) body = init.body
    else if (init.body !== undefined) {
      body = JSON.stringify(init.body)
      headers['content-type'] ??= 'application/json'
    }
    const { response, text } = await send(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, ...(body === undefined ? {} : { body }) })
    return {
      status: response.status,
      headers: response.headers,
      text,
      json<T>() {
        try {
          return JSON.parse(text) as T
        } catch {
          throw new SourceError('bad-answer', `${where(url)} answered ${response.status} with something that is not JSON`)
        }
      },
    }
  }

  const json = async (url: string | URL, init: SourceRequestInit & { notFoundAsNull?: boolean } = {}) => {
    const answer = await request(url, init)
    if (answer.status === 404 && init.notFoundAsNull) return null
    if (answer.status < 200 || answer.status > 299) throw statusError(answer.status, answer.headers, `${where(url)} answered ${answer.status}${_said(scrub(answer.text))}`)
    return answer.json()
  }

  const boundedFetch: typeof globalThis.fetch = async (input, init) => {
    const { response, text } = await send(input, init)
    // A new Response over the bounded text: the library reads it as it would the original.
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers })
  }

  return { json: json as SourceHttp['json'], request, fetch: boundedFetch }
}

/**
 * The SourceError an HTTP status stands for (for sources that read statuses
 * themselves, from `request` or `fetch`).
 */
export function statusError(status: number, headers: Headers, message: string): SourceError {
  const retryAfter = _retryAfter(headers.get('retry-after'))
  if (status === 401 || status === 403) return new SourceError('auth', message)
  if (status === 429) return new SourceError('quota', message, { retryAfter })
  if (status === 408 || status >= 500) return new SourceError('unavailable', message, { retryAfter })
  return new SourceError('refused', message)
}

/** `Retry-After` in seconds, from either of its forms (RFC 9110 §10.2.3). */
function _retryAfter(value: string | null): number | undefined {
  if (!value) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000))
}

/** A short quote of what the provider said, for the message: its first line, bounded. */
function _said(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim().slice(0, 200)
  return line ? `: ${line}` : ''
}

function _failure(error: unknown, timeout: AbortSignal, caller: AbortSignal | undefined, where: string, timeoutMs: number, what: string): SourceError {
  if (caller?.aborted) return new SourceError('unavailable', 'the request was cancelled', { cause: error })
  if (timeout.aborted) return new SourceError('timeout', `${where} did not answer within ${timeoutMs} ms`, { cause: error })
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code
  return new SourceError('unavailable', `${where} ${what}${typeof code === 'string' ? ` (${code})` : ''}`, { cause: error })
}

/** The answer's text, refusing one longer than `maxBytes` without reading the rest. */
async function _readBounded(response: Response, maxBytes: number, where: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'))
  const tooLong = () => new SourceError('bad-answer', `${where} answered more than ${Math.round(maxBytes / 1024)} KiB`)
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {})
    throw tooLong()
  }
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      throw tooLong()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}
