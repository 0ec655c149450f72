import { describe, expect, it } from 'vitest'
import { useTestApi, type CallResult } from './harness'

// A preview a user can trust. Every row's outcome, paged; every error; per-field counts.

const api = useTestApi()

const upload = (body: string) => api.call('POST', '/api/imports', { rawBody: body, headers: { 'content-type': 'text/csv' } })

/** 300 rows; every fifth row has an unknown status and every fifth (shifted by two) no name: 120 invalid rows, one error each. */
function _fileWithErrors(): string {
  const lines = ['ipn,Name,Status']
  for (let i = 0; i < 300; i++) {
    const ipn = `P-${String(i).padStart(3, '0')}`
    if (i % 5 === 0) lines.push(`${ipn},Part ${i},retired`)
    else if (i % 5 === 2) lines.push(`${ipn},,active`)
    else lines.push(`${ipn},Part ${i},active`)
  }
  return `${lines.join('\n')}\n`
}

/** Follows `Link: rel="next"` from the first page; every page's answer, in order. */
async function _pages(first: string) {
  const pages: CallResult[] = []
  let next: string | null = first
  while (next) {
    const res: CallResult = await api.call('GET', next)
    expect(res.status, res.text).toBe(200)
    pages.push(res)
    next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? null
    expect(pages.length).toBeLessThan(50)
  }
  return pages
}

