import { STATUS_CODES, ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http'
import type { Socket } from 'node:net'
import { ComplibError, toComplibError, type ErrorCode } from '@complib/core'

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown

export interface RequestListenerOptions {
  /** Where a last-resort failure is reported (once per distinct cause). */
  log: (message: string, cause?: unknown) => void
}

/**
 * Wraps the app's Node handler so that nothing a client sends can stop the
 * process (issue: a Host of `1.2.3.4.5` or a target of `/api/he<alth` threw
 * while the request was being built, before any route ran, and the uncaught
 * error ended the server).
 *
 * Before the app sees a request: a second `Host` header is a 400; a Host or
 * request target that does not parse as a URL is a 400; an absolute-form
 * target (`GET http://host/path`) is reduced to its path, its host taking the
 * place of `Host`; an origin-form target is rewritten in the form a URL
 * parser gives it (`<` → `%3C`), so every later parse agrees. Anything the
 * handler still throws is answered (400 before the request was formed, 500
 * after) and logged once, and the server keeps serving.
 */
export function createRequestListener(handler: NodeHandler, options: RequestListenerOptions): NodeHandler {
  const logOnce = createLogOnce(options.log)
  const knownHosts = new Set<string>()
  return (req, res) => {
    const refusal = _normalise(req, knownHosts)
    if (refusal) {
      answerProblem(res, new ComplibError(refusal[0], refusal[1]))
      return
    }
    let pending: unknown
    try {
      pending = handler(req, res)
    } catch (error) {
      logOnce('[http] a request could not be formed', error)
      answerProblem(res, new ComplibError('BAD_REQUEST', 'the request could not be read (malformed request line or headers)'))
      return
    }
    if (pending && typeof (pending as Promise<unknown>).then === 'function') {
      ;(pending as Promise<unknown>).then(undefined, (error: unknown) => {
        logOnce('[http] a request failed outside its route', error)
        answerProblem(res, toComplibError(error))
      })
    }
  }
}

/**
 * Node's response with the reason phrase every status line should carry:
 * answers built from a web `Response` have an empty `statusText`, which Node
 * would send as `HTTP/1.1 404 ` with no phrase. Given to `createServer`.
 */
export class ComplibServerResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  override writeHead(statusCode: number, reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[], headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this {
    // An answer before the whole body arrived (a 413, or a 401 to an upload): Node would keep the
    // connection and read the rest of the body to its end, however long. Unless the body is declared
    // small, the connection closes instead, lingering.
    if (!this.headersSent && this.req && !this.req.complete && this.socket && !_smallBody(this.req)) {
      this.shouldKeepAlive = false
      lingerOnClose(this.socket)
      // Read and dropped while the answer goes out (a route that refused without reading it
      // leaves it paused, and the client, blocked on writing it, would not see the close).
      this.req.resume()
    }
    if (reason === '' || reason === undefined) return super.writeHead(statusCode, STATUS_CODES[statusCode] ?? 'Unknown', headers)
    return typeof reason === 'string' ? super.writeHead(statusCode, reason, headers) : super.writeHead(statusCode, STATUS_CODES[statusCode] ?? 'Unknown', reason)
  }
}

/** How long a connection closed with a request body still arriving goes on reading (and dropping) it. */
const LINGER_MS = 2000
/** How much of such a body it drops before it stops waiting for the client. */
const LINGER_BYTES = 16 * 1024 * 1024
/** How often a lingering connection checks both. */
const LINGER_CHECK_MS = 50

/**
 * A body Node may as well read to its end to keep the connection: none (no
 * Content-Length nor Transfer-Encoding: a GET), or one declared at most 64 KiB.
 */
function _smallBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return false
  const length = req.headers['content-length']
  if (length === undefined) return true
  const declared = Number(length)
  return Number.isFinite(declared) && declared <= 64 * 1024
}

