import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteStorage } from '@complib/core/sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../cli-process'
import { bodyLimits, walkGets } from './fuzz-run'
import { readOperations, type Operation } from './openapi-requests'
import { libraryContent } from './library-content'
import { closeRawAgent, sendRaw, type RawResponse } from './raw-http'
import { makeSecret, seedLibrary, startSink, type Seeded } from './seed'
import { startServe, type ServeProcess } from './server-process'

// Access. One real server listens off loopback (0.0.0.0) with an API
// key given through the environment; the tests reach it through 127.0.0.1.
const KEY = `key-${makeSecret(24).slice(6)}`
const AUTH = { authorization: `Bearer ${KEY}` }

let server: ServeProcess
let base: string
let sink: Awaited<ReturnType<typeof startSink>>
let failing: Server
let failingUrl: string
let seeded: Seeded
let ops: Operation[]

beforeAll(async () => {
  sink = await startSink()
  failing = createServer((req, res) => req.resume().on('end', () => res.writeHead(500).end('receiver is down')))
  await new Promise<void>((r) => failing.listen(0, '127.0.0.1', r))
  failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/hooks`
  server = await startServe({ args: ['--host', '0.0.0.0'], env: { COMPLIB_API_KEY: KEY } })
  base = server.url.replace('0.0.0.0', '127.0.0.1')
  seeded = await seedLibrary(base, sink.url, AUTH)
  const doc = JSON.parse((await sendRaw(base, { method: 'GET', path: '/api/docs', headers: AUTH })).text)
  ops = readOperations(doc, bodyLimits())
}, 60_000)

afterAll(async () => {
  closeRawAgent()
  await server?.stop()
  await sink?.close()
  await new Promise<void>((r) => (failing ? failing.close(() => r()) : r()))
})

describe('access', () => {
  it('off loopback without a key or an account, starts and asks every route but health and sign-in for a credential', async () => {
    for (const [args, env] of [
      [['--host', '0.0.0.0'], {}],
      [[], { COMPLIB_HOST: '0.0.0.0' }],
    ] as const) {
      const data = mkdtempSync(join(tmpdir(), 'complib-open-'))
      const { child, done } = runCli(['serve', '--port', '0', '--data', data, ...args], { ...env, COMPLIB_API_KEY: '' }, /listening on http:\/\/\S+:(\d+)/)
      try {
        const { match, out, err } = await done
        expect(match, `${args.join(' ')} ${JSON.stringify(env)}: ${out}${err}`).toBeTruthy()
        const url = `http://127.0.0.1:${match![1]}`
        expect((await fetch(`${url}/api/health`)).status).toBe(200)
        for (const path of ['/api/components', '/api/auth/me', '/api/no-such-thing']) expect((await fetch(`${url}${path}`)).status, path).toBe(401)
      } finally {
        await new Promise((r) => (child.once('exit', r), child.kill('SIGTERM')))
        rmSync(data, { recursive: true, force: true })
      }
    }
  })

  it('answers 401 problem+json on every operation for a missing, wrong or near-miss key, and changes nothing', async () => {
    const before = await _backup()
    const wrong: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: `Bearer ${KEY}x` },
      { authorization: `Bearer ${KEY.slice(0, -1)}` },
      { authorization: `Basic ${Buffer.from(`user:${KEY}`).toString('base64')}` },
      { authorization: KEY },
      { authorization: 'Bearer' },
      { 'x-api-key': KEY },
    ]
    let sent = 0
    // Health and the sign-in answer anyone (a wrong credential does not stop a sign-in).
    for (const op of ops.filter((o) => o.permission !== 'public')) {
      const path = op.template.replace(/\{(\w+)\}/g, (_, name) => _existing(op, name))
      for (const headers of wrong) {
        const withQueryKey = sent % 5 === 0 ? `${path}${path.includes('?') ? '&' : '?'}api_key=${KEY}` : path
        const res = await sendRaw(base, { method: op.method, path: withQueryKey, headers: { ...headers, 'content-type': 'application/json' }, body: op.method === 'GET' ? undefined : '{"name":"x"}' })
        sent++
        _expectProblem(res, 401, `${op.method} ${path} with ${JSON.stringify(headers)}`)
        expect(res.headers['www-authenticate']).toBe('Bearer realm="complib"')
      }
    }
    // An unknown route says 401 too: without the key, nothing about the API is revealed.
    _expectProblem(await sendRaw(base, { method: 'GET', path: '/api/no-such-thing' }), 401, 'unknown route')
    expect(await _backup()).toEqual(before)
    // The right key, in either scheme KiCad or scripts use, gets through.
    for (const authorization of [`Bearer ${KEY}`, `bearer ${KEY}`, `Token ${KEY}`]) {
      expect((await sendRaw(base, { method: 'GET', path: '/api/stats', headers: { authorization } })).status).toBe(200)
    }
    console.log(`access: ${sent} requests without a valid key over ${ops.length - 2} operations (${wrong.length} key variants each): all 401 problem+json`)
  })

  it('refuses bodies over each route’s limit with 413 problem+json, by Content-Length and by counting a streamed body', { timeout: 120_000 }, async () => {
    const bodyOps = ops.filter((o) => o.body || o.raw)
    let streamedBytes = 0
    for (const op of bodyOps) {
      const path = op.template.replace(/\{(\w+)\}/g, (_, name) => _wellFormedMissing(op, name)) + (op.operationId === 'uploadAttachment' ? '?name=big.bin' : '')
      const type = op.operationId === 'uploadAttachment' ? 'application/octet-stream' : op.operationId === 'createImport' ? 'text/csv' : 'application/json'
      // Declared too large: refused from the header, before a byte is read.
      const declared = await sendRaw(base, { method: op.method, path, headers: { ...AUTH, 'content-type': type }, declaredLength: op.bodyLimit + 1, body: '{' })
      _expectProblem(declared, 413, `${op.operationId} declared ${op.bodyLimit + 1} bytes`)
      // Streamed without a length: refused once the count passes the limit.
      const body = Buffer.alloc(op.bodyLimit + 1, 0x20)
      body[0] = 0x7b
      const streamed = await sendRaw(base, { method: op.method, path, headers: { ...AUTH, 'content-type': type, 'transfer-encoding': 'chunked' }, body })
      streamedBytes += body.byteLength
      _expectProblem(streamed, 413, `${op.operationId} streamed ${body.byteLength} bytes`)
      expect(JSON.parse(streamed.text).detail).toBe(`the body is larger than ${op.bodyLimit} bytes`)
    }
    // At the limit exactly, the body is read (and judged on its content, not its size).
    const atLimit = Buffer.alloc(bodyOps.find((o) => o.operationId === 'createComponent')!.bodyLimit, 0x20)
    atLimit.write('{"name":"x"}')
    expect((await sendRaw(base, { method: 'POST', path: '/api/components', headers: { ...AUTH, 'content-type': 'application/json' }, body: atLimit })).status).toBe(201)
    const limits = [...new Set(bodyOps.map((o) => o.bodyLimit))].sort((a, b) => a - b).map((b) => `${b / 1048576} MiB`)
    console.log(`access: 413 on all ${bodyOps.length} operations that take a body (limits ${limits.join(', ')}); ${(streamedBytes / 1048576).toFixed(0)} MiB streamed`)
  })

  it('answers 413 to a body that never ends, then closes the connection rather than read it to its end; the client gets the answer', { timeout: 60_000 }, async () => {
    // Twenty times: closing with the client's bytes unread made the kernel reset the connection, and
    // about one client in eight lost the 413 it had not read yet (an empty reply).
    for (let i = 0; i < 20; i++) {
      const { answer, sent } = await _sendEndlessBody(`PATCH /api/components/${seeded.ids.cmp![0]}`, AUTH.authorization)
      expect(answer, `attempt ${i + 1}`).toMatch(/^HTTP\/1\.1 413 /)
      expect(sent).toBeLessThan(200 * 1048576)
    }
  })

  it('answers 401 to an endless body without the key, and closes rather than read the body it refused', { timeout: 60_000 }, async () => {
    const { answer, sent } = await _sendEndlessBody('POST /api/components', undefined)
    expect(answer).toMatch(/^HTTP\/1\.1 401 /)
    expect(sent).toBeLessThan(200 * 1048576)
  })

  it('keeps the connection after a refusal of a request without a body or with a small one (only a big or chunked body closes it)', async () => {
    const { host, hostname, port } = new URL(base)
    for (const request of [`GET /api/components HTTP/1.1\r\nHost: ${host}\r\n\r\n`, `POST /api/components HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{"name":"R1"}`]) {
      const socket = connect(Number(port), hostname)
      const head = await new Promise<string>((resolve, reject) => {
        let got = ''
        socket.on('data', (d: Buffer) => {
          got += d.toString('latin1')
          if (got.includes('\r\n\r\n')) resolve(got)
        })
        socket.on('error', reject)
        socket.write(request)
      })
      socket.destroy()
      expect(head).toMatch(/^HTTP\/1\.1 401 /)
      expect(head.toLowerCase()).toContain('connection: keep-alive')
    }
  })

  it('never shows a connector signing secret, nor the API key, in any response or in the server log, through pushes that succeed and fail', { timeout: 120_000 }, async () => {
    const responses: Array<{ what: string; bytes: Buffer }> = []
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await sendRaw(base, { method, path, headers: { ...AUTH, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
      responses.push({ what: `${method} ${path} → ${res.status}`, bytes: res.bytes })
      return res.text ? JSON.parse(res.text) : undefined
    }
    const [chosen, generated, rotated] = seeded.ids.con!
    const mine = makeSecret(40)
    const created = await call('POST', '/api/connectors', { name: 'Mine', config: { url: sink.url, requestsPerSecond: 1000 }, secret: mine })
    await call('POST', `/api/connectors/${created.id}/secret/rotate`, { graceSeconds: 600 })
    await call('POST', `/api/connectors/${created.id}/secret/rotate`, { secret: makeSecret(30), graceSeconds: 'soon' }) // 400: must not echo it
    await call('POST', '/api/connectors', { name: '', config: { url: sink.url }, secret: makeSecret(33) }) // 400 likewise
    await call('PATCH', `/api/connectors/${chosen}`, { config: { url: `http://127.0.0.1:${await _closedPort()}/hooks`, requestsPerSecond: 1000 } })
    await call('PATCH', `/api/connectors/${generated}`, { config: { url: failingUrl, requestsPerSecond: 1000 } })
    await call('PUT', `/api/connectors/${rotated}/code`, {
      code: 'async function push(entities, config, helpers) { helpers.log("config", JSON.stringify(config), Object.keys(helpers).join()); throw new Error("refused: " + JSON.stringify(config)) }',
    })
    await call('POST', `/api/connectors/${created.id}/test`)
    const runs = [created, { id: chosen }, { id: generated }, { id: rotated }].map((c) => c.id)
    const started: string[] = []
    for (const id of runs) started.push((await call('POST', `/api/connectors/${id}/push`)).id)
    for (const runId of started) {
      for (let i = 0; i < 300; i++) {
        const run = await call('GET', `/api/connector-runs/${runId}`)
        if (run.status !== 'queued' && run.status !== 'running') break
        await new Promise((r) => setTimeout(r, 100))
      }
    }
    const statuses = await Promise.all(started.map(async (id) => (await call('GET', `/api/connector-runs/${id}`)).status))
    expect(statuses).toEqual(['succeeded', 'failed', 'failed', 'failed'])

    const ids = { ...seeded.ids, con: [...seeded.ids.con!, created.id], run: [...(seeded.ids.run ?? []), ...started] }
    const walked = await walkGets(base, ops, ids, seeded.ipns, { perKind: 1000, headers: AUTH })
    for (const { path, res } of walked) responses.push({ what: `GET ${path} → ${res.status}`, bytes: res.bytes })
    expect(walked.filter((w) => w.res.status >= 500)).toEqual([])

    const dataDir = server.dataDir
    expect(await server.stop({ keepData: true })).toBe(0)
    const log = server.output()
    const storage = await createSqliteStorage({ dir: dataDir })
    const secrets: string[] = []
    try {
      for (const id of ids.con) {
        const c = await storage.connectors.get(id)
        for (const s of [c.secret, c.previousSecret]) if (s) secrets.push(s)
      }
    } finally {
      await storage.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
    expect(secrets.length).toBeGreaterThanOrEqual(6)
    expect(secrets).toContain(mine)

    const leaks: string[] = []
    for (const secret of secrets) {
      const forms = [Buffer.from(secret), Buffer.from(secret.slice(6)), Buffer.from(secret.slice(6), 'base64')]
      for (const r of responses) if (forms.some((f) => r.bytes.includes(f))) leaks.push(`${r.what} shows ${secret.slice(0, 10)}…`)
      if (forms.some((f) => log.includes(f.toString('latin1')) || Buffer.from(log).includes(f))) leaks.push(`the server log shows ${secret.slice(0, 10)}…`)
    }
    for (const r of responses) if (r.bytes.includes(Buffer.from(KEY))) leaks.push(`${r.what} shows the API key`)
    if (log.includes(KEY)) leaks.push('the server log shows the API key')
    expect(leaks).toEqual([])
    // What was checked is the whole output of the process, start to stop.
    expect(log).toMatch(/listening on [\s\S]*SIGTERM, saving and stopping/)
    console.log(`access: ${responses.length} responses (every GET route over every record, writes, errors) and ${log.length.toLocaleString('en')} chars of server log checked for ${secrets.length} signing secrets and the API key: none found`)
    // The server is stopped: the next test in this file (none) would need a new one.
    server = undefined as unknown as ServeProcess
  })
})

/** A real id where the route needs one of its kind, else a plausible value. */
function _existing(op: Operation, name: string): string {
  const p = op.pathParams.find((x) => x.name === name)!
  const prefix = /^\^(\w+)_\[/.exec(p.schema.pattern ?? '')?.[1]
  if (prefix) return seeded.ids[prefix]?.[0] ?? `${prefix}_01JD7W3T9X4QF5B8S2M6K0N1PZ`
  if (name === 'ipn') return seeded.ipns[0]!
  if (name === 'file') return `${seeded.ids.cmp![0]}.json`
  return String(p.schema.enum?.[0] ?? 'x')
}

/** A well-formed id nobody has: path validation passes, so the body limit is what answers. */
function _wellFormedMissing(op: Operation, name: string): string {
  const p = op.pathParams.find((x) => x.name === name)!
  const prefix = /^\^(\w+)_\[/.exec(p.schema.pattern ?? '')?.[1] ?? 'x'
  return `${prefix}_01JD7W3T9X4QF5B8S2M6K0N1PZ`
}

function _expectProblem(res: RawResponse, status: number, what: string): void {
  expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBe(status)
  expect(res.contentType, what).toBe('application/problem+json')
  expect(JSON.parse(res.text), what).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String) })
}

