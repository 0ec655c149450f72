import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteStorage } from '@complib/core/sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/server'
import { createTestApi, type TestApi } from '../harness'
import { sendRaw } from './raw-http'
import { makeSecret } from './seed'

// What the hostile-input fuzzing found, each pinned by a test named after what broke.

let api: TestApi
let server: RunningServer
let dataDir: string
beforeAll(async () => {
  api = await createTestApi()
  dataDir = mkdtempSync(join(tmpdir(), 'complib-regressions-'))
  server = await startServer({ port: 0, dataDir, log: () => {} })
})
afterAll(async () => {
  await api?.close()
  await server?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

describe('hostile input regressions', () => {
  it('a path with malformed percent-encoding answered 500; now a 400 problem', async () => {
    for (const path of ['/api/manufacturers/%ZZ', '/api/components/%ED%A0%80/restore', '/api/tags/%', '/api/%E0%A4%A', '/api/docs/ui/%C0%AF']) {
      const method = path.endsWith('restore') ? 'POST' : 'GET'
      const res = await api.call(method, path)
      expect(res.status, path).toBe(400)
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', status: 400, detail: expect.stringMatching(/percent-encoding/) })
    }
  })

  it('a symbol or footprint file name outside Latin-1 made the download answer 500; now it is named in RFC 8187 form', async () => {
    for (const kind of ['symbols', 'footprints']) {
      const item = await api.ok('POST', `/api/${kind}`, { name: 'R', library: 'Device', fileName: 'Ωhm 😀 "x".kicad_sym', content: '(x)' }, 201)
      const res = await api.call('GET', `/api/${kind}/${item.id}/file`)
      expect(res.status, res.text).toBe(200)
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="_hm __ _x_.kicad_sym"; filename*=UTF-8''%CE%A9hm%20%F0%9F%98%80%20%22x%22.kicad_sym`)
    }
  })

  it('a link whose URL path has malformed percent-encoding answered 500; now it is recorded under that segment', async () => {
    const res = await api.call('POST', '/api/attachments/from-url', { body: { url: 'https://example.com/ds/rc%E0%A4%A.pdf' } })
    expect(res.status, res.text).toBe(201)
    expect(res.body).toMatchObject({ name: 'rc%E0%A4%A.pdf', kind: 'datasheet' })
  })

  it('a NUL inside search text made list, suggest and search answer 500 (a cut-short FTS query); now it separates words', async () => {
    const part = await api.ok('POST', '/api/components', { name: 'alpha\u0000beta gamma' }, 201)
    for (const path of ['/api/components?q=alpha%00beta', '/api/suggest?entity=components&q=alpha%00beta', '/api/search?q=alpha%00beta', '/api/components?q=%00']) {
      const res = await api.call('GET', path)
      expect(res.status, `${path}: ${res.text}`).toBe(200)
    }
    expect((await api.call('GET', '/api/components?q=%00alpha')).body.map((c: { id: string }) => c.id)).toEqual([part.id])
  })

  it('request headers over 16 KiB got a bare 431 from Node; now a 431 problem+json', async () => {
    const res = await sendRaw(server.url, { method: 'GET', path: `/api/components?q=${'x'.repeat(17_000)}` })
    expect(res.status).toBe(431)
    expect(res.contentType).toBe('application/problem+json')
    expect(JSON.parse(res.text)).toMatchObject({ code: 'HEADERS_TOO_LARGE', status: 431, title: expect.any(String), detail: expect.stringMatching(/16 KiB/) })
    expect((await sendRaw(server.url, { method: 'GET', path: '/api/health' })).status).toBe(200)
  })

  it('a request that is not HTTP got a bare 400 from Node; now a 400 problem+json', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const url = new URL(server.url)
      const socket = connect(Number(url.port), url.hostname, () => socket.write('NOT HTTP AT ALL\r\n\r\n'))
      let text = ''
      socket.on('data', (d) => (text += d))
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(answer).toMatch(/content-type: application\/problem\+json/i)
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'BAD_REQUEST', status: 400 })
  })

  it('the backup download carried every connector signing secret whole; now it carries none, and the rest of the library', async () => {
    const secret = makeSecret(32)
    const next = makeSecret(48)
    const connector = await api.ok('POST', '/api/connectors', { name: 'ERP', config: { url: 'http://127.0.0.1:9/h' }, secret }, 201)
    await api.ok('POST', `/api/connectors/${connector.id}/secret/rotate`, { secret: next, graceSeconds: 600 })
    const part = await api.ok('POST', '/api/components', { name: 'kept in the backup' }, 201)
    const res = await api.call('GET', '/api/exports/backup')
    expect(res.status).toBe(200)
    const raw = Buffer.from(await new Response((await api.storage.backup()).body).arrayBuffer())
    for (const s of [secret, next]) {
      expect(res.text).not.toContain(s.slice(6))
      expect(raw.includes(Buffer.from(s.slice(6)))).toBe(false)
      expect(raw.includes(Buffer.from(s.slice(6), 'base64'))).toBe(false)
    }
    // Restored, the backup is the library minus the secrets.
    const dir = mkdtempSync(join(tmpdir(), 'complib-restored-'))
    try {
      writeFileSync(join(dir, 'complib.db'), raw)
      const restored = await createSqliteStorage({ dir })
      try {
        expect((await restored.components.get(part.id)).name).toBe('kept in the backup')
        expect(await restored.connectors.get(connector.id)).toMatchObject({ name: 'ERP', secret: null, previousSecret: null })
      } finally {
        await restored.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    // The live library still signs with both.
    expect(await api.storage.connectors.get(connector.id)).toMatchObject({ secret: next, previousSecret: secret })
  })
})
