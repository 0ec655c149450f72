import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  headers: IncomingMessage['headers']
  raw: Buffer
  at: number
}

/**
 * A real HTTP receiver on loopback for tests: records every request with its
 * raw body, answers with `respond` (status, optional delay and headers), and
 * tracks the most requests it ever had in flight.
 */
export async function startReceiver(respond: (req: Received, index: number) => { status: number; delayMs?: number; headers?: Record<string, string> } = () => ({ status: 202 })) {
  const received: Received[] = []
  let inFlight = 0
  let maxInFlight = 0
  const server: Server = createServer((req, res) => {
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const entry: Received = { headers: req.headers, raw: Buffer.concat(chunks), at: performance.now() }
      const index = received.push(entry) - 1
      const answer = respond(entry, index)
      setTimeout(() => {
        inFlight--
        res.writeHead(answer.status, answer.headers).end()
      }, answer.delayMs ?? 0)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks/components`,
    received,
    maxInFlight: () => maxInFlight,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}