const _backup = () => libraryContent(base, AUTH)

async function _closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((r) => probe.close(() => r()))
  return port
}

/**
 * Sends a request whose chunked JSON body never ends (up to 200 MiB, 200 times the largest
 * limit: a server that drained it would still be reading) and collects what comes back
 * until the server closes the connection.
 */
async function _sendEndlessBody(requestLine: string, authorization: string | undefined): Promise<{ answer: string; sent: number }> {
  const { host, hostname, port } = new URL(base)
  const socket = connect(Number(port), hostname)
  let answer = ''
  let sent = 0
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
  socket.on('data', (d: Buffer) => (answer += d.toString('latin1')))
  socket.on('error', () => {})
  socket.write(`${requestLine} HTTP/1.1\r\nHost: ${host}\r\n${authorization ? `Authorization: ${authorization}\r\n` : ''}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`)
  const chunk = Buffer.alloc(64 * 1024, 0x20)
  const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n{`), chunk.subarray(1), Buffer.from('\r\n')])
  const pump = () => {
    while (!socket.destroyed && sent < 200 * 1048576 && socket.write(framed)) sent += chunk.length
    if (sent >= 200 * 1048576) socket.end()
  }
  socket.on('drain', pump)
  pump()
  await closed
  return { answer, sent }
}
