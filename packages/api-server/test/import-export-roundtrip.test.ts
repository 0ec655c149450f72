import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from './harness'

let source: TestApi
let target: TestApi
beforeEach(async () => {
  source = await createTestApi()
  target = await createTestApi()
})
afterEach(async () => {
  await source.close()
  await target.close()
})

/** A library with everything a component can carry. */
async function seed(api: TestApi): Promise<void> {
  const sym = await api.ok('POST', '/api/symbols', { name: 'R', library: 'Device' }, 201)
  const sym2 = await api.ok('POST', '/api/symbols', { name: 'R_Small', library: 'Device' }, 201)
  const fp = await api.ok('POST', '/api/footprints', { name: 'R_0603_1608Metric', library: 'Resistor_SMD' }, 201)
  const fp2 = await api.ok('POST', '/api/footprints', { name: 'R_0805_2012Metric', library: 'Resistor_SMD' }, 201)
  const shelf = await api.ok('POST', '/api/locations', { name: 'Shelf A' }, 201)
  const bin = await api.ok('POST', '/api/locations', { name: 'Bin 3; small=parts', parentId: shelf.id }, 201)
  const drawer = await api.ok('POST', '/api/locations', { name: 'Drawer' }, 201)
  const r = await api.ok(
    'POST',
    '/api/components',
    {
      name: 'R 10k 0603, 1%',
      ipn: 'RES-00001',
      description: 'thick film; "quoted", with\nnewline',
      category: 'Passives/Resistors/Thick film',
      tags: ['smd', 'high voltage', 'a,b', 'x;y'],
      parameters: [
        { type: 'Resistance', value: '10k', unit: 'Ω' },
        { type: 'Tolerance', value: '1%' },
        { type: 'Type', value: 'thick film' },
      ],
      mpns: [
        { manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' },
        { manufacturer: 'Vishay', partNumber: 'CRCW060310K0FKEA' },
        { manufacturer: 'Panasonic', partNumber: 'ERJ-3EKF1002V' },
      ],
      symbols: [sym.id, sym2.id],
      footprints: [fp.id, fp2.id],
      kicadValue: '10k; 1%, "thick"',
      excludeFromBom: true,
      excludeFromSim: true,
    },
    201,
  )
  await api.ok('PUT', `/api/components/${r.id}/locations/${bin.id}`, { quantity: 1200 })
  await api.ok('PUT', `/api/components/${r.id}/locations/${drawer.id}`, { quantity: 5 })
  await api.ok('POST', '/api/attachments/from-url', { url: 'https://www.yageo.com/upload/media/product/RC0603.pdf', name: 'RC0603.pdf', componentId: r.id, kind: 'datasheet' }, 201)
  await api.ok('POST', '/api/attachments/from-url', { url: 'https://example.com/photo', name: 'photo.jpg', componentId: r.id, kind: 'image' }, 201)
  const q = await api.ok('POST', '/api/components', { name: '2N7002', ipn: 'Q-00001', category: 'Discretes/Transistors', tags: ['resistor'], parameters: [{ type: 'Channel', value: 'N-MOSFET' }], mpns: [{ manufacturer: 'onsemi', partNumber: '2N7002LT1G' }] }, 201)
  await api.ok('PATCH', `/api/components/${q.id}`, { status: 'obsolete', excludeFromBoard: true })
  await api.ok('POST', '/api/components', { name: '=SUM(A1)', ipn: 'EVIL-1', status: 'draft' }, 201)
  await api.ok('POST', '/api/components', { name: 'bare', ipn: 'BARE-1', description: null }, 201)
}

/** What an export says of each component, without ids, timestamps and versions. */
function content(exported: Array<Record<string, any>>): unknown[] {
  return exported
    .map((c) => ({
      ipn: c.ipn,
      name: c.name,
      description: c.description,
      status: c.status,
      category: c.category,
      tags: c.tags,
      parameters: c.parameters,
      mpns: c.mpns,
      symbols: c.symbols.map((s: any) => `${s.library}:${s.name}`),
      footprints: c.footprints.map((s: any) => `${s.library}:${s.name}`),
      stock: c.stock.map((s: any) => [s.path, s.quantity]).sort(),
      attachments: c.attachments.map((a: any) => [a.name, a.kind, a.url]).sort(),
      kicad: [c.kicadValue, c.excludeFromBom, c.excludeFromBoard, c.excludeFromSim],
    }))
    .sort((a, b) => (a.ipn < b.ipn ? -1 : 1))
}

async function roundTrip(format: 'json' | 'csv'): Promise<{ before: unknown[]; after: unknown[] }> {
  await seed(source)
  const before = (await source.call('GET', '/api/exports/components?format=json')).body
  const file = await source.call('GET', `/api/exports/components?format=${format}`)
  const session = await target.call('POST', '/api/imports', { rawBody: file.text, headers: { 'content-type': format === 'json' ? 'application/json' : 'text/csv' } })
  expect(session.status, session.text).toBe(201)
  expect(session.body.preset).toBe('complib')
  expect(session.body.errors).toEqual([])
  expect(session.body.summary).toEqual({ create: 4, update: 0, unchanged: 0, invalid: 0 })
  const committed = await target.call('POST', `/api/imports/${session.body.id}/commit`)
  expect(committed.status, committed.text).toBe(200)
  const after = (await target.call('GET', '/api/exports/components?format=json')).body
  return { before: content(before), after: content(after) }
}

describe('import round trip', () => {
  it('complib’s JSON export imported into an empty library exports the same content', async () => {
    const { before, after } = await roundTrip('json')
    expect((before[3] as { tags: string[] }).tags).toEqual(['smd', 'high voltage', 'a,b', 'x;y'])
    expect((before[3] as { kicad: unknown[] }).kicad).toEqual(['10k; 1%, "thick"', true, false, true])
    expect((before[2] as { kicad: unknown[] }).kicad).toEqual([null, false, true, false])
    expect(after).toEqual(before)
  })

  it('complib’s CSV export imported into an empty library exports the same content', async () => {
    const { before, after } = await roundTrip('csv')
    expect(after).toEqual(before)
  })

  it('a JSON list or object in a column that holds text is a row error, never stored as its JSON text', async () => {
    const res = await target.call('POST', '/api/imports', {
      rawBody: JSON.stringify([{ name: 'A', ipn: 'A-1', Notes: ['x', 'y'] }, { name: { first: 'B' }, ipn: 'B-1' }]),
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status, res.text).toBe(201)
    expect(res.body.summary.invalid).toBe(2)
    expect(res.body.errors).toEqual([
      { row: 2, path: 'parameter', message: expect.stringMatching(/column "Notes": a list cannot be placed/) },
      { row: 3, path: 'name', message: expect.stringMatching(/column "name": a object cannot be placed/) },
    ])
    expect((await target.call('POST', `/api/imports/${res.body.id}/commit`)).status).toBe(400)
    expect((await target.call('GET', '/api/components')).body).toEqual([])
  })

  it('a KiCad flag that is not true or false is a row error naming the column; yes/no and 1/0 read as flags', async () => {
    const csv = ['ipn,name,excludeFromBom,Exclude from sim', 'A-1,A,yes,0', 'B-1,B,maybe,', 'C-1,C,,TRUE'].join('\n')
    const res = await target.call('POST', '/api/imports', { rawBody: csv, headers: { 'content-type': 'text/csv' } })
    expect(res.status, res.text).toBe(201)
    expect(res.body.mapping).toMatchObject({ excludeFromBom: 'excludeFromBom', 'Exclude from sim': 'excludeFromSim' })
    expect(res.body.errors).toEqual([{ row: 3, path: 'excludeFromBom', message: expect.stringMatching(/column "excludeFromBom": "maybe" is not true or false/) }])
    await target.ok('PATCH', `/api/imports/${res.body.id}`, { mapping: { excludeFromBom: 'ignore' } })
    expect((await target.call('POST', `/api/imports/${res.body.id}/commit`)).status).toBe(200)
    const flags = async (ipn: string) => {
      const c = (await target.call('GET', `/api/components/by-ipn/${ipn}`)).body
      return [c.excludeFromBom, c.excludeFromSim]
    }
    expect([await flags('A-1'), await flags('B-1'), await flags('C-1')]).toEqual([
      [false, false],
      [false, false],
      [false, true],
    ])
  })

  it('a symbol that is not Library:Name, a bad stock quantity or an uploaded file without bytes is a row error', async () => {
    const res = await target.call('POST', '/api/imports', {
      rawBody: JSON.stringify([
        { name: 'A', ipn: 'A-1', symbols: ['LM358'] },
        { name: 'B', ipn: 'B-1', stock: [{ path: ['Shelf'], quantity: 1.5 }] },
        { name: 'C', ipn: 'C-1', attachments: [{ name: 'ds.pdf', kind: 'datasheet', url: null, sha256: 'ab' }] },
      ]),
      headers: { 'content-type': 'application/json' },
    })
    expect(res.body.errors.map((e: { row: number; path: string }) => [e.row, e.path])).toEqual([
      [2, 'symbols'],
      [3, 'stock'],
      [4, 'attachments'],
    ])
  })
})
