import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { ComplibError, type ErrorCode } from '@complib/core'

/**
 * Answers a request Node's HTTP parser refused before any route ran (headers
 * over 16 KiB, a malformed request line, a header timeout) with the same
 * RFC 9457 problem+json as every other error, instead of Node's bare status
 * line, then closes the connection (the parser cannot go on after an error).
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // The client is gone, or it already has an answer being written: nothing to say.
  if (error.code === 'ECONNRESET' || !socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
    socket.destroy()
    return
  }
  const code: ErrorCode = error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'REQUEST_TIMEOUT' : 'BAD_REQUEST'
  const detail =
    code === 'HEADERS_TOO_LARGE'
      ? 'the request line and headers are larger than 16 KiB (a query string that long belongs in a POST body)'
      : code === 'REQUEST_TIMEOUT'
        ? 'the request headers did not arrive in time'
        : 'the request is not valid HTTP/1.1'
  const problem = new ComplibError(code, detail)
  const body = JSON.stringify(problem.toProblem())
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
      `content-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  )
}
