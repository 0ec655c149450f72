import { existsSync, mkdtempSync, rmSync, stat } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMPORT_BODY_LIMIT } from '../src/imports/read-rows'
import { DEFAULT_HTTP_TIMEOUTS } from '../src/http/timeouts'
import { startServer, type RunningServer } from '../src/server'
import { exchange } from './reliability/raw-tcp'

// A client that trickles its headers or its body held a connection for Node's
// 300 s; now headers have a timeout and a body a minimum pace (decision 1016).
// Short figures here, with margins of hundreds of ms either side.
const TIMEOUTS = { headersMs: 1000, bodyGraceMs: 800, bodyMinBytesPerSecond: 1024 }

let server: RunningServer
let dataDir: string
const logged: string[] = []
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'complib-timeouts-'))
  server = await startServer({ port: 0, dataDir, timeouts: TIMEOUTS, log: (m) => logged.push(m) })
})
afterAll(async () => {
  await server?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const head = (length: number) => `POST /api/components HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${length}\r\n\r\n`

async function named(q: string): Promise<unknown[]> {
  return (await (await fetch(`${server.url}/api/components?q=${encodeURIComponent(q)}`)).json()) as unknown[]
}

describe('a trickling client', () => {
  it('a body sent a byte at a time held the connection for 300 s; now a 408 soon after the grace, and nothing applied', async () => {
    const body = `{"name":"trickled ${'x'.repeat(200)}"}`
    const started = Date.now()
    // The head, then one byte every 100 ms: 10 bytes a second against a floor of 1,024.
    const res = await exchange(server.url, [head(body.length), ...body.split('')], { pauseMs: 100, timeoutMs: 6000 })
    const elapsed = Date.now() - started
    expect(res.statuses).toEqual([408])
    expect(res.text).toContain('application/problem+json')
    expect(res.text).toContain('more slowly than 1024 bytes a second')
    expect(res.closed).toBe(true)
    // The grace (800 ms) plus the few bytes' credit, checked every 200 ms: well under 3 s, and not before the grace.
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUTS.bodyGraceMs)
    expect(elapsed).toBeLessThan(3000)
    expect(await named('trickled')).toEqual([])
    expect(logged).toEqual([])
  })

  it('a body that stalls after a good start is cut the same way', async () => {
    const body = '{"name":"stalled","description":"' + 'y'.repeat(600) + '"}'
    const started = Date.now()
    const res = await exchange(server.url, [head(body.length) + body.slice(0, 400)], { timeoutMs: 6000 })
    expect(res.statuses).toEqual([408])
    // Cut after the grace; the bytes that came with the head earn no credit (they were in before the body was timed).
    const elapsed = Date.now() - started
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUTS.bodyGraceMs)
    expect(elapsed).toBeLessThan(3000)
    expect(await named('stalled')).toEqual([])
  })

  it('headers sent a byte at a time held the connection for 60 s; now a 408 after the headers timeout', async () => {
    const request = 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' + 'z'.repeat(100) + '\r\n\r\n'
    const started = Date.now()
    const res = await exchange(server.url, request.split(''), { pauseMs: 100, timeoutMs: 6000 })
    const elapsed = Date.now() - started
    expect(res.statuses).toEqual([408])
    expect(res.closed).toBe(true)
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUTS.headersMs - 50)
    expect(elapsed).toBeLessThan(3000)
  })

  it('an honest slow upload that outlasts the grace is served', async () => {
    const body = JSON.stringify({ name: 'slow but honest', description: 'w'.repeat(3000) })
    const chunks: string[] = []
    for (let i = 0; i < body.length; i += 200) chunks.push(body.slice(i, i + 200))
    // 200 bytes every 100 ms: 2,000 bytes a second, twice the floor, for about 1.5 s (past the 800 ms grace).
    const started = Date.now()
    const res = await exchange(server.url, [head(Buffer.byteLength(body)), ...chunks], { pauseMs: 100, timeoutMs: 6000 })
    expect(Date.now() - started).toBeGreaterThan(TIMEOUTS.bodyGraceMs + 400)
    expect(res.statuses).toEqual([201])
    expect(await named('slow but honest')).toHaveLength(1)
  })

  it('a server too busy to read is not taken for a slow client', async () => {
    const body = JSON.stringify({ name: 'busy server', description: 'v'.repeat(500) })
    const { hostname, port } = new URL(server.url)
    const socket = connect(Number(port), hostname)
    const received: Buffer[] = []
    socket.on('data', (d: Buffer) => received.push(d))
    const closed = new Promise((r) => socket.on('close', r))
    await new Promise((r) => socket.once('connect', r))
    socket.write(head(Buffer.byteLength(body)) + body.slice(0, 100))
    await new Promise((r) => setTimeout(r, 100))
    // The rest sent, then the event loop blocked past the grace, from an I/O callback: the
    // server's read of the rest then waits until after the timers of the next turn.
    await new Promise((r) => stat(tmpdir(), r))
    socket.write(body.slice(100))
    const until = Date.now() + TIMEOUTS.bodyGraceMs + 700
    while (Date.now() < until);
    await closed
    expect(Buffer.concat(received).toString('latin1')).toMatch(/^HTTP\/1\.1 201 /)
    expect(await named('busy server')).toHaveLength(1)
  })

  it('logs nothing: a slow client is no fault of the server', async () => {
    // The lingering close after a 408 ends within 2 s; the refused request's route sees its body cut then.
    await new Promise((r) => setTimeout(r, 2500))
    expect(logged).toEqual([])
  })
})

describe('the default figures', () => {
  it('let the largest import through on a 64 kbit/s link, and cut a trickle within seconds', async () => {
    const { headersMs, bodyGraceMs, bodyMinBytesPerSecond } = DEFAULT_HTTP_TIMEOUTS
    // 64 kbit/s = 8,000 bytes a second: not below the floor, so the largest body is never cut, however long it takes.
    expect(bodyMinBytesPerSecond).toBeLessThanOrEqual(8000)
    expect(IMPORT_BODY_LIMIT / bodyMinBytesPerSecond).toBeGreaterThan(8000)
    // A trickle (a byte a second) earns almost nothing past the grace: cut well before Node's 300 s.
    expect(bodyGraceMs + (300 / bodyMinBytesPerSecond) * 1000).toBeLessThan(30_000)
    expect(headersMs).toBeLessThan(60_000)
    const dir = mkdtempSync(join(tmpdir(), 'complib-timeouts-default-'))
    const plain = await startServer({ port: 0, dataDir: dir, log: () => {} })
    try {
      expect(plain.server.headersTimeout).toBe(headersMs)
      expect(plain.server.requestTimeout).toBe(0)
    } finally {
      await plain.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses a figure that is not a number above 0, before the data folder is touched', async () => {
    const dir = join(tmpdir(), `complib-timeouts-bad-${process.pid}`)
    await expect(startServer({ port: 0, dataDir: dir, timeouts: { bodyMinBytesPerSecond: 0 }, log: () => {} })).rejects.toThrow(/bodyMinBytesPerSecond/)
    await expect(startServer({ port: 0, dataDir: dir, timeouts: { headersMs: Number.NaN }, log: () => {} })).rejects.toThrow(/headersMs/)
    expect(existsSync(dir)).toBe(false)
  })
})
