import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from './harness'

let api: TestApi
beforeEach(async () => {
  api = await createTestApi()
})
afterEach(async () => {
  await api.close()
})

const CSV = `ipn,Name,Description,Category,Tags,Manufacturer,MPN,Resistance,Tolerance
RES-00001,R 10k 0603,thick film,Resistors,smd; passive,Yageo,RC0603FR-0710KL,10k,1%
RES-00002,R 4k7 0603,,Resistors,smd,Yageo,RC0603FR-074K7L,4k7,-40..85
`
const upload = (body: string, query = '', type = 'text/csv') => api.call('POST', `/api/imports${query}`, { rawBody: body, headers: { 'content-type': type } })

describe('imports', () => {
  it('previews a CSV with a guessed mapping, then commits it atomically', async () => {
    const res = await upload(CSV, '?name=parts.csv')
    expect(res.status, res.text).toBe(201)
    expect(res.body.mapping).toMatchObject({ ipn: 'ipn', Name: 'name', Manufacturer: 'manufacturer', MPN: 'partNumber', Resistance: 'parameter' })
    expect(res.body.summary).toEqual({ create: 2, update: 0, invalid: 0 })
    expect(await api.storage.components.list({ limit: 10, sort: 'id', includeDeleted: false })).toMatchObject({ total: 0 })
    const committed = await api.call('POST', `/api/imports/${res.body.id}/commit`)
    expect(committed.status, committed.text).toBe(200)
    expect(committed.body).toMatchObject({ status: 'committed', result: { created: 2, updated: 0 } })
    const c = (await api.call('GET', '/api/components/by-ipn/RES-00001')).body
    expect(c).toMatchObject({ name: 'R 10k 0603', category: 'Resistors', tags: ['smd', 'passive'], mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' }] })
    expect(c.parameters).toEqual([{ type: 'Resistance', value: '10k' }, { type: 'Tolerance', value: '1%' }])
    expect((await api.call('POST', `/api/imports/${res.body.id}/commit`)).status).toBe(409)
  })

  it('updates existing components by ipn, or by MPN', async () => {
    await api.call('POST', `/api/imports/${(await upload(CSV)).body.id}/commit`)
    const byIpn = await upload(CSV.replace('thick film', 'thin film'))
    expect(byIpn.body.summary).toEqual({ create: 0, update: 2, invalid: 0 })
    await api.call('POST', `/api/imports/${byIpn.body.id}/commit`)
    expect((await api.call('GET', '/api/components/by-ipn/RES-00001')).body.description).toBe('thin film')
    const byMpn = await upload('Manufacturer,MPN,Description\nYageo,RC0603FR-074K7L,updated by mpn\n', '?upsertKey=mpn')
    expect(byMpn.body.summary).toEqual({ create: 0, update: 1, invalid: 0 })
  })

  it('refuses to commit while rows are invalid, changing nothing, until the mapping is fixed', async () => {
    const res = await upload('ipn,Name,Status\nA-1,Part A,active\nA-2,,retired\n')
    expect(res.body.summary.invalid).toBe(1)
    expect(res.body.errors.map((e: { row: number; path: string }) => [e.row, e.path])).toEqual([
      [3, 'name'],
      [3, 'status'],
    ])
    const refused = await api.call('POST', `/api/imports/${res.body.id}/commit`)
    expect(refused.status).toBe(400)
    expect(refused.body.detail).toMatch(/row 3/)
    expect((await api.call('GET', '/api/components')).body).toEqual([])
    const remapped = await api.call('PATCH', `/api/imports/${res.body.id}`, { body: { mapping: { Status: 'ignore' } } })
    expect(remapped.body.errors.map((e: { row: number; path: string }) => [e.row, e.path])).toEqual([[3, 'name']])
    expect((await api.call('PATCH', `/api/imports/${res.body.id}`, { body: { mapping: { Nope: 'name' } } })).status).toBe(400)
  })

  it('imports a JSON array', async () => {
    const res = await upload(JSON.stringify([{ name: 'X', ipn: 'X-1', tags: 'a,b' }]), '', 'application/json')
    expect(res.body).toMatchObject({ format: 'json', summary: { create: 1 } })
  })

  it('rejects files it cannot read, and unknown sessions', async () => {
    expect((await upload('[{"name":', '', 'application/json')).status).toBe(400)
    expect((await upload('', '')).status).toBe(400)
    expect((await upload('{"name":"x"}', '', 'application/json')).status).toBe(400)
    const missing = 'imp_01JD7W3T9X4QF5B8S2M6K0N1PZ'
    for (const [method, path] of [
      ['GET', `/api/imports/${missing}`],
      ['DELETE', `/api/imports/${missing}`],
      ['POST', `/api/imports/${missing}/commit`],
    ] as const) {
      expect((await api.call(method, path)).status).toBe(404)
    }
    const res = await upload(CSV)
    expect((await api.call('DELETE', `/api/imports/${res.body.id}`)).status).toBe(204)
  })
})

describe('exports', () => {
  it('exports CSV that imports back to the same components', async () => {
    await api.call('POST', `/api/imports/${(await upload(CSV)).body.id}/commit`)
    await api.call('POST', '/api/components', { body: { name: '=cmd|calc', ipn: 'EVIL-1' } })
    const before = (await api.call('GET', '/api/components?sort=ipn')).body
    const csv = await api.call('GET', '/api/exports/components?format=csv')
    expect(csv.headers.get('content-type')).toContain('text/csv')
    expect(csv.text).toContain("'=cmd|calc")
    for (const c of before) await api.call('DELETE', `/api/components/${c.id}/purge`)
    const again = await upload(csv.text)
    expect(again.body.summary).toEqual({ create: 3, update: 0, invalid: 0 })
    await api.call('POST', `/api/imports/${again.body.id}/commit`)
    const after = (await api.call('GET', '/api/components?sort=ipn')).body
    const strip = (c: Record<string, unknown>) => ({ ipn: c.ipn, name: c.name, description: c.description, category: c.category, tags: c.tags, mpns: c.mpns, parameters: c.parameters, status: c.status })
    expect(after.map(strip)).toEqual(before.map(strip))
  })

  it('exports JSON and a backup SQLite file', async () => {
    await api.call('POST', '/api/components', { body: { name: 'A' } })
    const json = await api.call('GET', '/api/exports/components')
    expect(json.body).toHaveLength(1)
    const res = await api.call('GET', '/api/exports/backup')
    expect(res.status).toBe(200)
    expect(res.text.startsWith('SQLite format 3')).toBe(true)
    expect((await api.call('GET', '/api/exports/components?format=xml')).status).toBe(400)
  })
})
