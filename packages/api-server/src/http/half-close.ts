import type { Server } from 'node:http'

/**
 * Lets a client that closed its sending side after its request (a raw socket's
 * `end()`, some curl options) still read the answer (decision 1015). By
 * default Node's HTTP server takes that FIN for a client gone: it aborts the
 * requests in flight and ends the connection at once, so the answer is never
 * written although the request was applied. With `httpAllowHalfOpen` (the
 * server's own switch, read when a connection's receiving side ends) the
 * answers in flight are written and the last one closes the connection. A
 * request cut off mid-body is still refused: the parser reports the early end
 * as an error, which `answerClientError` turns into a 400, and nothing of it
 * is applied.
 */
export function answerHalfClosedClients(server: Server): void {
  ;(server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true
}
