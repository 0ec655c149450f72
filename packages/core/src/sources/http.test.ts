import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSourceHttp } from './http'
import { isSourceError, type SourceError } from './source-error'

let server: Server
let base: string

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const route = url.pathname
    if (route === '/ok') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}')
    if (route === '/missing') return void res.writeHead(404).end('{"message":"no such part"}')
    if (route === '/denied') return void res.writeHead(401).end(`{"message":"bad key ${url.searchParams.get('apiKey')}"}`)
    if (route === '/slow-down') return void res.writeHead(429, { 'retry-after': url.searchParams.get('after') ?? '5' }).end('{}')
    if (route === '/broken') return void res.writeHead(502).end('<html>bad gateway</html>')
    if (route === '/teapot') return void res.writeHead(418).end('short and stout')
    if (route === '/text') return void res.writeHead(200).end('<html>')
    if (route === '/hang') return
    if (route === '/long-declared') return void res.writeHead(200, { 'content-length': String(10_000) }).end(' '.repeat(10_000))
    if (route === '/long-streamed') {
      res.writeHead(200)
      res.write(' '.repeat(6000))
      return void res.end(' '.repeat(6000))
    }
    if (route === '/echo') {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      return void req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ body, type: req.headers['content-type'] ?? null })))
    }
    res.writeHead(500).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const failure = async (promise: Promise<unknown>): Promise<SourceError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(isSourceError(error), `expected a SourceError, got ${String(error)}`).toBe(true)
  return error as SourceError
}

describe('the HTTP client of a source', () => {
  it('parses JSON, sends an object as JSON and a URLSearchParams as a form', async () => {
    const http = createSourceHttp()
    expect(await http.json(`${base}/ok`)).toEqual({ a: 1 })
    expect(await http.json(`${base}/echo`, { body: { q: 'LM358' } })).toEqual({ body: '{"q":"LM358"}', type: 'application/json' })
    expect(await http.json(`${base}/echo`, { body: new URLSearchParams({ q: 'a b' }) })).toEqual({ body: 'q=a+b', type: 'application/x-www-form-urlencoded;charset=UTF-8' })
  })

  it('answers null for a 404 only when asked to', async () => {
    const http = createSourceHttp()
    expect(await http.json(`${base}/missing`, { notFoundAsNull: true })).toBeNull()
    expect((await failure(http.json(`${base}/missing`))).kind).toBe('refused')
  })

  it('tells each failure by its kind, naming host and path but never the query or a secret', async () => {
    const http = createSourceHttp({ secrets: ['sekrit-key'] })
    const denied = await failure(http.json(`${base}/denied?apiKey=sekrit-key`))
    expect(denied.kind).toBe('auth')
    expect(denied.message).toContain('/denied answered 401')
    expect(denied.message).not.toContain('sekrit-key')
    const quota = await failure(http.json(`${base}/slow-down?after=17`))
    expect([quota.kind, quota.retryAfter]).toEqual(['quota', 17])
    const dated = await failure(http.json(`${base}/slow-down?after=${encodeURIComponent(new Date(Date.now() + 30_000).toUTCString())}`))
    expect(dated.retryAfter).toBeGreaterThanOrEqual(28)
    expect(dated.retryAfter).toBeLessThanOrEqual(31)
    expect((await failure(http.json(`${base}/broken`))).kind).toBe('unavailable')
    expect((await failure(http.json(`${base}/teapot`))).kind).toBe('refused')
    expect((await failure(http.json(`${base}/text`))).kind).toBe('bad-answer')
    expect((await failure(http.json('http://127.0.0.1:1/closed'))).kind).toBe('unavailable')
  })

  it('gives up on an answer that does not come in time', async () => {
    const started = Date.now()
    const error = await failure(createSourceHttp({ timeoutMs: 200 }).json(`${base}/hang`))
    expect(error.kind).toBe('timeout')
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('refuses an answer longer than its bound, declared or not', async () => {
    const http = createSourceHttp({ maxBytes: 5000 })
    expect((await failure(http.json(`${base}/long-declared`))).kind).toBe('bad-answer')
    expect((await failure(http.json(`${base}/long-streamed`))).kind).toBe('bad-answer')
    expect((await failure(http.fetch(`${base}/long-streamed`))).kind).toBe('bad-answer')
  })

  it('asks the limiter before every request, and stops when the caller goes away', async () => {
    let asked = 0
    const controller = new AbortController()
    const http = createSourceHttp({ signal: controller.signal, beforeRequest: async () => void asked++ })
    await http.json(`${base}/ok`)
    const response = await http.fetch(`${base}/ok`)
    expect([response.status, await response.json()]).toEqual([200, { a: 1 }])
    expect(asked).toBe(2)
    controller.abort()
    expect((await failure(http.json(`${base}/hang`))).message).toBe('the request was cancelled')
  })
})
