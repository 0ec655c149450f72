import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

const fixture = (name: string) => readFileSync(new URL(`./fixtures/imports/${name}`, import.meta.url))
const upload = (name: string, query = '') =>
  api.call('POST', `/api/imports?name=${name}${query}`, { rawBody: fixture(name), headers: { 'content-type': name.endsWith('.json') ? 'application/json' : 'text/csv' } })

/** Uploads and commits with the proposed mapping, untouched. */
async function importAsIs(name: string, query = '', preset?: string) {
  const session = await upload(name, query)
  expect(session.status, session.text).toBe(201)
  if (preset) expect(session.body.preset).toBe(preset)
  expect(session.body.errors).toEqual([])
  const committed = await api.call('POST', `/api/imports/${session.body.id}/commit`)
  expect(committed.status, committed.text).toBe(200)
  return session.body
}

const byName = async (name: string) => (await api.ok('GET', `/api/components?q=${encodeURIComponent(name)}`)).find((c: { name: string }) => c.name === name)
const stock = async (id: string) => (await api.ok('GET', `/api/components/${id}/locations`)).map((s: { path: string; quantity: number }) => [s.path, s.quantity])

describe('peer formats, imported with zero manual mapping', () => {
  it('InvenTree: the part export, then its manufacturer-part and supplier-part exports add every MPN', async () => {
    await importAsIs('inventree-parts.csv', '', 'inventree-parts')
    const r = await byName('R 10k 0603')
    expect(r).toMatchObject({ ipn: expect.stringMatching(/^CMP-\d+$/), category: 'Resistors', status: 'active', tags: ['smd', 'resistor'], description: 'Thick film resistor' })
    expect(r.parameters).toEqual([
      { type: 'Resistance', value: '10k' },
      { type: 'Tolerance', value: '1%' },
    ])
    expect(await stock(r.id)).toEqual([['Unsorted', 1200]])
    expect(await byName('2N7002')).toMatchObject({ ipn: 'Q-0001', status: 'obsolete', category: 'Transistors', parameters: [{ type: 'Channel', value: 'N' }] })

    const mfr = await upload('inventree-manufacturer-parts.csv', '&upsertKey=name')
    expect(mfr.body).toMatchObject({ preset: 'inventree-manufacturer-parts', errors: [], summary: { create: 0, update: 3, invalid: 0 } })
    expect(mfr.body.preview.find((p: { rows: number[] }) => p.rows.length === 2).rows).toEqual([2, 3])
    await api.ok('POST', `/api/imports/${mfr.body.id}/commit`)
    expect((await byName('R 10k 0603')).mpns).toEqual([
      { manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' },
      { manufacturer: 'Vishay', partNumber: 'CRCW060310K0FKEA' },
    ])
    expect((await byName('LM358')).mpns).toHaveLength(2)

    // The supplier parts name MPNs the library has already: nothing is added twice.
    await importAsIs('inventree-supplier-parts.csv', '&upsertKey=name', 'inventree-supplier-parts')
    expect((await byName('LM358')).mpns).toEqual([
      { manufacturer: 'Texas Instruments', partNumber: 'LM358DR' },
      { manufacturer: 'STMicroelectronics', partNumber: 'LM358DT' },
    ])
  })

  for (const file of ['partdb-parts.csv', 'partdb-parts.json']) {
    it(`Part-DB: ${file} (categories, stock per location, parameters with units, status, generated ipn)`, async () => {
      const session = await importAsIs(file, '', 'partdb')
      if (file.endsWith('.csv')) expect(session).toMatchObject({ delimiter: ';', encoding: 'utf-8' })
      const r = await byName('R 10k 0603')
      expect(r).toMatchObject({ ipn: expect.stringMatching(/^CMP-/), category: 'Passives/Resistors/Thick film', status: 'active', tags: ['smd', 'resistor'], mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' }] })
      expect(r.parameters).toEqual([
        { type: 'Package', value: '0603' },
        { type: 'Resistance', value: '10000', unit: 'Ω' },
        { type: 'Tolerance', value: '1%' },
      ])
      expect(await stock(r.id)).toEqual([['Shelf A / Bin 3', 1200]])
      expect(await byName('2N7002')).toMatchObject({ ipn: 'Q-0001', status: 'nrnd', category: 'Discretes/Transistors' })
      expect(await byName('BC547')).toMatchObject({ status: 'obsolete' })
      const lm358 = await byName('LM358')
      expect(lm358).toMatchObject({ status: 'nrnd', mpns: [{ manufacturer: 'Texas Instruments', partNumber: 'LM358DR' }] })
      expect(await stock(lm358.id)).toEqual([['Shelf A / Bin 3', 35]])
      expect((await api.ok('GET', '/api/locations/tree')).map((l: { name: string }) => l.name).sort()).toEqual(['Drawer', 'Shelf A'])
    })
  }

  it('a plain spreadsheet: tab-separated Windows-1252, unit from the header, Type stays a parameter, repeated rows merge', async () => {
    const session = await upload('spreadsheet.tsv')
    expect(session.body).toMatchObject({ preset: 'spreadsheet', delimiter: '\t', encoding: 'windows-1252', errors: [] })
    expect(session.body.mapping).toMatchObject({ 'Part Number': 'partNumber', Manufacturer: 'manufacturer', Type: 'parameter', Qty: 'quantity', Location: 'location', Status: 'status' })
    expect(session.body.summary).toEqual({ create: 3, update: 0, unchanged: 0, invalid: 0 })
    const byMpn = await upload('spreadsheet.tsv', '&upsertKey=mpn')
    expect(byMpn.body.summary).toEqual({ create: 2, update: 0, unchanged: 0, invalid: 0 })
    await api.ok('POST', `/api/imports/${byMpn.body.id}/commit`)
    const [c] = (await api.ok('GET', '/api/components?q=GRM188R71C104KA01D')) as Array<Record<string, any>>
    expect(c!.parameters).toEqual([
      { type: 'Type', value: 'MLCC' },
      { type: 'Capacitance', value: '0.1', unit: 'µF' },
      { type: 'Temp range', value: '-55..125 °C' },
    ])
    expect(await stock(c!.id)).toEqual([['Drawer 2', 4000]])
    expect((await api.ok('GET', '/api/components?q=CL10B104KB8NNNC'))[0].status).toBe('nrnd')
  })

  it('the user can still change any proposed column', async () => {
    const session = await upload('inventree-parts.csv')
    const patched = await api.call('PATCH', `/api/imports/${session.body.id}`, { body: { mapping: { Category: 'category', 'Category Name': 'ignore', Channel: 'ignore' } } })
    expect(patched.status, patched.text).toBe(200)
    expect(patched.body.preview[0].input.category).toBe('4')
  })

  it('the session and a refused commit list every error, not the first 100', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => `P${i},maybe`).join('\n')
    const res = await api.call('POST', '/api/imports', { rawBody: `name,status\n${rows}\n`, headers: { 'content-type': 'text/csv' } })
    expect(res.body.errors).toHaveLength(150)
    const refused = await api.call('POST', `/api/imports/${res.body.id}/commit`)
    expect(refused.body.errors).toHaveLength(150)
  })

  it('a status the import does not know is a row error naming the value', async () => {
    const res = await api.call('POST', '/api/imports', { rawBody: 'name;manufacturing_status\nA;sometimes\n', headers: { 'content-type': 'text/csv' } })
    expect(res.body.errors).toEqual([{ row: 2, path: 'status', message: expect.stringMatching(/column "manufacturing_status": "sometimes" is not a status/) }])
  })
})
