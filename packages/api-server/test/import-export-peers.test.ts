import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

const fixture = (name: string) => readFileSync(new URL(`./fixtures/imports/${name}`, import.meta.url))
const post = (body: string | Buffer, json: boolean, query = '') =>
  api.call('POST', `/api/imports${query}`, { rawBody: body, headers: { 'content-type': json ? 'application/json' : 'text/csv' } })
const upload = (name: string, query = '') => post(fixture(name), name.endsWith('.json'), `?name=${name}${query}`)

/** Uploads and commits with the proposed mapping, untouched. */
async function importAsIs(name: string, preset: string) {
  const session = await upload(name)
  expect(session.status, session.text).toBe(201)
  expect(session.body.preset).toBe(preset)
  expect(session.body.errors).toEqual([])
  const committed = await api.call('POST', `/api/imports/${session.body.id}/commit`)
  expect(committed.status, committed.text).toBe(200)
  return session.body
}

type Component = Record<string, any>
const all = async (): Promise<Component[]> => api.ok('GET', '/api/components?limit=100')
const byName = async (name: string): Promise<Component> => {
  const found = ((await api.ok('GET', `/api/components?q=${encodeURIComponent(name)}`)) as Component[]).find((c) => c.name === name)
  expect(found, name).toBeDefined()
  return found!
}
const stock = async (id: string) => ((await api.ok('GET', `/api/components/${id}/locations`)) as Array<{ path: string; quantity: number }>).map((s) => [s.path, s.quantity])

/** What every Part-DB export level says of the six parts (fixtures/imports/README.md). */
const PARTDB_CATEGORIES: Record<string, string> = {
  'R 10k 0603': 'Passives/Resistors/Thick film',
  'C 100n 0603': 'Passives/Capacitors',
  '2N7002': 'Discretes/Transistors',
  BC547: 'Discretes/Transistors',
  LM358: 'ICs/Amplifiers',
  'Hookup wire 24AWG black': 'Electromechanical/Wire',
}
const PACKAGES: Record<string, string | undefined> = { 'R 10k 0603': '0603', 'C 100n 0603': '0603', '2N7002': 'SOT-23', BC547: 'TO-92', LM358: 'SOIC-8', 'Hookup wire 24AWG black': undefined }
/** The parameters only the full level carries, after the footprint's Package. */
const FULL_PARAMETERS: Record<string, Array<Record<string, string>>> = {
  'R 10k 0603': [
    { type: 'Resistance', value: '10000', unit: 'Ω' },
    { type: 'Tolerance', value: '1', unit: '%' },
    { type: 'Power rating', value: '1/10', unit: 'W' },
  ],
  'C 100n 0603': [
    { type: 'Capacitance', value: '100', unit: 'nF' },
    { type: 'Rated voltage', value: '50', unit: 'V' },
    { type: 'Operating temperature', value: '-55..125', unit: '°C' },
    { type: 'Dielectric', value: 'X7R' },
  ],
  '2N7002': [
    { type: 'Channel', value: 'N' },
    { type: 'Drain-source voltage', value: '..60', unit: 'V' },
  ],
  BC547: [],
  LM358: [{ type: 'Supply voltage', value: '15', unit: 'V' }],
  'Hookup wire 24AWG black': [{ type: 'Conductor size', value: '24', unit: 'AWG' }],
}
const MPNS: Record<string, [string, string]> = {
  'R 10k 0603': ['Yageo', 'RC0603FR-0710KL'],
  'C 100n 0603': ['Murata', 'GRM188R71H104KA93D'],
  '2N7002': ['onsemi', '2N7002LT1G'],
  BC547: ['onsemi', 'BC547BTA'],
  LM358: ['Texas Instruments', 'LM358DR'],
  'Hookup wire 24AWG black': ['Alpha Wire', '3051 BK005'],
}
const IPNS: Record<string, string | null> = { 'R 10k 0603': null, 'C 100n 0603': 'C-0001', '2N7002': 'Q-0001', BC547: 'Q-0002', LM358: 'U-0001', 'Hookup wire 24AWG black': 'W-0001' }
const STATUSES: Record<string, string> = { 'R 10k 0603': 'active', 'C 100n 0603': 'active', '2N7002': 'nrnd', BC547: 'obsolete', LM358: 'nrnd', 'Hookup wire 24AWG black': 'active' }
const TAGS: Record<string, string[]> = { 'R 10k 0603': ['smd', 'resistor'], 'C 100n 0603': ['smd', 'capacitor'], '2N7002': ['mosfet'], BC547: [], LM358: ['opamp'], 'Hookup wire 24AWG black': ['wire'] }
/** Stock per part lot: two lots in one bin add up, a lot without a place goes to Unsorted, a lot of unknown amount (0 in the file) holds nothing. */
const LOTS: Record<string, Array<[string, number]>> = {
  'R 10k 0603': [['Shelf A / Bin 3', 1200]],
  'C 100n 0603': [['Shelf A / Bin 4', 4000]],
  '2N7002': [],
  BC547: [],
  LM358: [['Unsorted', 35]],
  'Hookup wire 24AWG black': [['Drawer', 12]],
}
/** The simple level has no lots, only each part's total. */
const TOTALS: Record<string, Array<[string, number]>> = Object.fromEntries(
  Object.entries(LOTS).map(([name, lots]) => {
    const total = lots.reduce((n, [, q]) => n + q, 0)
    return [name, total ? [['Unsorted', total]] : []]
  }),
)

