import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

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
    expect(res.body.summary).toEqual({ create: 2, update: 0, unchanged: 0, invalid: 0 })
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
    expect(byIpn.body.summary).toEqual({ create: 0, update: 1, unchanged: 1, invalid: 0 })
    await api.call('POST', `/api/imports/${byIpn.body.id}/commit`)
    expect((await api.call('GET', '/api/components/by-ipn/RES-00001')).body.description).toBe('thin film')
    const byMpn = await upload('Manufacturer,MPN,Description\nYageo,RC0603FR-074K7L,updated by mpn\n', '?upsertKey=mpn')
    expect(byMpn.body.summary).toEqual({ create: 0, update: 1, unchanged: 0, invalid: 0 })
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

  it('reads back an import session', async () => {
    const res = await api.call('POST', '/api/imports', { rawBody: 'name,ipn\nA,A-1\n', headers: { 'content-type': 'text/csv' } })
    const again = await api.call('GET', `/api/imports/${res.body.id}`)
    expect(again.body).toMatchObject({ id: res.body.id, rowCount: 1, status: 'pending' })
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

describe('imports of odd, oversized or repeated input', () => {
  it('an import with a column named constructor/valueOf/__proto__/hasOwnProperty missing from some rows is previewed, not a 5xx', async () => {
    for (const column of ['constructor', 'valueOf', '__proto__', 'hasOwnProperty', 'toString']) {
      const csv = await upload(`name,ipn,${column}\nA,C-${column}-1,1\nB,C-${column}-2\n`)
      expect(csv.status, `${column}: ${csv.text}`).toBe(201)
      expect(csv.body.columns).toEqual(['name', 'ipn', column])
      expect(csv.body.summary).toEqual({ create: 2, update: 0, unchanged: 0, invalid: 0 })
      expect(csv.body.preview.map((r: { input: { parameters?: unknown } }) => r.input.parameters)).toEqual([[{ type: column, value: '1' }], undefined])
      const json = await upload(`[{"name":"A","ipn":"J-${column}-1","${column}":"1"},{"name":"B","ipn":"J-${column}-2"}]`, '', 'application/json')
      expect(json.status, `${column}: ${json.text}`).toBe(201)
      expect(json.body.columns).toEqual(['name', 'ipn', column])
      // The stored session is read back from JSON (ordinary objects): PATCH and commit plan it again.
      const patched = await api.call('PATCH', `/api/imports/${json.body.id}`, { body: { upsertKey: 'ipn' } })
      expect(patched.status, patched.text).toBe(200)
      const committed = await api.call('POST', `/api/imports/${json.body.id}/commit`)
      expect(committed.status, committed.text).toBe(200)
      expect(committed.body.result).toEqual({ created: 2, updated: 0, unchanged: 0 })
    }
  })

  it('an import cell nested 5,000 levels deep is a 400 naming the row and column', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000)
    const res = await upload(`[{"name":"A"},{"name":"B","Notes":${deep}}]`, '', 'application/json')
    expect(res.status, res.text).toBe(400)
    expect(res.body.errors).toEqual([{ path: 'rows[3].Notes', message: expect.stringMatching(/nested deeper than 32/) }])
  })

  it('an import cell over 64 KiB is a 400 naming the row and column', async () => {
    const res = await upload(`name,ipn,Notes\nA,N-1,${'x'.repeat(64 * 1024 + 1)}\n`)
    expect(res.status, res.text).toBe(400)
    expect(res.body.errors).toEqual([{ path: 'rows[2].Notes', message: expect.stringMatching(/larger than 65536 bytes/) }])
  })

  it('an import over 100,000 rows or 3,000,000 non-empty cells is a 413 naming the limit, and nothing is kept', async () => {
    const rows = await upload(`name\n${Array.from({ length: 100_001 }, (_, i) => `p${i}`).join('\n')}\n`)
    expect(rows.status, rows.text).toBe(413)
    expect(rows.body.errors).toEqual([{ path: 'body', message: expect.stringMatching(/^the file has (100001|more than 100000) rows; an import takes at most 100000$/) }])
    // JSON, which reads faster than CSV: the budget is the same for both.
    const line = JSON.stringify(Object.fromEntries(Array.from({ length: 31 }, (_, j) => [`c${j}`, '1'])))
    const cells = await upload(`[${Array.from({ length: 96_775 }, () => line).join(',')}]`, '', 'application/json')
    expect(cells.status, cells.text).toBe(413)
    expect(cells.body.detail).toBe('the file has 3000025 non-empty cells; an import takes at most 3000000')
    expect(await api.storage.importRows.sessionsIn(['planning', 'pending'])).toEqual([])
  }, 30_000)

  it('a second commit of an import session is a 409 (parallel commits: exactly one 200)', async () => {
    // Keyed by MPN, with generated ipns: a second commit of the same plan conflicts with nothing.
    const rows = Array.from({ length: 50 }, (_, i) => `Part ${i},Yageo,PAR-${i}`)
    const res = await upload(`name,Manufacturer,MPN\n${rows.join('\n')}\n`, '?upsertKey=mpn')
    const answers = await Promise.all(Array.from({ length: 4 }, () => api.call('POST', `/api/imports/${res.body.id}/commit`)))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409])
    expect(answers.find((a) => a.status === 200)!.body.result).toEqual({ created: 50, updated: 0, unchanged: 0 })
    const session = (await api.call('GET', `/api/imports/${res.body.id}`)).body
    expect(session).toMatchObject({ status: 'committed', result: { created: 50, updated: 0 } })
    expect((await api.call('POST', `/api/imports/${res.body.id}/commit`)).status).toBe(409)
    expect((await api.call('PATCH', `/api/imports/${res.body.id}`, { body: { upsertKey: 'mpn' } })).status).toBe(409)
    expect((await api.call('GET', '/api/components?limit=100')).body).toHaveLength(50)
  })

  it('a commit refused for invalid rows leaves the session pending, so a fixed mapping commits', async () => {
    const res = await upload('ipn,Name,Status\nA-1,Part A,retired-ish\n')
    expect((await api.call('POST', `/api/imports/${res.body.id}/commit`)).status).toBe(400)
    expect((await api.call('GET', `/api/imports/${res.body.id}`)).body.status).toBe('pending')
    await api.call('PATCH', `/api/imports/${res.body.id}`, { body: { mapping: { Status: 'ignore' } } })
    expect((await api.call('POST', `/api/imports/${res.body.id}/commit`)).status).toBe(200)
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
    expect(again.body.summary).toEqual({ create: 3, update: 0, unchanged: 0, invalid: 0 })
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
    if (api.storage.name === 'postgres') {
      // A library on PostgreSQL is backed up with the database's own tools; the answer says so.
      expect([res.status, res.body.detail]).toEqual([501, expect.stringContaining('pg_dump')])
    } else {
      expect(res.status).toBe(200)
      expect(res.text.startsWith('SQLite format 3')).toBe(true)
    }
    expect((await api.call('GET', '/api/exports/components?format=xml')).status).toBe(400)
  })
})
