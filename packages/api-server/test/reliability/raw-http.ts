import { Agent, request } from 'node:http'

export interface RawRequest {
  method: string
  /** Sent as written: no normalisation of `..`, no re-encoding (fetch would do both). */
  path: string
  headers?: Record<string, string> | undefined
  body?: string | Uint8Array | undefined
  /** Claim this Content-Length but send only `body` (the server must refuse by the header alone). */
  declaredLength?: number | undefined
}

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  contentType: string
  text: string
  bytes: Buffer
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 })

/**
 * One HTTP request with node:http, byte for byte as given. A request whose
 * declared length is not sent in full gets its own connection, closed once
 * the answer is in.
 */
export function sendRaw(base: string, req: RawRequest, timeoutMs = 30_000): Promise<RawResponse> {
  const url = new URL(base)
  const headers: Record<string, string> = { ...req.headers }
  const body = typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : req.body ? Buffer.from(req.body) : undefined
  if (req.declaredLength !== undefined) headers['content-length'] = String(req.declaredLength)
  else if (body && !Object.keys(headers).some((h) => h.toLowerCase() === 'transfer-encoding')) headers['content-length'] = String(body.byteLength)
  const partial = req.declaredLength !== undefined
  return new Promise((resolve, reject) => {
    const r = request(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent: partial ? false : agent },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('error', reject)
        res.on('end', () => {
          const bytes = Buffer.concat(chunks)
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            contentType: String(res.headers['content-type'] ?? ''),
            text: bytes.toString('utf8'),
            bytes,
          })
          if (partial) r.destroy()
        })
      },
    )
    r.setTimeout(timeoutMs, () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    // The server may answer (413) and close before it has read everything we write.
    let answered = false
    r.on('response', () => (answered = true))
    r.on('error', (error: NodeJS.ErrnoException) => {
      if (answered && (error.code === 'EPIPE' || error.code === 'ECONNRESET')) return
      reject(error)
    })
    if (partial) r.write(body ?? Buffer.alloc(0))
    else r.end(body)
  })
}

/** Closes the kept-alive connections (end of a test file). */
export function closeRawAgent(): void {
  agent.destroy()
}
