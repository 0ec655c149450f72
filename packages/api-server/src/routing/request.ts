import type { IncomingMessage } from 'node:http'
import { ComplibError } from '@complib/core'

/** Default largest JSON body: enough for a bulk edit of a few thousand components. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024

/**
 * Reads the request body, refusing more than `limit` bytes with a 413 (by
 * Content-Length up front, and by counting while streaming, since the header
 * can lie or be absent).
 */
export async function readBodyBytes(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (Number.isFinite(declared) && declared > limit) throw _tooLarge(limit)
  // Served by Node (srvx): the body from Node's stream itself. srvx's `body` wraps it in a web
  // ReadableStream, whose construction and reads were a tenth of a small PATCH's time.
  const node = (request as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node
  if (node?.req && (request.method === 'GET' || request.method === 'HEAD')) return new Uint8Array(0)
  if (node?.req && !request.bodyUsed) return await _readNodeBody(node.req, limit)
  if (!request.body) return new Uint8Array(0)
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = request.body.getReader()
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>
    try {
      chunk = await reader.read()
    } catch (error) {
      throw _cutShort(error)
    }
    const { done, value } = chunk
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw _tooLarge(limit)
    }
    chunks.push(value)
  }
  const out = new Uint8Array(size)
  let offset = 0
  for (const c of chunks) {
    out.set(c, offset)
    offset += c.byteLength
  }
  return out
}

/** A Node request's body, counted against `limit` as it arrives; the same refusals as the web stream's. */
function _readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  if (req.readableEnded || req.destroyed) return Promise.reject(_cutShort(new Error('the body was already read, or the connection closed')))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const settle = (error: unknown, bytes?: Uint8Array) => {
      if (settled) return
      settled = true
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('close', onClose)
      if (error) reject(error)
      else resolve(bytes!)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength
      if (size > limit) {
        settle(_tooLarge(limit))
        // The rest is dropped while the 413 goes out; the answer then closes the connection
        // (ComplibServerResponse: an answer before the body's end), so the body is never read to its end.
        req.resume()
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => settle(undefined, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))
    const onClose = () => settle(_cutShort(new Error('the connection closed before the body ended')))
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('close', onClose)
    // Stays attached: an error after the body was read must not go unhandled.
    req.on('error', (error) => settle(_cutShort(error)))
  })
}

function _cutShort(error: unknown): ComplibError {
  return new ComplibError('BAD_REQUEST', 'the body did not arrive whole (the client closed the connection or its framing was malformed); nothing was applied', {
    cause: new ClientGoneError(error),
  })
}

/**
 * Reads a JSON body. The content type must be JSON (`application/json` or a
 * `+json` type): `text/plain` and form encodings are what a page on another
 * site can send without asking first (decision 1001), so
 * they are a 415, as is a body without a type. Text that is not JSON is a
 * 400 naming `body`.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const type = request.headers.get('content-type')
  if (!isJsonMediaType(type)) {
    throw new ComplibError('UNSUPPORTED_MEDIA_TYPE', type ? `send the body as application/json, not ${type}` : 'send the body with Content-Type: application/json', {
      headers: { 'accept-post': 'application/json' },
    })
  }
  const bytes = await readBodyBytes(request, limit)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw _bodyError('body', 'not valid UTF-8 (a byte sequence is not a character)')
  }
  if (text.trim() === '') throw _bodyError('body', 'a JSON body is required')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw _bodyError('body', `not valid JSON (${(error as Error).message})`)
  }
  _assertWellFormed(value)
  return value
}

/**
 * Refuses a string (or a key) holding a lone surrogate, such as `"\ud800"`:
 * it is no character, and stored it would come back as U+FFFD, not as sent.
 * Refuses nesting deeper than MAX_JSON_DEPTH too: no body of the API needs
 * it, and code that walks a value by recursion (a merge patch, a schema) must
 * never meet a depth that overflows the stack. Walks without recursion itself.
 */
function _assertWellFormed(root: unknown): void {
  const stack: Array<[unknown, string, number]> = [[root, 'body', 0]]
  while (stack.length) {
    const [value, path, depth] = stack.pop()!
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) throw _bodyError(path, 'holds a lone surrogate (not a Unicode character)')
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_JSON_DEPTH) throw _bodyError(path, `is nested deeper than ${MAX_JSON_DEPTH} levels`)
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) stack.push([value[i], `${path}.${i}`, depth + 1])
      } else {
        for (const [key, child] of Object.entries(value)) {
          if (LONE_SURROGATE.test(key)) throw _bodyError(path, 'has a key holding a lone surrogate (not a Unicode character)')
          stack.push([child, `${path}.${key}`, depth + 1])
        }
      }
    }
  }
}

/** How deep a JSON body may nest (objects and arrays): far beyond any body the API takes. */
export const MAX_JSON_DEPTH = 64

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

function _bodyError(path: string, message: string): ComplibError {
  return new ComplibError('VALIDATION_FAILED', `${path}: ${message}`, { errors: [{ path, message }] })
}

/** Query parameters as an object; a repeated key becomes an array. */
export function queryObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [key, value] of url.searchParams) {
    const prev = out[key]
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value]
  }
  return out
}

/** Reads `If-Match: "3"` (or `W/"3"`, or `3`) as a version number; undefined when absent or `*`. */
export function ifMatchVersion(request: Request): number | undefined {
  const header = request.headers.get('if-match')?.trim()
  if (!header || header === '*') return undefined
  const match = /^(?:W\/)?"?(\d+)"?$/.exec(header)
  if (!match) {
    throw new ComplibError('VALIDATION_FAILED', 'headers.if-match: expected an ETag such as "3"', {
      errors: [{ path: 'headers.if-match', message: 'expected an ETag such as "3"' }],
    })
  }
  return Number(match[1])
}

/** Whether a Content-Type names JSON: `application/json` or `application/<x>+json`, parameters aside. */
export function isJsonMediaType(type: string | null): boolean {
  if (!type) return false
  const media = type.split(';', 1)[0]!.trim().toLowerCase()
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'))
}

/** The cause of a body that stopped arriving: the client went away, which is theirs, not a server fault. */
export class ClientGoneError extends Error {
  constructor(cause: unknown) {
    super(`the client went away mid-body (${cause instanceof Error ? cause.message : String(cause)})`, { cause })
    this.name = 'ClientGoneError'
  }
}

function _tooLarge(limit: number): ComplibError {
  return new ComplibError('PAYLOAD_TOO_LARGE', `the body is larger than ${limit} bytes`)
}