/**
 * Makes the close Node does after a `Connection: close` answer a lingering
 * close: the answer and a FIN go out, then what the client still sends is
 * read and dropped until it closes its side, for `LINGER_MS` or
 * `LINGER_BYTES` at most. Closing at once, with the client's bytes unread,
 * makes the kernel send a reset, and a client still writing its body loses
 * the answer from its receive buffer before it reads it (an empty reply
 * instead of the 413). Node calls `destroySoon` on such a socket once the
 * answer is written.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.destroyed) return
    this.end()
    // Counted by `bytesRead`, not a 'data' listener: one would take the socket from Node's
    // HTTP parser, which reads it (and drops the body) meanwhile.
    const from = this.bytesRead
    const started = Date.now()
    const check = setInterval(() => {
      if (Date.now() - started >= LINGER_MS || this.bytesRead - from > LINGER_BYTES) this.destroy()
    }, LINGER_CHECK_MS).unref()
    this.once('close', () => clearInterval(check))
  }
}

/**
 * Writes a problem+json answer if nothing has been written yet, and closes
 * the connection (after a framing error the rest of the stream cannot be
 * trusted); with the head already out, it can only cut the connection.
 */
export function answerProblem(res: ServerResponse, problem: ComplibError): void {
  if (res.writableEnded || res.destroyed) return
  if (res.headersSent) {
    res.destroy()
    return
  }
  const body = JSON.stringify(problem.toProblem())
  res.shouldKeepAlive = false
  res.writeHead(problem.status, STATUS_CODES[problem.status], {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  })
  res.end(body)
}

/**
 * A logger that reports each distinct cause once (by message and first stack
 * frame), so a client repeating a request that trips a bug cannot flood the
 * log. Remembers a bounded number of causes.
 */
export function createLogOnce(log: (message: string, cause?: unknown) => void, limit = 256): (message: string, cause: unknown) => void {
  const seen = new Set<string>()
  return (message, cause) => {
    const key = `${message} ${cause instanceof Error ? `${cause.message} ${cause.stack?.split('\n')[1] ?? ''}` : String(cause)}`
    if (seen.has(key)) return
    if (seen.size >= limit) seen.clear()
    seen.add(key)
    log(`${message} (logged once; the server goes on serving)`, cause)
  }
}

/** A request target of only these characters needs no rewriting. */
const PLAIN_TARGET = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*$/
/** Hosts seen valid are remembered up to this many (they repeat: one per name the server is reached by). */
const KNOWN_HOSTS_LIMIT = 64

/** Checks and rewrites the request line and Host in place; returns a refusal, or undefined. */
function _normalise(req: IncomingMessage, knownHosts: Set<string>): [ErrorCode, string] | undefined {
  const raw = req.rawHeaders
  let hosts = 0
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') hosts++
  if (hosts > 1) return ['BAD_REQUEST', 'the request has more than one Host header']

  let host = req.headers.host ?? ''
  const target = req.url ?? ''
  if (target.startsWith('/')) {
    if (!knownHosts.has(host)) {
      if (host === '' || !URL.canParse(`http://${host}/`)) return ['BAD_REQUEST', `the Host header "${_shown(host)}" is not a valid host name`]
      if (knownHosts.size >= KNOWN_HOSTS_LIMIT) knownHosts.clear()
      knownHosts.add(host)
    }
    if (PLAIN_TARGET.test(target)) return undefined
    const url = URL.parse(target, `http://${host}`)
    if (!url) return ['BAD_REQUEST', 'the request target is not a valid path']
    req.url = url.pathname + url.search
    return undefined
  }
  if (target === '*') return ['BAD_REQUEST', 'the request target "*" is not served; name a path']
  // Absolute form (RFC 9112 §3.2.2): its authority replaces Host.
  const url = URL.parse(target)
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.host) return ['BAD_REQUEST', 'the request target is not a valid path or http URL']
  host = url.host
  req.headers.host = host
  req.url = url.pathname + url.search
  return undefined
}

function _shown(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text
}