describe('Part-DB exports at each level, imported with zero manual mapping', () => {
  for (const level of ['simple', 'extended', 'full'] as const) {
    for (const format of ['csv', 'json'] as const) {
      it(`${level} ${format}: categories, MPNs, parameters with units, stock lots, status, ipn`, async () => {
        const name = `partdb-${level}.${format}`
        const session = await importAsIs(name, 'partdb')
        if (format === 'csv') expect(session).toMatchObject({ delimiter: ';', encoding: 'utf-8' })
        expect(session.source).toBe('partdb')
        // Nothing the preset does not know becomes a parameter.
        // (A CSV has a `footprint` column too: the cell of a part without a footprint.)
        expect(Object.keys(session.mapping).filter((column) => session.mapping[column] === 'parameter')).toEqual(format === 'csv' ? ['footprint.name', 'footprint'] : ['footprint'])
        const components = await all()
        expect(components.map((c) => c.name).sort()).toEqual(Object.keys(PARTDB_CATEGORIES).sort())
        for (const part of Object.keys(PARTDB_CATEGORIES)) {
          const c = await byName(part)
          expect(c.category, part).toBe(PARTDB_CATEGORIES[part])
          const pkg = PACKAGES[part] ? [{ type: 'Package', value: PACKAGES[part] }] : []
          expect(c.parameters, part).toEqual(level === 'full' ? [...pkg, ...FULL_PARAMETERS[part]!] : pkg)
          if (level === 'simple') {
            // The simple level names no MPN, IPN, status or tags.
            expect(c.mpns, part).toEqual([])
            expect(c.ipn, part).toMatch(/^CMP-/)
            expect(c.tags, part).toEqual([])
            expect(await stock(c.id), part).toEqual(TOTALS[part])
          } else {
            const [manufacturer, partNumber] = MPNS[part]!
            expect(c.mpns, part).toEqual([{ manufacturer, partNumber }])
            if (IPNS[part]) expect(c.ipn, part).toBe(IPNS[part])
            else expect(c.ipn, part).toMatch(/^CMP-/)
            expect(c.status, part).toBe(STATUSES[part])
            expect(c.tags, part).toEqual(TAGS[part])
            expect(await stock(c.id), part).toEqual(LOTS[part])
          }
        }
        // The manufacturer's own columns (address, phone, …) are no part's parameters.
        expect(components.flatMap((c) => c.parameters.map((p: { type: string }) => p.type)).filter((t: string) => /address|phone|fax|mail|website|comment/i.test(t))).toEqual([])
        if (level !== 'simple') expect((await api.ok('GET', '/api/locations/tree')).map((l: { name: string }) => l.name).sort()).toEqual(['Drawer', 'Shelf A', 'Unsorted'])
      })
    }
  }

  for (const file of ['partdb-full.csv', 'partdb-full.json']) {
    it(`${file}: the KiCad symbol and footprint of a part are linked, its simulation flag read`, async () => {
      await importAsIs(file, 'partdb')
      const lm358 = await byName('LM358')
      expect(lm358.symbols.map((s: { name: string }) => s.name)).toEqual(['LM358'])
      expect(lm358.footprints.map((s: { name: string }) => s.name)).toEqual(['SOIC-8_3.9x4.9mm_P1.27mm'])
      expect(lm358.excludeFromSim).toBe(true)
    })
  }

  it('any other JSON file keeps a nested object whole: where text is expected it is a row error, not columns of its own', async () => {
    const session = await post(JSON.stringify([{ name: { first: 'B' }, ipn: 'B-1' }]), true)
    expect(session.body.columns).toEqual(['name', 'ipn'])
    expect(session.body.errors).toEqual([{ row: 2, path: 'name', message: expect.stringMatching(/column "name": a object cannot be placed/) }])
  })

  it('a parameter with a unit but no value is a row error naming the column, and the commit changes nothing', async () => {
    const file = 'name;manufacturer_product_number;parameters.0.name;parameters.0.value_typical;parameters.0.unit;parameters.0.value_text\nR1;RC0603FR-0710KL;Resistance;;Ω;\nR2;RC0603FR-072K2L;Resistance;2200;Ω;\n'
    const session = await post(file, false)
    expect(session.body.preset).toBe('partdb')
    expect(session.body.errors).toEqual([{ row: 2, path: 'parameters', message: expect.stringMatching(/^column "parameters\.0\.unit": parameter "Resistance" has the unit "Ω" but no value/) }])
    const refused = await api.call('POST', `/api/imports/${session.body.id}/commit`)
    expect(refused.status).toBeGreaterThanOrEqual(400)
    expect(refused.status).toBeLessThan(500)
    expect(await all()).toEqual([])
  })

  it('an older Part-DB writes each parameter with type "parameter": the name stays the name', async () => {
    const file = 'name;manufacturer_product_number;parameters.0.type;parameters.0.name;parameters.0.value_typical;parameters.0.unit\nR1;RC0603FR-0710KL;parameter;Resistance;10000;Ω\n'
    const session = await post(file, false)
    expect(session.body.errors).toEqual([])
    await api.ok('POST', `/api/imports/${session.body.id}/commit`)
    expect((await byName('R1')).parameters).toEqual([{ type: 'Resistance', value: '10000', unit: 'Ω' }])
  })

  it('a fractional lot amount is a row error naming its column, never rounded', async () => {
    const file = 'name;manufacturer_product_number;partLots.0.amount;partLots.0.storage_location.full_name\nWire;3051 BK005;2.5;Drawer\n'
    const session = await post(file, false)
    expect(session.body.errors).toEqual([{ row: 2, path: 'stock', message: expect.stringMatching(/^column "partLots\.0\.amount": stock quantity "2\.5" is not a whole number/) }])
  })

  it('a column Part-DB does not write is ignored and listed, not made a parameter', async () => {
    const file = 'name;manufacturer_product_number;my_own_column\nR1;RC0603FR-0710KL;whatever\n'
    const session = await post(file, false)
    expect(session.body).toMatchObject({ preset: 'partdb', unknownColumns: ['my_own_column'], mapping: { my_own_column: 'ignore' } })
    await api.ok('POST', `/api/imports/${session.body.id}/commit`)
    expect((await byName('R1')).parameters).toEqual([])
  })
})

