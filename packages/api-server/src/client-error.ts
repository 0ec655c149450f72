import { STATUS_CODES, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { ComplibError, type ErrorCode } from '@complib/core'
import { answerProblem } from './http/node-listener'

/**
 * Answers what Node's HTTP parser refused (a malformed request line, headers
 * over 16 KiB, broken chunked framing, bytes after a request that are no
 * request) with the same RFC 9457 problem+json as every other error, instead
 * of Node's bare status line or a silent close, then closes the connection
 * (the parser cannot go on after an error):
 * - nothing in flight: a 400 (431, 408) on the socket;
 * - a request whose body was still arriving (a malformed or overflowing chunk
 *   size): its body is incomplete, so it is never applied, and it is answered
 *   with the 400 unless its answer has begun;
 * - a complete request still being answered (garbage after it): its answer
 *   goes out first, then the 400.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // The client is gone: nothing to say.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const problem = _problemOf(error)
  const res = (socket as { _httpMessage?: ServerResponse | null })._httpMessage
  if (res && !res.writableEnded) {
    if (!res.req.complete) answerProblem(res, problem)
    else res.once('finish', () => _endWith(socket, problem))
    return
  }
  _endWith(socket, problem)
}

function _endWith(socket: Duplex, problem: ComplibError): void {
  if (!socket.writable) return
  const body = JSON.stringify(problem.toProblem())
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
      `content-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  )
}

function _problemOf(error: NodeJS.ErrnoException): ComplibError {
  const code: ErrorCode = error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'REQUEST_TIMEOUT' : 'BAD_REQUEST'
  const detail =
    code === 'HEADERS_TOO_LARGE'
      ? 'the request line and headers are larger than 16 KiB (a query string that long belongs in a POST body)'
      : code === 'REQUEST_TIMEOUT'
        ? 'the request headers did not arrive in time'
        : /CHUNK/.test(error.code ?? '')
          ? 'the chunked body is malformed (a chunk size or chunk ending is wrong); nothing of this request was applied'
          : 'the request is not valid HTTP/1.1'
  return new ComplibError(code, detail)
}