describe('GET /api/imports/:id/rows', () => {
  it('pages through every row of a 300-row file and every one of its 120 errors', async () => {
    const session = await upload(_fileWithErrors())
    expect(session.status, session.text).toBe(201)
    expect(session.body.summary).toEqual({ create: 180, update: 0, unchanged: 0, invalid: 120 })
    expect(session.body.errors).toHaveLength(120)

    const pages = await _pages(`/api/imports/${session.body.id}/rows?limit=70`)
    expect(pages).toHaveLength(5)
    for (const page of pages) expect(page.headers.get('x-total-count')).toBe('300')
    const rows = pages.flatMap((p) => p.body)
    expect(rows.map((r) => r.row)).toEqual(Array.from({ length: 300 }, (_, i) => i + 2))
    const errors = rows.flatMap((r) => r.errors.map((e: { field: string; column: string | null; message: string }) => ({ row: r.row, ...e })))
    expect(errors).toHaveLength(120)
    expect(errors.map(({ row, field, message }) => ({ row, path: field, message }))).toEqual(session.body.errors)
    // Row 2 is the file's first part (i = 0): its status is unknown, and the error names the column it came from.
    expect(rows[0]).toEqual({ row: 2, outcome: 'invalid', rows: [2], componentId: null, ipn: null, name: null, changes: [], errors: [{ field: 'status', column: 'Status', message: expect.stringMatching(/column "Status": "retired" is not a status/) }] })
    expect(rows[2]).toMatchObject({ row: 4, outcome: 'invalid', errors: [{ field: 'name', column: 'Name' }] })
    expect(rows[1]).toEqual({ row: 3, outcome: 'create', rows: [3], componentId: null, ipn: 'P-001', name: 'Part 1', changes: [], errors: [] })

    const invalid = await _pages(`/api/imports/${session.body.id}/rows?outcome=invalid&limit=1000`)
    expect(invalid).toHaveLength(1)
    expect(invalid[0]!.headers.get('x-total-count')).toBe('120')
    expect(invalid[0]!.body.map((r: { row: number }) => r.row)).toEqual(rows.filter((r) => r.outcome === 'invalid').map((r) => r.row))
    // The refused commit lists all 120 too.
    const refused = await api.call('POST', `/api/imports/${session.body.id}/commit`)
    expect(refused.status).toBe(400)
    expect(refused.body.errors).toHaveLength(120)
  })

  it('counts, per field, the parts an update-heavy file creates it on, changes it on and leaves alone; unchanged parts are left alone at commit', async () => {
    const header = 'ipn,name,description,status,category,tags,manufacturer,partNumber,stock,Resistance'
    const part = (n: number, o: Partial<Record<'description' | 'category' | 'tags' | 'stock' | 'resistance', string>> = {}) =>
      `P-${n},Part ${n},${o.description ?? 'thick film'},active,${o.category ?? 'Passives/Resistors'},${o.tags ?? 'smd'},Yageo,RC-${n},${o.stock ?? 'Shelf/A=5'},${o.resistance ?? '10k'}`
    const first = await upload([header, ...Array.from({ length: 10 }, (_, i) => part(i + 1))].join('\n'))
    expect(first.body.mapping).toMatchObject({ ipn: 'ipn', name: 'name', stock: 'stock', partNumber: 'partNumber', Resistance: 'parameter' })
    expect((await api.call('POST', `/api/imports/${first.body.id}/commit`)).body.result).toEqual({ created: 10, updated: 0, unchanged: 0 })

    const second = await upload(
      [
        header,
        ...[1, 2, 3, 4].map((n) => part(n, { description: 'thin film' })),
        ...[5, 6].map((n) => part(n, { category: 'Passives/Resistors/Thick film', tags: 'smd; 0603' })),
        ...[7, 8, 9].map((n) => part(n)),
        part(10, { resistance: '22k', stock: 'Shelf/A=7' }),
        part(11),
        part(12, { stock: 'Shelf/B=1' }),
      ].join('\n'),
    )
    expect(second.status, second.text).toBe(201)
    expect(second.body.summary).toEqual({ create: 2, update: 7, unchanged: 3, invalid: 0 })
    const left = { create: 0, update: 0, unchanged: 10 }
    expect(second.body.fieldSummary).toEqual({
      name: { ...left, create: 2 },
      ipn: { ...left, create: 2 },
      description: { create: 2, update: 4, unchanged: 6 },
      status: { ...left, create: 2 },
      category: { create: 2, update: 2, unchanged: 8 },
      tags: { create: 2, update: 2, unchanged: 8 },
      parameters: { create: 2, update: 1, unchanged: 9 },
      mpns: { ...left, create: 2 },
      symbols: left,
      footprints: left,
      stock: { create: 2, update: 1, unchanged: 9 },
      attachments: left,
      kicadValue: left,
      excludeFromBom: left,
      excludeFromBoard: left,
      excludeFromSim: left,
      offers: left,
    })

    const rows = (await api.call('GET', `/api/imports/${second.body.id}/rows`)).body
    const p1 = (await api.call('GET', '/api/components/by-ipn/P-1')).body
    expect(rows[0]).toEqual({ row: 2, outcome: 'update', rows: [2], componentId: p1.id, ipn: 'P-1', name: 'Part 1', errors: [], changes: [{ field: 'description', before: 'thick film', after: 'thin film' }] })
    expect(rows[4].changes).toEqual([
      { field: 'category', before: 'Passives/Resistors', after: 'Passives/Resistors/Thick film' },
      { field: 'tags', before: ['smd'], after: ['smd', '0603'] },
    ])
    expect(rows[9].changes).toEqual([
      { field: 'parameters', before: [{ type: 'Resistance', value: '10k' }], after: [{ type: 'Resistance', value: '22k' }] },
      { field: 'stock', before: [{ path: 'Shelf/A', quantity: 5 }], after: [{ path: 'Shelf/A', quantity: 7 }] },
    ])
    const unchanged = await api.call('GET', `/api/imports/${second.body.id}/rows?outcome=unchanged`)
    expect(unchanged.headers.get('x-total-count')).toBe('3')
    expect(unchanged.body.map((r: { ipn: string; changes: unknown[] }) => [r.ipn, r.changes])).toEqual([
      ['P-7', []],
      ['P-8', []],
      ['P-9', []],
    ])
    const creates = (await api.call('GET', `/api/imports/${second.body.id}/rows?outcome=create`)).body
    expect(creates.map((r: { ipn: string; componentId: null }) => [r.ipn, r.componentId])).toEqual([
      ['P-11', null],
      ['P-12', null],
    ])

    const committed = await api.call('POST', `/api/imports/${second.body.id}/commit`)
    expect(committed.body.result).toEqual({ created: 2, updated: 7, unchanged: 3 })
    // Left alone: no new version. Changed: one.
    expect((await api.call('GET', '/api/components/by-ipn/P-7')).body.version).toBe(p1.version)
    expect((await api.call('GET', '/api/components/by-ipn/P-1')).body).toMatchObject({ version: p1.version + 1, description: 'thin film' })
    // After the commit, a created row names its component.
    const after = (await api.call('GET', `/api/imports/${second.body.id}/rows?outcome=create`)).body
    expect(after[1]).toMatchObject({ ipn: 'P-12', componentId: (await api.call('GET', '/api/components/by-ipn/P-12')).body.id })
  })

  it('answers a bad query value with a 400 problem naming the parameter', async () => {
    const session = await upload(_fileWithErrors())
    const rows = `/api/imports/${session.body.id}/rows`
    for (const [query, parameter] of [
      ['limit=0', 'query.limit'],
      ['limit=1001', 'query.limit'],
      ['limit=ten', 'query.limit'],
      ['outcome=created', 'query.outcome'],
      ['cursor=%21%21', 'query.cursor'],
      [`cursor=${Buffer.from('[1]').toString('base64url')}`, 'query.cursor'],
    ] as const) {
      const res = await api.call('GET', `${rows}?${query}`)
      expect(res.status, `${query}: ${res.text}`).toBe(400)
      expect(res.headers.get('content-type')).toBe('application/problem+json')
      expect(res.body.errors.map((e: { path: string }) => e.path), query).toEqual([parameter])
    }
    expect((await api.call('GET', '/api/imports/imp_01M85TRN26Y33WWYT9ESEFYP1V/rows')).status).toBe(404)
  })

  it('lists every row of a merged part under its outcome, and a part whose rows conflict names the later row', async () => {
    const session = await upload('ipn,Name,Manufacturer,MPN,Description\nM-1,Merged,Yageo,RC-1,same\nM-1,Merged,Vishay,CRCW-1,same\nM-1,Merged,TI,X-1,different\n')
    const rows = (await api.call('GET', `/api/imports/${session.body.id}/rows`)).body
    expect(rows.map((r: { row: number; outcome: string; rows: number[] }) => [r.row, r.outcome, r.rows])).toEqual([
      [2, 'create', [2, 3]],
      [3, 'create', [2, 3]],
      [4, 'invalid', [4]],
    ])
    expect(rows[2].errors).toEqual([{ field: 'description', column: 'Description', message: 'differs from row 2, which has the same ipn' }])
  })
})
