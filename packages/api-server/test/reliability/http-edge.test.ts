import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exchange } from './raw-tcp'
import { startServe, type ServeProcess } from './server-process'

// What reaches the server as bytes, before any route runs. A real `complib serve`
// process, since one such request once ended the process itself.

let open: ServeProcess
let keyed: ServeProcess
beforeAll(async () => {
  ;[open, keyed] = await Promise.all([startServe(), startServe({ args: ['--api-key', 'k3y'] })])
})
afterAll(async () => {
  await Promise.all([open?.stop(), keyed?.stop()])
})

const get = (target: string, host: string) => `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`
const post = (path: string, body: string, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`

async function components(server: ServeProcess, q: string): Promise<unknown[]> {
  return (await (await fetch(`${server.url}/api/components?q=${q}`)).json()) as unknown[]
}

describe('requests that killed the process', () => {
  it('one request without credentials killed the process (Host 1.2.3.4.5, target ?a<b); now malformed Hosts and targets are answered and the server keeps serving', async () => {
    const cases = [
      ['/api/health?a<b', '1.2.3.4.5'],
      ['/api/health', '327.0.0.1'],
      ['/api/health', 'a.1'],
      ['/api/health?x="y"', '127.0.0.1'],
      ['/api/he<alth', '127.0.0.1'],
      ['/nope', 'a.1'],
      ['/api/health', 'exa mple'],
      ['/api/health', '[::1'],
    ] as const
    for (const server of [open, keyed]) {
      for (const [target, host] of cases) {
        const res = await exchange(server.url, get(target, host))
        expect(res.statuses, `${target} Host: ${host} → ${res.text}`).toHaveLength(1)
        expect(res.statuses[0], `${target} Host: ${host} → ${res.text}`).toBeLessThan(500)
        expect(res.text).toContain('application/problem+json')
      }
      expect(server.exitCode()).toBeNull()
      expect((await fetch(`${server.url}/api/health`, { headers: { authorization: 'Bearer k3y' } })).status).toBe(200)
    }
    // The Hosts that do not parse are a 400 naming the Host; a target with `<` is read as its encoded form.
    expect((await exchange(open.url, get('/api/health', '1.2.3.4.5'))).text).toMatch(/400 [\s\S]*Host header/)
    expect((await exchange(open.url, get('/api/he<alth', '127.0.0.1'))).statuses).toEqual([404])
    expect((await exchange(keyed.url, get('/api/health?a<b', '1.2.3.4.5'))).statuses).toEqual([400])
    expect(open.output()).not.toMatch(/TypeError|Invalid URL/)
  })

  it('two Host headers were accepted; now a 400', async () => {
    const res = await exchange(open.url, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n')
    expect(res.statuses).toEqual([400])
    expect(res.text).toContain('more than one Host')
  })
})

describe('HTTP conformance', () => {
  it('a malformed chunk closed the socket with no answer while the write was applied; now a 400 and nothing applied', async () => {
    const head = 'POST /api/components HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'
    const whole = '{"name":"chunky-a"}'
    const bad = await exchange(open.url, [head + `${whole.length.toString(16)}\r\n${whole}\r\n`, 'zz\r\n}\r\n0\r\n\r\n'], { pauseMs: 100 })
    expect(bad.statuses).toEqual([400])
    expect(bad.text).toContain('chunked body is malformed')
    const overflow = await exchange(open.url, [head + `${whole.length.toString(16)}\r\n{"name":"chunky-b"}\r\n`, 'fffffffffffffffffffffff\r\n'], { pauseMs: 100 })
    expect(overflow.statuses).toEqual([400])
    expect(await components(open, 'chunky')).toEqual([])
  })

  it('garbage after a request closed the socket with no answer while the write was applied; now the answer, then a 400', async () => {
    const res = await exchange(open.url, post('/api/components', '{"name":"trailing-garbage"}') + 'GARBAGE\r\n\r\n')
    expect(res.statuses).toEqual([201, 400])
    expect(await components(open, 'trailing')).toHaveLength(1)
  })

  it('a client that went away was logged as INTERNAL … Error: aborted with a stack; now nothing is applied and nothing is logged as an error', async () => {
    const before = open.output()
    await exchange(open.url, 'POST /api/components HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":"gone', { timeoutMs: 300 })
    await new Promise((r) => setTimeout(r, 300))
    expect(open.exitCode()).toBeNull()
    expect(open.output().slice(before.length)).not.toMatch(/INTERNAL|aborted|Error/)
    expect(await components(open, 'gone')).toEqual([])
  })

  it('HEAD on GET routes answered 404; now the GET answer without its body', async () => {
    for (const path of ['/api/health', '/api/components', '/api/docs', '/api/kicad/v1/']) {
      const res = await fetch(`${open.url}${path}`, { method: 'HEAD' })
      const asGet = await fetch(`${open.url}${path}`)
      expect(res.status, path).toBe(asGet.status)
      expect(res.headers.get('content-type'), path).toBe(asGet.headers.get('content-type'))
      expect(await res.text()).toBe('')
    }
  })

  it('OPTIONS answered 404 without Allow; now 204 with the methods of the path', async () => {
    const one = await fetch(`${open.url}/api/components/cmp_00000000000000000000000000`, { method: 'OPTIONS' })
    expect(one.status).toBe(204)
    expect(one.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH'])
    const list = await fetch(`${open.url}/api/components`, { method: 'OPTIONS' })
    expect(list.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST'])
    // Needs no key: a preflight never carries one.
    expect((await fetch(`${keyed.url}/api/components`, { method: 'OPTIONS' })).status).toBe(204)
    expect((await fetch(`${open.url}/api/nothing-here`, { method: 'OPTIONS' })).status).toBe(404)
  })

  it('status lines had no reason phrase (HTTP/1.1 404 ); now every answer carries one', async () => {
    const cases: Array<[string, RegExp]> = [
      [get('/api/health', '127.0.0.1'), /^HTTP\/1\.1 200 OK\r\n/],
      [get('/api/nothing-here', '127.0.0.1'), /^HTTP\/1\.1 404 Not Found\r\n/],
      [get('/api/components?limit=x', '127.0.0.1'), /^HTTP\/1\.1 400 Bad Request\r\n/],
      [post('/api/components', '{"name":"phrase"}', 'Connection: close\r\n'), /^HTTP\/1\.1 201 Created\r\n/],
    ]
    for (const [request, line] of cases) expect((await exchange(open.url, request)).text).toMatch(line)
  })

  it('a method a path does not have is a 405 with Allow', async () => {
    const res = await fetch(`${open.url}/api/health`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })

  it('Content-Encoding: gzip was ignored and the bytes read as JSON; now a 415 and nothing applied', async () => {
    const res = await exchange(open.url, post('/api/components', '{"name":"zipped"}', 'Content-Encoding: gzip\r\nConnection: close\r\n'))
    expect(res.statuses).toEqual([415])
    expect(res.text).toContain('Content-Encoding')
    expect(await components(open, 'zipped')).toEqual([])
  })
})
