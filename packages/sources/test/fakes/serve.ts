import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request as a fake saw it (tests assert on what the source sent). */
export interface SeenRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: Record<string, string | string[] | undefined>
  body: string
}

export type FakeHandler = (request: SeenRequest, response: ServerResponse) => void | Promise<void>

/**
 * How a fake misbehaves for the next requests (the error matrix every
 * provider's test walks): an HTTP status with an optional body and headers,
 * a body that is not JSON, an answer that never comes, or one far longer
 * than any part.
 */
export type Fault =
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'malformed' }
  | { kind: 'hang' }
  | { kind: 'huge'; bytes: number }

export interface Fake {
  url: string
  seen: SeenRequest[]
  /** The next `times` requests (default every one) answer with the fault instead. */
  fail(fault: Fault, times?: number): void
  /** Back to honest answers. */
  heal(): void
  close(): Promise<void>
}

/** A provider's fake on a loopback port: `handler` answers in the provider's documented shapes. */
export async function startFake(handler: FakeHandler): Promise<Fake> {
  const seen: SeenRequest[] = []
  let fault: { fault: Fault; left: number } | null = null
  const hanging = new Set<ServerResponse>()
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake')
      const request: SeenRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      seen.push(request)
      if (fault && fault.left > 0) {
        fault.left--
        return _misbehave(fault.fault, res, hanging)
      }
      Promise.resolve(handler(request, res)).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`fake failed: ${String(error)}`)
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    fail(f, times = Number.POSITIVE_INFINITY) {
      fault = { fault: f, left: times }
    },
    heal() {
      fault = null
    },
    async close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Answers JSON with a status. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))
}

function _misbehave(fault: Fault, res: ServerResponse, hanging: Set<ServerResponse>): void {
  switch (fault.kind) {
    case 'status':
      res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers }).end(fault.body ?? '')
      return
    case 'malformed':
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"this is": not json')
      return
    case 'hang':
      hanging.add(res)
      return
    case 'huge': {
      // Streamed without a length, so the client learns the size only by reading.
      res.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(64 * 1024, 0x20)
      let left = fault.bytes
      const write = () => {
        while (left > 0) {
          left -= chunk.length
          if (!res.write(chunk)) return void res.once('drain', write)
        }
        res.end()
      }
      res.on('error', () => {})
      write()
      return
    }
  }
}
