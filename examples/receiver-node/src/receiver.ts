import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readRunPosition } from './mirror'
import { openStore, type ApplyResult, type Store } from './store'
import { DeliveryError, verifyDelivery } from './verify'

export interface ReceiverOptions {
  /** The connector's signing secret, `whsec_…`. */
  secret: string
  /** The JSON file components are upserted into. */
  file: string
  /**
   * Mirror the library, deletions included: once every batch of a run has
   * been applied, remove the components the run did not carry (decision
   * 0912). Default `false`: upsert only.
   */
  mirror?: boolean
  /** Where pushes arrive. Default `/hooks/components`. */
  path?: string
  /** Told about every request's outcome. */
  log?: (line: string) => void
}

export interface Receiver {
  server: Server
  store: Store
  /** Starts listening; resolves with the URL to give the connector. */
  listen(port?: number, host?: string): Promise<string>
  close(): Promise<void>
}

/** A push is at most 250 components; this is far above any real one. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024

/**
 * A receiver for complib pushes on node:http: reads each POST's body as raw
 * bytes, verifies the signature over those bytes, and upserts the components
 * by id into a JSON file. A re-sent batch (same `webhook-id`) is acknowledged
 * without being applied again. With `mirror: true`, a run's last missing
 * batch also removes what the run did not carry.
 *
 * @example
 * const receiver = await createReceiver({ secret: process.env.WEBHOOK_SECRET!, file: 'components.json' })
 * console.log(await receiver.listen(8080))
 */
export async function createReceiver(options: ReceiverOptions): Promise<Receiver> {
  const path = options.path ?? '/hooks/components'
  const log = options.log ?? (() => {})
  const store = await openStore(options.file)

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== path) return _reply(res, 404, { error: `nothing at ${req.url}; pushes go to ${path}` })
    if (req.method !== 'POST') return _reply(res, 405, { error: 'POST only' }, { allow: 'POST' })
    try {
      // The raw bytes, exactly as sent: the signature covers these, not a re-serialisation.
      const raw = await _readBody(req)
      const delivery = verifyDelivery(raw, req.headers, options.secret)
      // complib-* headers are outside the signature: read only once it verified.
      const run = options.mirror ? readRunPosition(req.headers) : null
      const result = await store.apply(delivery.webhookId, delivery.entities, run ?? undefined)
      log(`${delivery.webhookId}: ${_describe(result)}`)
      _reply(res, 200, result)
    } catch (error) {
      if (!(error instanceof DeliveryError)) throw error
      log(`rejected (${error.status}): ${error.message}`)
      _reply(res, error.status, { error: error.message }, error.status === 413 ? { connection: 'close' } : {})
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`failed: ${String(error)}`)
      if (!res.headersSent) _reply(res, 500, { error: 'could not store the batch' })
    })
  })

  return {
    server,
    store,
    listen: (port = 8080, host = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        server.once('error', reject)
        server.listen(port, host, () => {
          server.off('error', reject)
          const address = server.address() as AddressInfo
          resolve(`http://${host}:${address.port}${path}`)
        })
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

function _describe(result: ApplyResult): string {
  if (result.duplicate) return 'already applied, skipped'
  if (result.mirror?.stale) return 'from a run older than the last completed one, skipped'
  return `upserted ${result.upserted}${result.mirror?.complete ? `, run complete, removed ${result.mirror.removed}` : ''}`
}

function _readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      // Past the limit the rest is read and dropped; the 413 closes the connection.
      if (size > MAX_BODY_BYTES) reject(new DeliveryError(413, `body larger than ${MAX_BODY_BYTES} bytes`))
      else chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function _reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))
}
