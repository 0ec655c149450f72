import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  headers: IncomingMessage['headers']
  raw: Buffer
  at: number
}

/** How the receiver answers one request. */
export interface Answer {
  status: number
  /** Wait this long before answering (for `slow-body`: spread the body over this long). */
  delayMs?: number | undefined
  headers?: Record<string, string> | undefined
  /**
   * A misbehaving receiver: `reset` destroys the connection instead of answering,
   * `never` keeps it open without a word, `slow-body` sends the status and
   * headers at once and then trickles a body, a byte every 50 ms, for `delayMs`.
   */
  fault?: 'reset' | 'never' | 'slow-body' | undefined
}

/**
 * A real HTTP receiver on loopback for tests: records every request with its
 * raw body, answers with `respond`, and tracks the most requests it ever had
 * in flight. `close()` also cuts connections it left hanging.
 */
export async function startReceiver(respond: (req: Received, index: number) => Answer = () => ({ status: 202 })) {
  const received: Received[] = []
  let inFlight = 0
  let maxInFlight = 0
  const timers = new Set<NodeJS.Timeout>()
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t)
      fn()
    }, ms)
    timers.add(t)
  }
  const server: Server = createServer((req, res) => {
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const entry: Received = { headers: req.headers, raw: Buffer.concat(chunks), at: performance.now() }
      const index = received.push(entry) - 1
      const answer = respond(entry, index)
      const done = () => inFlight--
      if (answer.fault === 'never') return void res.on('close', done)
      if (answer.fault === 'reset') {
        done()
        return void req.socket.destroy()
      }
      if (answer.fault === 'slow-body') {
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers })
        const until = performance.now() + (answer.delayMs ?? 0)
        const drip = () => {
          if (res.destroyed) return done()
          if (performance.now() >= until) return void res.end('.', done)
          res.write('.')
          later(50, drip)
        }
        return drip()
      }
      later(answer.delayMs ?? 0, () => {
        done()
        if (!res.destroyed) res.writeHead(answer.status, answer.headers).end()
      })
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks/components`,
    received,
    maxInFlight: () => maxInFlight,
    inFlight: () => inFlight,
    close: () =>
      new Promise<void>((r) => {
        for (const t of timers) clearTimeout(t)
        server.close(() => r())
        server.closeAllConnections()
      }),
  }
}