describe('InvenTree part export, imported with zero manual mapping', () => {
  it('parts, categories, parameters, status and stock', async () => {
    const session = await importAsIs('inventree-parts.csv', 'inventree-parts')
    expect(session.source).toBe('inventree')
    expect(session.unknownColumns).toEqual([])
    expect(session.mapping).toMatchObject({ ID: 'sourceKey', Name: 'name', IPN: 'ipn', Description: 'description', Keywords: 'tags', Category: 'ignore', 'Category Name': 'category', Active: 'status', 'In Stock': 'quantity', 'Total Stock': 'ignore', Link: 'ignore' })
    expect(Object.entries(session.mapping).filter(([, target]) => target === 'parameter').map(([column]) => column)).toEqual(['Resistance', 'Tolerance', 'Capacitance', 'Rated Voltage', 'Channel'])
    const expected: Array<[string, string | null, string, string, string, string[], Array<Record<string, string>>, number]> = [
      ['R 10k 0603', 'R-0001', 'Resistors', 'active', 'Thick film resistor 10k 1% 0603', ['smd', 'resistor'], [{ type: 'Resistance', value: '10k' }, { type: 'Tolerance', value: '1%' }], 1200],
      ['R 4k7 0603', 'R-0002', 'Resistors', 'active', 'Thick film resistor 4k7 1% 0603', ['smd', 'resistor'], [{ type: 'Resistance', value: '4.7k' }, { type: 'Tolerance', value: '1%' }], 800],
      ['C 100n 0603', 'C-0001', 'Capacitors', 'active', 'MLCC 100nF 50V X7R 0603', ['smd', 'capacitor'], [{ type: 'Capacitance', value: '100nF' }, { type: 'Rated Voltage', value: '50V' }], 4000],
      ['C 10u 0805', 'C-0002', 'Capacitors', 'active', 'MLCC 10uF 16V X5R 0805', [], [{ type: 'Capacitance', value: '10uF' }, { type: 'Rated Voltage', value: '16V' }], 0],
      ['2N7002', 'Q-0001', 'Transistors', 'active', 'N-channel MOSFET 60V 115mA SOT-23', ['mosfet'], [{ type: 'Channel', value: 'N' }], 150],
      ['BC547', null, 'Transistors', 'obsolete', 'NPN transistor 45V TO-92', [], [], 0],
      ['LM358', 'U-0001', 'Amplifiers', 'active', 'Dual op-amp SOIC-8', ['opamp', 'dual'], [], 35],
      ['NE555', 'U-0002', 'Timers', 'active', 'Timer SOIC-8', [], [], 12],
    ]
    expect((await all()).map((c) => c.name).sort()).toEqual(expected.map(([name]) => name).sort())
    for (const [name, ipn, category, status, description, tags, parameters, quantity] of expected) {
      const c = await byName(name)
      expect(c, name).toMatchObject({ category, status, description, tags, parameters, mpns: [] })
      if (ipn) expect(c.ipn, name).toBe(ipn)
      else expect(c.ipn, name).toMatch(/^CMP-/)
      expect(await stock(c.id), name).toEqual(quantity ? [['Unsorted', quantity]] : [])
    }
  })

  it('the user can still change any proposed column', async () => {
    const session = await upload('inventree-parts.csv')
    const patched = await api.call('PATCH', `/api/imports/${session.body.id}`, { body: { mapping: { Category: 'category', 'Category Name': 'ignore', Channel: 'ignore' } } })
    expect(patched.status, patched.text).toBe(200)
    expect(patched.body.preview[0].input.category).toBe('4')
  })

  it("another of InvenTree's exports is recognised as its own, and none of its columns becomes a parameter", async () => {
    for (const [name, preset] of [
      ['inventree-supplier-parts.csv', 'inventree-supplier-parts'],
      ['inventree-manufacturer-parts.csv', 'inventree-manufacturer-parts'],
      ['inventree-companies.csv', 'inventree-companies'],
    ] as const) {
      const session = await upload(name)
      expect(session.body, name).toMatchObject({ preset, source: 'inventree', unknownColumns: [] })
      expect(Object.values(session.body.mapping), name).not.toContain('parameter')
    }
  })
})

