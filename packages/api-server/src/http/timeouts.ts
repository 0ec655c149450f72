import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { ComplibError } from '@complib/core'
import { answerProblem } from './node-listener'

/** How long a client has to send its request line and headers, and how fast its body must come (decision 1016). */
export interface HttpTimeouts {
  /** Request line and headers (at most 16 KiB) must be in within this. */
  headersMs: number
  /** A body may arrive this long before it has to keep up with `bodyMinBytesPerSecond`. */
  bodyGraceMs: number
  /** The slowest average rate a body may arrive at once its grace is used up. */
  bodyMinBytesPerSecond: number
}

/**
 * 30 s for headers: a client sends them at once, and 16 KiB fits in that even at
 * 1 KB/s. A body gets 10 s, then must average 8,000 bytes a second (64 kbit/s):
 * the largest import (64 MiB) still goes through on a link that slow (in about
 * 8,400 s), while a trickle of a few bytes a second is answered 408 after about 10 s.
 */
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 30_000, bodyGraceMs: 10_000, bodyMinBytesPerSecond: 8000 }

/**
 * Options for `createServer`: Node's headers timeout, checked every tenth of it
 * (Node's default period, 30 s, would let a 30 s timeout run to 60 s), and its
 * whole-request timeout turned off: a fixed one long enough for a 64 MiB import
 * on a slow link (Node's 300 s default is not) would let a trickled body hold
 * its connection just as long. The body's pace is kept by `guardBodyRate` on
 * each request instead.
 */
export function httpTimeoutOptions(timeouts: HttpTimeouts): { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number } {
  _assertTimeouts(timeouts)
  return { headersTimeout: timeouts.headersMs, requestTimeout: 0, connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeouts.headersMs / 10))) }
}

/**
 * Answers 408, closing the connection, when a request's body arrives more
 * slowly than `bodyMinBytesPerSecond` on average after `bodyGraceMs` (the
 * deadline moves `1 / rate` seconds on with every byte). Only time while the
 * body is being read counts: a route that has not started reading it, or that
 * pauses it, holds the client back itself. Bytes that came in with the head
 * earn nothing (they were read before the request was timed): a stricter count,
 * by at most one read's worth. Nothing of the request is applied: its body
 * never arrives whole.
 */
export function guardBodyRate(req: IncomingMessage, res: ServerResponse, timeouts: HttpTimeouts): void {
  if (req.complete || !_hasBody(req) || !req.socket) return
  const socket = req.socket
  const from = socket.bytesRead
  const checkMs = Math.max(10, Math.min(1000, Math.floor(timeouts.bodyGraceMs / 4)))
  let readingMs = 0
  let last = Date.now()
  const check = setInterval(() => {
    const now = Date.now()
    // A late tick counts as one: while the event loop was busy nothing was read, and libuv runs
    // timers before the I/O that piled up meanwhile, so `bytesRead` would lag the client unfairly.
    if (req.readableFlowing) readingMs += Math.min(now - last, checkMs)
    last = now
    if (req.complete || res.writableEnded || socket.destroyed) return stop()
    const received = socket.bytesRead - from
    if (readingMs <= timeouts.bodyGraceMs + (received / timeouts.bodyMinBytesPerSecond) * 1000) return
    stop()
    answerProblem(
      res,
      new ComplibError(
        'REQUEST_TIMEOUT',
        `the body arrived more slowly than ${timeouts.bodyMinBytesPerSecond} bytes a second (after ${timeouts.bodyGraceMs / 1000} s); nothing of this request was applied`,
      ),
    )
  }, checkMs).unref()
  const stop = () => {
    clearInterval(check)
    req.off('end', stop)
    res.off('close', stop)
  }
  req.once('end', stop)
  res.once('close', stop)
}

/** Whether a body is to come: declared by Content-Length above 0 or by Transfer-Encoding. */
function _hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true
  const length = Number(req.headers['content-length'] ?? 0)
  return !Number.isFinite(length) || length > 0
}

function _assertTimeouts(t: HttpTimeouts): void {
  for (const [name, value] of Object.entries(t)) {
    if (!Number.isFinite(value) || value <= 0) throw new Error(`timeouts.${name} must be a number above 0, not ${value}`)
  }
}
