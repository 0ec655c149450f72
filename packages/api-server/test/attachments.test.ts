import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from './harness'

let api: TestApi
let dataDir: string
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'complib-att-'))
  api = await createTestApi({ dataDir })
})
afterEach(async () => {
  await api.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const MISSING = 'att_01JD7W3T9X4QF5B8S2M6K0N1PZ'
const pdf = new TextEncoder().encode('%PDF-1.7 tiny datasheet')
const blobs = () => readdirSync(join(dataDir, 'attachments'), { recursive: true }).filter((f) => String(f).length > 3)

function multipart(fields: Record<string, string>, file?: { name: string; type: string; bytes: Uint8Array }): FormData {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  if (file) form.set('file', new Blob([file.bytes], { type: file.type }), file.name)
  return form
}

describe('attachments', () => {
  it('uploads a datasheet by multipart, links it, and serves it back as a download', async () => {
    const c = (await api.call('POST', '/api/components', { body: { name: 'A' } })).body
    const res = await api.call('POST', '/api/attachments', { rawBody: multipart({ componentId: c.id }, { name: 'ds.pdf', type: 'application/pdf', bytes: pdf }) })
    expect(res.status, res.text).toBe(201)
    expect(res.body).toMatchObject({ name: 'ds.pdf', kind: 'datasheet', contentType: 'application/pdf', size: pdf.byteLength, componentId: c.id })
    expect((await api.call('GET', `/api/components/${c.id}`)).body.attachments).toEqual([{ id: res.body.id, name: 'ds.pdf' }])
    expect((await api.call('GET', `/api/components/${c.id}/attachments`)).body).toHaveLength(1)
    const download = await api.call('GET', `/api/attachments/${res.body.id}/content`)
    expect(download.status).toBe(200)
    expect(download.text).toBe('%PDF-1.7 tiny datasheet')
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="ds.pdf"/)
    expect(download.headers.get('x-content-type-options')).toBe('nosniff')
    expect(blobs()).toHaveLength(1)
  })

  it('uploads raw bytes with the name in the query', async () => {
    const res = await api.call('POST', '/api/attachments?name=photo.png', { rawBody: new Uint8Array([137, 80, 78, 71]), headers: { 'content-type': 'image/png' } })
    expect(res.status, res.text).toBe(201)
    expect(res.body).toMatchObject({ name: 'photo.png', kind: 'image', size: 4 })
  })

  it('keeps one copy of identical bytes and drops it with the last attachment using it', async () => {
    const a = await api.call('POST', '/api/attachments?name=a.pdf', { rawBody: pdf, headers: { 'content-type': 'application/pdf' } })
    const b = await api.call('POST', '/api/attachments?name=b.pdf', { rawBody: pdf, headers: { 'content-type': 'application/pdf' } })
    expect(blobs()).toHaveLength(1)
    expect((await api.call('DELETE', `/api/attachments/${a.body.id}`)).status).toBe(204)
    expect(blobs()).toHaveLength(1)
    expect((await api.call('DELETE', `/api/attachments/${b.body.id}`)).status).toBe(204)
    expect(blobs()).toHaveLength(0)
  })

  it('refuses path tricks in file names', async () => {
    for (const name of ['../../etc/passwd', '..', 'a\\b.pdf']) {
      const res = await api.call('POST', `/api/attachments?name=${encodeURIComponent(name)}`, { rawBody: pdf })
      expect(res.status, name).toBe(400)
    }
    const form = await api.call('POST', '/api/attachments', { rawBody: multipart({}, { name: '../evil.pdf', type: 'application/pdf', bytes: pdf }) })
    expect(form.status).toBe(400)
    expect((await api.call('GET', '/api/attachments')).body).toEqual([])
  })

  it('refuses an upload without a file, without a name, to an unknown component, or over 50 MiB', async () => {
    expect((await api.call('POST', '/api/attachments', { rawBody: multipart({ name: 'x' }) })).status).toBe(400)
    expect((await api.call('POST', '/api/attachments', { rawBody: pdf })).status).toBe(400)
    const unknown = await api.call('POST', '/api/attachments?name=x.pdf&componentId=cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ', { rawBody: pdf })
    expect(unknown.status).toBe(400)
    expect(blobs()).toHaveLength(0)
    const big = await api.call('POST', '/api/attachments?name=big.bin', { rawBody: new Uint8Array(50 * 1024 * 1024 + 1) })
    expect(big.status).toBe(413)
  })

  it('records a link without fetching it, and has no content to serve', async () => {
    const res = await api.call('POST', '/api/attachments/from-url', { body: { url: 'https://example.com/files/LM358.pdf' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'LM358.pdf', kind: 'datasheet', url: 'https://example.com/files/LM358.pdf', sha256: null })
    expect((await api.call('GET', `/api/attachments/${res.body.id}/content`)).status).toBe(404)
    expect((await api.call('POST', '/api/attachments/from-url', { body: { url: 'file:///etc/passwd' } })).status).toBe(400)
  })

  it('renames and moves, and answers unknown ids with 404', async () => {
    const a = (await api.call('POST', '/api/attachments?name=a.pdf', { rawBody: pdf })).body
    expect((await api.call('PATCH', `/api/attachments/${a.id}`, { body: { name: 'b.pdf', kind: 'document' } })).body).toMatchObject({ name: 'b.pdf', kind: 'document' })
    expect((await api.call('GET', `/api/attachments/${a.id}`)).body.name).toBe('b.pdf')
    expect((await api.call('GET', '/api/attachments?kind=document')).body).toHaveLength(1)
    expect((await api.call('PATCH', `/api/attachments/${a.id}`, { body: { name: '../x' } })).status).toBe(400)
    for (const [method, path] of [
      ['GET', `/api/attachments/${MISSING}`],
      ['PATCH', `/api/attachments/${MISSING}`],
      ['DELETE', `/api/attachments/${MISSING}`],
      ['GET', `/api/attachments/${MISSING}/content`],
      ['GET', '/api/components/cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ/attachments'],
    ] as const) {
      expect((await api.call(method, path, method === 'PATCH' ? { body: { name: 'x' } } : {})).status, `${method} ${path}`).toBe(404)
    }
  })
})
