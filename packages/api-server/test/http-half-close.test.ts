import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../src/server'
import { createDatabase, dropDatabase } from './postgres-database'

// A client may close its sending side once the request is out (a raw socket's `end()`, some
// curl options): it still reads. The answer must reach it, on either engine (decision 1015).

/** Writes `request` on a fresh connection, half-closes it, and reads until the server closes. */
function halfClosed(base: string, request: string): Promise<string> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    const received: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      resolve(Buffer.concat(received).toString('latin1'))
    }, 5000)
    socket.on('connect', () => socket.end(request))
    socket.on('data', (d: Buffer) => received.push(d))
    socket.on('error', reject)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(Buffer.concat(received).toString('latin1'))
    })
  })
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`
const post = (path: string, body: unknown) => {
  const text = JSON.stringify(body)
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`
}

/** The status and the JSON body of one whole HTTP/1.1 answer (Content-Length or chunked). */
function parse(answer: string): { status: number; body: any } {
  const split = answer.indexOf('\r\n\r\n')
  expect(split, `an answer arrived: ${JSON.stringify(answer)}`).toBeGreaterThan(0)
  const head = answer.slice(0, split + 2)
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1] ?? 0)
  let rest = Buffer.from(answer.slice(split + 4), 'latin1')
  let body: Buffer
  const length = /\r\ncontent-length: (\d+)\r\n/i.exec(head)?.[1]
  if (length !== undefined) {
    expect(rest.byteLength, `the whole body arrived: ${answer}`).toBe(Number(length))
    body = rest
  } else {
    expect(head, answer).toMatch(/\r\ntransfer-encoding: chunked\r\n/i)
    const chunks: Buffer[] = []
    for (;;) {
      const line = rest.indexOf('\r\n')
      expect(line, `the chunked body ended: ${answer}`).toBeGreaterThan(0)
      const size = parseInt(rest.subarray(0, line).toString('latin1'), 16)
      if (size === 0) break
      chunks.push(rest.subarray(line + 2, line + 2 + size))
      rest = rest.subarray(line + 2 + size + 2)
    }
    body = Buffer.concat(chunks)
  }
  return { status, body: JSON.parse(body.toString('utf8')) }
}

async function checkHalfClosedClients(server: RunningServer): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const health = parse(await halfClosed(server.url, get('/api/health')))
    expect(health.status).toBe(200)
    expect(health.body.status).toBe('ok')

    const name = `half-closed ${randomBytes(4).toString('hex')}`
    const created = parse(await halfClosed(server.url, post('/api/components', { name })))
    expect(created.status).toBe(201)
    expect(created.body.name).toBe(name)

    const bulk = parse(await halfClosed(server.url, post('/api/bulk/components', { items: [{ name: `${name} bulk 1` }, { name: `${name} bulk 2` }] })))
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200)

    const listed = parse(await halfClosed(server.url, get(`/api/components/${created.body.id}`)))
    expect(listed.status).toBe(200)
    expect(listed.body.name).toBe(name)
  }
  // Refusals too: a bad body is answered, naming the field, and creates nothing.
  const refused = parse(await halfClosed(server.url, post('/api/components', { name: 7 })))
  expect(refused.status).toBe(400)
  expect(JSON.stringify(refused.body)).toContain('name')
  // Half-closed mid-body: the body never came whole, so it is refused and nothing is applied.
  const cut = `POST /api/components HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":"cut short`
  const cutAnswer = await halfClosed(server.url, cut)
  expect(parse(cutAnswer).status).toBe(400)
  const found = parse(await halfClosed(server.url, get('/api/components?q=cut')))
  expect(found.body).toEqual([])
}

const started: RunningServer[] = []
const folders: string[] = []
afterAll(async () => {
  await Promise.all(started.map((s) => s.close()))
  for (const f of folders) rmSync(f, { recursive: true, force: true })
})

describe('a client that half-closes after its request', () => {
  it('got no answer although the write was applied; now it reads the whole answer (SQLite)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'complib-half-close-'))
    folders.push(dataDir)
    const logged: string[] = []
    const server = await startServer({ port: 0, dataDir, log: (m) => logged.push(m) })
    started.push(server)
    await checkHalfClosedClients(server)
    expect(logged).toEqual([])
  })

  const adminUrl = process.env.COMPLIB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const database = `complib_hc_${randomBytes(5).toString('hex')}`
  it('the same on PostgreSQL, where even GETs went unanswered', async (context) => {
    const unreachable = await createDatabase(adminUrl, database)
    if (unreachable !== null) {
      if (process.env.CI === 'true') throw new Error(`PostgreSQL at ${adminUrl} is unreachable (${unreachable})`)
      context.skip()
      return
    }
    try {
      const dataDir = mkdtempSync(join(tmpdir(), 'complib-half-close-pg-'))
      folders.push(dataDir)
      const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString()
      const server = await startServer({ port: 0, dataDir, databaseUrl, log: () => {} })
      try {
        await checkHalfClosedClients(server)
      } finally {
        await server.close()
      }
    } finally {
      await dropDatabase(adminUrl, database)
    }
  })
})
