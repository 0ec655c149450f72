import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exchange } from './raw-tcp'
import { FULL, startServe, type ServeProcess } from './server-process'
import { seededRandom } from './seeded-random'

// Byte-level mutation of valid requests (request line, Host,
// headers, chunked framing, bodies), sent over raw TCP. However a request is mangled,
// the process stays up and never answers 5xx. Deterministic (seeded); bounded in count
// and time (CI: a few hundred requests; `npm run test:full`: several thousand).

const SEED = 20261124
const COUNT = FULL ? 6000 : 600
const TIME_LIMIT_MS = FULL ? 300_000 : 60_000
const PARALLEL = 8

let server: ServeProcess
let componentId = 'cmp_00000000000000000000000000'
beforeAll(async () => {
  server = await startServe()
  const res = await fetch(`${server.url}/api/components`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"fuzz target","tags":["t"]}' })
  componentId = ((await res.json()) as { id: string }).id
})
afterAll(async () => {
  await server?.stop()
})

function seeds(): string[] {
  const json = (method: string, path: string, body: string, extra = '') =>
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  const chunked = (path: string, body: string) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
    `${Buffer.byteLength(body.slice(0, 7)).toString(16)}\r\n${body.slice(0, 7)}\r\n${Buffer.byteLength(body.slice(7)).toString(16)}\r\n${body.slice(7)}\r\n0\r\n\r\n`
  return [
    'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    'GET /api/components?limit=5&sort=name&q=fuzz HTTP/1.1\r\nHost: localhost:4000\r\nAccept: application/json\r\n\r\n',
    `GET /api/components/${componentId} HTTP/1.1\r\nHost: [::1]\r\nIf-None-Match: "1"\r\n\r\n`,
    'GET /api/suggest?entity=components&q=fu HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n',
    'GET http://127.0.0.1/api/tags HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    'HEAD /api/docs HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    'OPTIONS /api/components HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\nAccess-Control-Request-Method: POST\r\n\r\n',
    json('POST', '/api/components', '{"name":"fz","parameters":[{"type":"Resistance","value":"10k","unit":"Ω"}],"tags":["a","b"]}'),
    json('PATCH', `/api/components/${componentId}`, '{"description":"fuzzed"}', 'If-Match: "1"\r\n'),
    json('POST', '/api/tags', '{"name":"fuzz-tag","color":"#ff0000"}', 'Origin: http://127.0.0.1\r\n'),
    json('POST', '/api/bulk/components', '{"items":[{"name":"b1"},{"name":"b2"}]}'),
    json('POST', '/api/search/parametric', '{"filters":[{"type":"Resistance","min":"1k","max":"100k"}]}'),
    chunked('/api/components', '{"name":"chunked fuzz","description":"x"}'),
    `DELETE /api/components/${componentId}/tags/tag_00000000000000000000000000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    'POST /api/attachments?name=a.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello',
  ]
}

const ODD_CHARACTERS = ['\r', '\n', '\r\n', '\0', ' ', '\t', ':', '<', '"', '%', '%ZZ', '\u00ff', '\u0080', '/', '?', '#', '[', ']', '@', '..', '\\', ',', ';']
const HOSTS = ['1.2.3.4.5', '327.0.0.1', 'a.1', '', ' ', '[::1', '127.0.0.1:99999', 'exa mple', 'xn--', '%41', 'evil.example', '127.0.0.1\r\nHost: b', '[::ffff:127.0.0.1]', 'localhost:-1']

function mutate(input: string, rand: () => number): Buffer {
  const pick = <T,>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!
  let text = input
  const steps = 1 + Math.floor(rand() * 3)
  for (let s = 0; s < steps; s++) {
    const at = Math.floor(rand() * (text.length + 1))
    switch (Math.floor(rand() * 10)) {
      case 0: // flip a character
        text = text.slice(0, at) + String.fromCharCode(Math.floor(rand() * 256)) + text.slice(at + 1)
        break
      case 1: // insert a special sequence
        text = text.slice(0, at) + pick(ODD_CHARACTERS) + text.slice(at)
        break
      case 2: // delete a run
        text = text.slice(0, at) + text.slice(at + 1 + Math.floor(rand() * 8))
        break
      case 3: // replace Host
        text = text.replace(/Host: [^\r]*/, `Host: ${pick(HOSTS)}`)
        break
      case 4: // duplicate a header line
        text = text.replace(/\r\n([^\r]+)\r\n/, (m, line: string) => `\r\n${line}\r\n${line}\r\n`)
        break
      case 5: // a Content-Length that lies
        text = text.replace(/Content-Length: \d+/, `Content-Length: ${pick(['-1', '0', '1', '99999999999999999999', '1e3', ' 5', '5, 6', String(Math.floor(rand() * 400))])}`)
        break
      case 6: // break chunked framing
        text = text.includes('chunked') ? text.replace(/\r\n([0-9a-f]+)\r\n/, `\r\n${pick(['zz', 'fffffffffffffffffff', '-1', '7;ext=1', '', '0x7'])}\r\n`) : text + '0\r\n\r\n'
        break
      case 7: // garbage after the request
        text += pick(['GARBAGE\r\n\r\n', 'GET / HTTP/1.1\r\n\r\n', '\r\n', '\0\0\0', 'HTTP/1.1 200 OK\r\n\r\n'])
        break
      case 8: // cut short
        text = text.slice(0, at)
        break
      default: // mangle the request line
        text = text.replace(/^\S+ \S+ \S+/, (line) => {
          const [method, target, version] = line.split(' ')
          return pick([`${method} ${target}${pick(ODD_CHARACTERS)} ${version}`, `${method}  ${target} ${version}`, `${method} ${target} HTTP/9.9`, `${pick(['GET', 'PoSt', 'BREW', 'CONNECT', 'TRACE'])} ${target} ${version}`, `${method} ${pick(['*', 'http://[::1', '//x', 'a', '/api/%', '/api/\u00e9'])} ${version}`])
        })
    }
  }
  return Buffer.from(text, 'latin1')
}

describe('raw-TCP fuzz', () => {
  it('keeps serving and never answers 5xx, whatever bytes arrive', async () => {
    const rand = seededRandom(SEED)
    const base = seeds()
    const inputs = Array.from({ length: COUNT }, () => mutate(base[Math.floor(rand() * base.length)]!, rand))
    const statuses = new Map<number, number>()
    const failures: string[] = []
    const started = Date.now()
    let sent = 0
    let next = 0
    const worker = async () => {
      while (next < inputs.length && Date.now() - started < TIME_LIMIT_MS) {
        const input = inputs[next++]!
        const res = await exchange(server.url, input, { timeoutMs: 1000 })
        sent++
        for (const status of res.statuses) {
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
          if (status >= 500) failures.push(`${status} for ${JSON.stringify(input.toString('latin1'))}:\n${res.text.slice(0, 400)}`)
        }
        if (res.statuses.length === 0 && !res.closed) statuses.set(0, (statuses.get(0) ?? 0) + 1)
      }
    }
    await Promise.all(Array.from({ length: PARALLEL }, worker))
    const shown = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s === 0 ? 'no answer (waiting for more bytes)' : s} ×${n}`)
    console.log(`raw-TCP fuzz (seed ${SEED}): ${sent} mutated requests in ${Date.now() - started} ms; answers: ${shown.join(', ')}`)
    expect(failures.slice(0, 5)).toEqual([])
    expect(server.exitCode()).toBeNull()
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200)
    expect(server.output()).not.toMatch(/uncaught|Invalid URL|TypeError/i)
    expect(sent).toBeGreaterThan(COUNT / 4)
  }, TIME_LIMIT_MS + 30_000)
})