describe('a plain spreadsheet', () => {
  it('tab-separated Windows-1252, unit from the header, Type stays a parameter, repeated rows merge', async () => {
    const session = await upload('spreadsheet.tsv')
    expect(session.body).toMatchObject({ preset: 'spreadsheet', delimiter: '\t', encoding: 'windows-1252', errors: [], source: null })
    expect(session.body.mapping).toMatchObject({ 'Part Number': 'partNumber', Manufacturer: 'manufacturer', Type: 'parameter', Qty: 'quantity', Location: 'location', Status: 'status' })
    expect(session.body.summary).toEqual({ create: 3, update: 0, unchanged: 0, invalid: 0 })
    const byMpn = await upload('spreadsheet.tsv', '&upsertKey=mpn')
    expect(byMpn.body.summary).toEqual({ create: 2, update: 0, unchanged: 0, invalid: 0 })
    await api.ok('POST', `/api/imports/${byMpn.body.id}/commit`)
    const [c] = (await api.ok('GET', '/api/components?q=GRM188R71C104KA01D')) as Component[]
    expect(c!.parameters).toEqual([
      { type: 'Type', value: 'MLCC' },
      { type: 'Capacitance', value: '0.1', unit: 'µF' },
      { type: 'Temp range', value: '-55..125 °C' },
    ])
    expect(await stock(c!.id)).toEqual([['Drawer 2', 4000]])
    expect((await api.ok('GET', '/api/components?q=CL10B104KB8NNNC'))[0].status).toBe('nrnd')
  })
})

describe('errors', () => {
  it('the session and a refused commit list every error, not the first 100', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => `P${i},maybe`).join('\n')
    const res = await post(`name,status\n${rows}\n`, false)
    expect(res.body.errors).toHaveLength(150)
    const refused = await api.call('POST', `/api/imports/${res.body.id}/commit`)
    expect(refused.body.errors).toHaveLength(150)
  })

  it('a status the import does not know is a row error naming the value', async () => {
    const res = await post('name;manufacturing_status\nA;sometimes\n', false)
    expect(res.body.errors).toEqual([{ row: 2, path: 'status', message: expect.stringMatching(/column "manufacturing_status": "sometimes" is not a status/) }])
  })
})
