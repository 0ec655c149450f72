import { randomUUID } from 'node:crypto'
import { ComplibError } from '@complib/core'
import { getRequestIP, type H3Event } from 'h3'

/** The comment header a write may carry (decision 1506). */
export const COMMENT_HEADER = 'complib-comment'
const COMMENT_MAX = 1000

/**
 * The request's id: the caller's `X-Request-Id` when it is a plain token
 * (letters, digits, `.-_:`, at most 64), so a proxy's id follows the request
 * into our audit trail; else a new UUID.
 */
export function requestIdOf(event: H3Event): string {
  const given = event.req.headers.get('x-request-id')
  return given && /^[A-Za-z0-9._:-]{1,64}$/.test(given) ? given : randomUUID()
}

/**
 * The `Complib-Comment` header: plain ASCII, or UTF-8 percent-encoded (what
 * `encodeURIComponent` gives; header values are not UTF-8); a `%` that does
 * not decode is taken as written. At most 1,000
 * characters, no control characters (a comment is one line of history and
 * of the audit trail). A bad one is a 400 naming the header, before anything changes.
 */
export function commentOf(event: H3Event): string | null {
  const raw = event.req.headers.get(COMMENT_HEADER)
  if (raw === null) return null
  let text = raw
  if (raw.includes('%')) {
    try {
      text = decodeURIComponent(raw)
    } catch {
      // Not percent-encoding after all (`the 1% part`): taken as written.
    }
  }
  text = text.normalize('NFC').trim()
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(text)) throw _badComment('holds a control character or line break; a comment is one line')
  if (text.length > COMMENT_MAX) throw _badComment(`is longer than ${COMMENT_MAX} characters`)
  return text === '' ? null : text
}

function _badComment(why: string): ComplibError {
  return new ComplibError('VALIDATION_FAILED', `header.complib-comment: the comment ${why}`, { errors: [{ path: 'header.complib-comment', message: why }] })
}

/**
 * The client's address. Behind a trusted proxy (`--trust-proxy`), the last
 * address of `X-Forwarded-For`: the one the proxy appended, which the client
 * cannot choose (the first ones it can).
 */
export function clientIpOf(event: H3Event, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = event.req.headers.get('x-forwarded-for')
    const last = forwarded?.split(',').at(-1)?.trim()
    if (last) return last
  }
  return getRequestIP(event) ?? 'unknown'
}

/** Whether the request reached us over TLS (behind a trusted proxy: as the proxy says). */
export function isHttps(event: H3Event, trustProxy: boolean): boolean {
  if (event.url.protocol === 'https:') return true
  return trustProxy && event.req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https'
}
