import { connect } from 'node:net'

export interface TcpExchange {
  /** Everything the server wrote before it closed the connection (or the timeout). */
  text: string
  /** Status codes of every answer in `text`, in order. */
  statuses: number[]
  /** Whether the server closed the connection (rather than the timeout ending the exchange). */
  closed: boolean
}

/**
 * Writes bytes to the server on a fresh connection, exactly as given (no
 * HTTP client in the way), and collects what comes back until the server
 * closes or `timeoutMs` passes. `pauseMs` waits between the chunks given.
 */
export function exchange(base: string, chunks: string | Buffer | Array<string | Buffer>, options: { timeoutMs?: number; pauseMs?: number } = {}): Promise<TcpExchange> {
  const { hostname, port } = new URL(base)
  const parts = Array.isArray(chunks) ? chunks : [chunks]
  const timeoutMs = options.timeoutMs ?? 3000
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    const received: Buffer[] = []
    let done = false
    const finish = (closed: boolean) => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      const text = Buffer.concat(received).toString('latin1')
      resolve({ text, statuses: [...text.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1])), closed })
    }
    const timer = setTimeout(() => finish(false), timeoutMs)
    socket.on('data', (d: Buffer) => received.push(d))
    socket.on('close', () => finish(true))
    socket.on('error', () => finish(true))
    socket.on('connect', async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0 && options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs))
        if (socket.destroyed) return
        socket.write(part)
      }
    })
  })
}
