import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '@complib/api-server'

// Test support shared by the examples' tests (not by the examples themselves,
// which each stand alone): a real complib server on a temporary data folder.

/** A real complib server on a temporary data folder, spoken to over HTTP. */
export interface Complib {
  url: string
  /** Sends JSON with the API key, expects a 2xx, returns the parsed body. */
  call<T = any>(method: string, path: string, body?: unknown): Promise<T>
  close(): Promise<void>
}

export async function startComplib(options: { apiKey?: string } = {}): Promise<Complib> {
  const dataDir = await mkdtemp(join(tmpdir(), 'complib-example-'))
  const server = await startServer({ port: 0, dataDir, apiKey: options.apiKey, log: () => {} })
  return {
    url: server.url,
    async call(method, path, body) {
      const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}
      if (body !== undefined) headers['content-type'] = 'application/json'
      const res = await fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
      const text = await res.text()
      if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text}`)
      return text ? JSON.parse(text) : undefined
    },
    async close() {
      await server.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * An API token as a person gets one: an account made with the API key, a
 * sign-in (its session cookie kept by hand), then `POST /api/tokens` in that
 * session. Needs a server started with an API key.
 */
export async function createToken(complib: Complib, options: { username: string; role: 'viewer' | 'editor' | 'admin'; scope: 'read' | 'write' | 'admin' }): Promise<string> {
  const password = `${options.username} has a long passphrase`
  await complib.call('POST', '/api/users', { username: options.username, password, role: options.role })
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(complib.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  const login = await post('/api/auth/login', { username: options.username, password })
  const cookie = login.headers.getSetCookie()[0]?.split(';')[0]
  if (!login.ok || !cookie) throw new Error(`sign-in as ${options.username} → ${login.status}: ${await login.text()}`)
  const made = await post('/api/tokens', { name: 'example test', scope: options.scope }, { cookie })
  if (!made.ok) throw new Error(`POST /api/tokens → ${made.status}: ${await made.text()}`)
  return ((await made.json()) as { token: string }).token
}

/** Creates `count` components in one request, some with non-ASCII names; returns their ids. */
export async function seedComponents(complib: Complib, count: number): Promise<string[]> {
  const items = Array.from({ length: count }, (_, i) => ({
    name: i % 7 === 0 ? `Condensateur ${i} 10µF — ✓ “X7R”` : `R ${i} 0603`,
    description: i % 3 === 0 ? null : `part ${i}`,
    tags: i % 2 ? ['smd'] : [],
    parameters: [{ type: 'Resistance', value: `${i}k`, unit: 'Ω' }],
  }))
  await complib.call('POST', '/api/bulk/components', { items })
  return (await liveComponents(complib)).map((c) => c.id)
}

/** Every non-deleted component, as the API lists it. */
export async function liveComponents(complib: Complib): Promise<Array<{ id: string } & Record<string, unknown>>> {
  return complib.call('GET', '/api/components?limit=100000')
}

/** Starts a push and polls its run until it finishes. */
export async function pushAndWait(complib: Complib, connectorId: string, timeoutMs = 25_000): Promise<any> {
  const run = await complib.call('POST', `/api/connectors/${connectorId}/push`)
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const detail = await complib.call('GET', `/api/connector-runs/${run.id}`)
    if (!['queued', 'running'].includes(detail.status)) return detail
    if (Date.now() > deadline) throw new Error(`run ${run.id} still ${detail.status} after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** Every component, deleted ones included, by id: to compare before and after. */
export async function allComponents(complib: Complib): Promise<Record<string, { id: string; name: string; description: string | null; version: number } & Record<string, unknown>>> {
  const list: Array<{ id: string; name: string; description: string | null; version: number }> = await complib.call('GET', '/api/components?limit=100000&includeDeleted=true')
  return Object.fromEntries(list.map((c) => [c.id, c]))
}

/** Runs the Python unit tests of an example folder (`python3 -m unittest`); returns the exit status, the tests run and the report. */
export function runPythonUnittests(folder: string): { status: number | null; ran: number; report: string } {
  const result = spawnSync('python3', ['-m', 'unittest', '-v'], {
    cwd: folder,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  })
  const report = `${result.stdout}${result.stderr}`
  // A discovery that found nothing also exits 0: the caller checks how many ran.
  return { status: result.status, ran: Number(/Ran (\d+) tests?/.exec(report)?.[1] ?? 0), report }
}

/** A delivery as the relay saw it: the headers and the exact bytes. */
export interface RelayedDelivery {
  headers: Record<string, string>
  body: Buffer
}

/** A relay between complib and a receiver (see `startRelay`). */
export interface Relay {
  /** The URL to give the connector. */
  url: string
  /** Every delivery that reached the relay, in arrival order. */
  deliveries: RelayedDelivery[]
  /** From now on, deliveries matching `test` are answered 200 and kept instead of forwarded; `null` forwards all again. */
  hold(test: ((delivery: RelayedDelivery) => boolean) | null): void
  /** The deliveries held so far (and not yet released). */
  held(): RelayedDelivery[]
  /** Sends a delivery on to the receiver, unchanged (headers, signature, bytes); returns its answer. */
  forward(delivery: RelayedDelivery): Promise<{ status: number; body: any }>
  close(): Promise<void>
}

/**
 * An HTTP relay in front of a receiver: forwards each POST unchanged, or holds
 * it (answering 200 as a queue would) to send later. For tests of what a
 * receiver does when a batch never comes, or comes after a newer push.
 */
export async function startRelay(target: string): Promise<Relay> {
  const deliveries: RelayedDelivery[] = []
  let holding: ((delivery: RelayedDelivery) => boolean) | null = null
  let held: RelayedDelivery[] = []
  const forward = async (delivery: RelayedDelivery) => {
    const res = await fetch(target, { method: 'POST', headers: delivery.headers, body: delivery.body })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined }
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name)) headers[name] = value
      }
      const delivery = { headers, body: Buffer.concat(chunks) }
      deliveries.push(delivery)
      if (holding?.(delivery)) {
        held.push(delivery)
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"held":true}')
        return
      }
      forward(delivery).then(
        (answer) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body ?? null)),
        () => res.writeHead(502).end(),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks/components`,
    deliveries,
    hold: (test) => {
      holding = test
    },
    held: () => held,
    forward: async (delivery) => {
      held = held.filter((d) => d !== delivery)
      return forward(delivery)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
