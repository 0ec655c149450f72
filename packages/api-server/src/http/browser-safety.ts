import { ComplibError } from '@complib/core'
import type { H3Event } from 'h3'
import { isLoopbackHost } from '../auth/loopback'

/**
 * What a browser may do with this server (decisions 1000–1004).
 *
 * - `allowedOrigins`: web origins besides the server's own whose pages may
 *   change the library, and read answers through CORS.
 * - `allowedHosts`: names besides the loopback ones that the `Host` header
 *   may carry; undefined turns the Host check off (a server off loopback,
 *   behind its API key, answers to whatever name it is reached by).
 */
export interface BrowserSafetyOptions {
  allowedOrigins?: readonly string[] | undefined
  allowedHosts?: readonly string[] | undefined
}

/** The checks of one app, ready for every request. */
export interface BrowserSafety {
  /** Throws a 403 for a request from a page the server does not trust (Host, Origin). */
  check(event: H3Event): void
  /** CORS response headers for this request: only for an allowed origin, else none. */
  corsHeaders(event: H3Event): Record<string, string> | undefined
}

/** Methods a page may send to any origin without harm (they change nothing). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** What an allowed origin may send and read (a preflight answers with these). */
const CORS_ALLOW_HEADERS = 'authorization, content-type, if-match, complib-comment, x-request-id'
const CORS_EXPOSE_HEADERS = 'etag, link, location, x-total-count, x-total-count-bounded, retry-after, x-request-id'

/**
 * Normalises `--allowed-origin` values to `scheme://host[:port]`; throws on a
 * value that is not an http(s) origin, so a typo stops the start.
 */
export function toOrigin(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(`--allowed-origin ${value}: not a URL; give an origin such as https://parts.example.com`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin === 'null') {
    throw new Error(`--allowed-origin ${value}: only http and https origins can be allowed`)
  }
  if (url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new Error(`--allowed-origin ${value}: an origin has no path, query or user (${url.origin})`)
  }
  return url.origin
}

/**
 * Builds the checks that stop cross-site request forgery and DNS rebinding:
 * state-changing requests must come from the server's own origin or an
 * allowed one (by `Origin`, else `Sec-Fetch-Site`, else `Referer`; none of
 * them, as from curl or a script, passes), and when a Host allowlist is set,
 * `Host` must name this server.
 */
export function createBrowserSafety(options: BrowserSafetyOptions): BrowserSafety {
  const allowedOrigins = new Set((options.allowedOrigins ?? []).map(toOrigin))
  const allowedHosts = options.allowedHosts ? new Set(options.allowedHosts.map((h) => h.toLowerCase())) : undefined
  const hostVerdicts = new Map<string, boolean>()

  const isTrustedOrigin = (origin: string, event: H3Event): boolean => allowedOrigins.has(origin) || _sameHost(origin, event)

  return {
    check(event) {
      if (allowedHosts) {
        // Hosts repeat (one per name the server is reached by): the verdict is remembered, not parsed per request.
        const host = event.url.host
        let allowed = hostVerdicts.get(host)
        if (allowed === undefined) {
          const hostname = _hostname(host)
          allowed = isLoopbackHost(hostname) || allowedHosts.has(hostname)
          if (hostVerdicts.size >= 64) hostVerdicts.clear()
          hostVerdicts.set(host, allowed)
        }
        if (!allowed) {
          throw new ComplibError(
            'FORBIDDEN',
            `the Host header names "${event.url.host}", which is not this server (a page on another site may be reaching it through DNS rebinding); ` +
              'use http://127.0.0.1 or http://localhost, or start the server with --allowed-host <name>',
          )
        }
      }
      if (SAFE_METHODS.has(event.req.method)) return
      const headers = event.req.headers
      const origin = headers.get('origin')
      if (origin !== null) {
        if (!isTrustedOrigin(origin, event)) throw _crossSite(`a page at ${origin}`)
        return
      }
      const site = headers.get('sec-fetch-site')
      if (site !== null) {
        if (site !== 'same-origin' && site !== 'none') throw _crossSite(`a ${site} page`)
        return
      }
      const referer = headers.get('referer')
      if (referer !== null) {
        const from = URL.canParse(referer) ? new URL(referer).origin : 'null'
        if (!isTrustedOrigin(from, event)) throw _crossSite(`a page at ${from}`)
      }
    },
    corsHeaders(event) {
      if (allowedOrigins.size === 0) return undefined
      const origin = event.req.headers.get('origin')
      if (origin === null || !allowedOrigins.has(origin)) return undefined
      const headers: Record<string, string> = {
        'access-control-allow-origin': origin,
        'access-control-expose-headers': CORS_EXPOSE_HEADERS,
        vary: 'Origin',
      }
      if (event.req.method === 'OPTIONS') {
        headers['access-control-allow-methods'] = 'GET, HEAD, POST, PUT, PATCH, DELETE'
        headers['access-control-allow-headers'] = CORS_ALLOW_HEADERS
        headers['access-control-max-age'] = '600'
      }
      return headers
    },
  }
}

/**
 * Refuses a body in an encoding the server does not decode (`gzip`, …):
 * reading compressed bytes as JSON would only fail later with a less clear
 * error, or store them as sent.
 */
export function assertIdentityEncoding(event: H3Event): void {
  const encoding = event.req.headers.get('content-encoding')
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity' && encoding.trim() !== '') {
    throw new ComplibError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding "${encoding}" is not supported: send the body uncompressed`, {
      headers: { 'accept-encoding': 'identity' },
    })
  }
}

/** Whether an origin names the host this request was sent to (the scheme aside: a TLS proxy in front changes it). */
function _sameHost(origin: string, event: H3Event): boolean {
  if (!URL.canParse(origin)) return false
  const url = new URL(origin)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  return _hostKey(url.host) === _hostKey(event.url.host)
}

/** `localhost:80` and `LOCALHOST` name the same host as `localhost`. */
function _hostKey(host: string): string {
  return URL.canParse(`http://${host}`) ? new URL(`http://${host}`).host : host.toLowerCase()
}

/** `[::1]:4000` → `[::1]`, `localhost:4000` → `localhost`. */
function _hostname(host: string): string {
  return URL.canParse(`http://${host}`) ? new URL(`http://${host}`).hostname : host.toLowerCase()
}

function _crossSite(who: string): ComplibError {
  return new ComplibError(
    'FORBIDDEN',
    `refused a request from ${who}: only this server's own pages may change the library ` +
      '(scripts and curl send no Origin and pass; to allow a trusted front end start the server with --allowed-origin <origin>)',
  )
}
