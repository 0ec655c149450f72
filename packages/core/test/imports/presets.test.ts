import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { detectPreset, presetSource, proposeMapping, unknownColumns, type PresetId } from '../../src/imports/presets'
import { readRowInput } from '../../src/imports/row-input'

/** The header row of one of the peers' export fixtures (packages/api-server/test/fixtures/imports/README.md says where each comes from). */
function header(name: string): string[] {
  const text = readFileSync(new URL(`../../../api-server/test/fixtures/imports/${name}`, import.meta.url), 'utf8')
  if (name.endsWith('.json')) return [...new Set((JSON.parse(text) as Array<Record<string, unknown>>).flatMap((row) => Object.keys(row)))]
  const line = text.split(/\r?\n/)[0]!
  const delimiter = name.startsWith('partdb') ? ';' : ','
  // The peers quote a header cell holding a space, the delimiter or a quote.
  return (line.match(new RegExp(`("(?:[^"]|"")*"|[^${delimiter}]*)(?:${delimiter}|$)`, 'g')) ?? [])
    .filter((cell, i, all) => i < all.length - 1 || cell !== '')
    .map((cell) => cell.replace(new RegExp(`${delimiter}$`), ''))
    .map((cell) => (cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell))
}

describe('presets: each peer export is recognised and every column it writes is known', () => {
  const files: Array<[string, PresetId]> = [
    ['inventree-parts.csv', 'inventree-parts'],
    ['inventree-manufacturer-parts.csv', 'inventree-manufacturer-parts'],
    ['inventree-supplier-parts.csv', 'inventree-supplier-parts'],
    ['inventree-companies.csv', 'inventree-companies'],
    ...(['simple', 'extended', 'full'] as const).flatMap((level) => [`partdb-${level}.csv`, `partdb-${level}.json`].map((name): [string, PresetId] => [name, 'partdb'])),
  ]
  for (const [name, preset] of files) {
    it(name, () => {
      const columns = header(name)
      expect(columns.length).toBeGreaterThan(3)
      expect(detectPreset(columns)).toBe(preset)
      expect(unknownColumns(columns, preset)).toEqual([])
      expect(presetSource(preset)).toBe(preset === 'partdb' ? 'partdb' : 'inventree')
    })
  }
})

describe('presets: the mapping each peer file gets', () => {
  it('InvenTree part export: the part key, its fields, its own stock, and the parameter columns after the serializer fields', () => {
    const columns = header('inventree-parts.csv')
    const mapping = proposeMapping(columns, 'inventree-parts')
    expect(mapping).toMatchObject({ ID: 'sourceKey', Name: 'name', IPN: 'ipn', Description: 'description', Keywords: 'tags', Category: 'ignore', 'Category Name': 'category', Active: 'status', 'In Stock': 'quantity', 'Total Stock': 'ignore', 'Full name': 'ignore', Units: 'ignore', Link: 'ignore' })
    expect(columns.filter((c) => mapping[c] === 'parameter')).toEqual(['Resistance', 'Tolerance', 'Capacitance', 'Rated Voltage', 'Channel'])
    // A parameter template named like a serializer field is still a parameter: it comes after them.
    expect(proposeMapping(['ID', 'Name', 'IPN', 'Active', 'Variant Stock', 'Status'], 'inventree-parts').Status).toBe('parameter')
  })

  it('InvenTree manufacturer-part export: the part and the manufacturer by key', () => {
    expect(proposeMapping(header('inventree-manufacturer-parts.csv'), 'inventree-manufacturer-parts')).toEqual({
      ID: 'ignore',
      'Base Part': 'partKey',
      Manufacturer: 'manufacturerKey',
      Description: 'ignore',
      MPN: 'partNumber',
      Link: 'ignore',
      'Barcode Hash': 'ignore',
      Notes: 'ignore',
    })
  })

  it("InvenTree supplier-part export: the part by key (its name and IPN beside it ignored), the manufacturer by name, the supplier's columns ignored", () => {
    const columns = header('inventree-supplier-parts.csv')
    const mapping = proposeMapping(columns, 'inventree-supplier-parts')
    expect(mapping).toMatchObject({ 'Base Part': 'partKey', 'Manufacturer.Company name': 'manufacturer', MPN: 'partNumber', 'Part.IPN': 'ignore', 'Part.Name': 'ignore', 'Part.Description': 'ignore', SKU: 'ignore', Supplier: 'ignore', 'Supplier.Company name': 'ignore', Packaging: 'ignore', 'Pack Quantity': 'ignore', 'In Stock': 'ignore' })
    expect(columns.filter((c) => !['partKey', 'manufacturer', 'partNumber'].includes(mapping[c]!)).every((c) => mapping[c] === 'ignore')).toBe(true)
    // Without a part key, the part's IPN and name are what names the part.
    expect(proposeMapping(['SKU', 'Supplier', 'Part.IPN', 'Part.Name', 'MPN'], 'inventree-supplier-parts')).toMatchObject({ 'Part.IPN': 'ipn', 'Part.Name': 'name' })
  })

  it('InvenTree company export: the key and the name, nothing else', () => {
    const columns = header('inventree-companies.csv')
    const mapping = proposeMapping(columns, 'inventree-companies')
    expect(mapping).toMatchObject({ ID: 'sourceKey', 'Company name': 'name' })
    expect(columns.filter((c) => mapping[c] !== 'ignore')).toEqual(['ID', 'Company name'])
  })

  it('Part-DB full CSV: id, MPN, manufacturer by name, category path, lots, parameters, KiCad fields; the rest ignored', () => {
    const columns = header('partdb-full.csv')
    const mapping = proposeMapping(columns, 'partdb')
    expect(mapping).toMatchObject({
      id: 'sourceKey',
      name: 'name',
      ipn: 'ipn',
      manufacturer_product_number: 'partNumber',
      manufacturing_status: 'status',
      'manufacturer.name': 'manufacturer',
      'manufacturer.full_name': 'ignore',
      'manufacturer.address': 'ignore',
      'manufacturer.phone_number': 'ignore',
      'manufacturer.fax_number': 'ignore',
      'manufacturer.email_address': 'ignore',
      'manufacturer.website': 'ignore',
      'manufacturer.comment': 'ignore',
      'category.full_name': 'category',
      'category.name': 'ignore',
      'footprint.name': 'parameter',
      'partLots.0.amount': 'stock',
      'partLots.1.storage_location.full_name': 'stock',
      'parameters.0.value_typical': 'parameters',
      'parameters.0._type': 'parameters',
      'eda_info.kicad_symbol': 'symbols',
      'eda_info.kicad_footprint': 'footprints',
      'eda_info.exclude_from_sim': 'excludeFromSim',
      total_instock: 'ignore',
      'orderdetails.0.supplierpartnr': 'ignore',
      'partUnit.unit': 'ignore',
    })
  })

  it('Part-DB simple level: the total stock is the quantity, there being no lots', () => {
    expect(proposeMapping(header('partdb-simple.csv'), 'partdb')).toMatchObject({ total_instock: 'quantity', 'category.full_name': 'category', 'manufacturer.name': 'manufacturer' })
  })

  it('an unknown column: ignored in a peer file, a parameter in a spreadsheet and in complib’s own export', () => {
    expect(proposeMapping(['name', 'manufacturer_product_number', 'Colour'], 'partdb').Colour).toBe('ignore')
    expect(unknownColumns(['name', 'manufacturer_product_number', 'Colour'], 'partdb')).toEqual(['Colour'])
    expect(proposeMapping(['ID', 'Base Part', 'Manufacturer', 'MPN', 'Colour'], 'inventree-manufacturer-parts').Colour).toBe('ignore')
    expect(proposeMapping(['Name', 'Colour'], 'spreadsheet').Colour).toBe('parameter')
    expect(proposeMapping(['id', 'ipn', 'mpns', 'Colour'], 'complib').Colour).toBe('parameter')
  })
})

describe('Part-DB parameters and lots, read from a row', () => {
  const read = (cells: Record<string, unknown>) => {
    const columns = Object.keys(cells)
    return readRowInput(cells as never, proposeMapping(columns, 'partdb'))
  }

  it('a JSON parameter by its name whatever its discriminator; typical, range, text each with the unit; formatted only when nothing else', () => {
    const { input, errors } = read({
      name: 'X',
      manufacturer_product_number: 'X1',
      parameters: [
        { _type: 'Part', name: 'A', value_typical: 5.0, unit: 'V' },
        { type: 'parameter', name: 'B', value_min: -40.0, value_max: 85.0, unit: '°C' },
        { name: 'C', value_min: 3.0, value_typical: null, value_max: null, unit: 'V' },
        { name: 'D', value_text: '24', unit: 'AWG', group: 'Mechanical', symbol: 'd', eda_visibility: true, id: 9 },
        { name: 'E', formatted: '12 mm' },
        { name: 'F', value_text: '' },
      ],
    })
    expect(errors).toEqual([])
    expect(input.fields.parameters).toEqual([
      { type: 'A', value: '5', unit: 'V' },
      { type: 'B', value: '-40..85', unit: '°C' },
      { type: 'C', value: '3..', unit: 'V' },
      { type: 'D', value: '24', unit: 'AWG' },
      { type: 'E', value: '12 mm' },
    ])
  })

  it('a unit without a value: a row error naming the JSON column and the parameter', () => {
    const { errors } = read({ name: 'X', manufacturer_product_number: 'X1', parameters: [{ name: 'A', value_typical: null, value_text: '', unit: 'V' }] })
    expect(errors).toEqual([{ path: 'parameters', column: 'parameters', message: 'column "parameters": parameter "A" has the unit "V" but no value: value_typical, value_min, value_max and value_text are all empty' }])
  })

  it('lots in one place add up; a lot without a place is Unsorted', () => {
    const { input, errors } = read({
      name: 'X',
      manufacturer_product_number: 'X1',
      partLots: [
        { amount: 10.0, storage_location: { name: 'Bin 3', full_name: 'Shelf A->Bin 3' } },
        { amount: 5.0, storage_location: { name: 'Bin 3', full_name: 'Shelf A->Bin 3' } },
        { amount: 2.0, storage_location: null, instock_unknown: false },
      ],
    })
    expect(errors).toEqual([])
    expect(input.stock).toEqual([
      { path: ['Shelf A', 'Bin 3'], quantity: 15 },
      { path: ['Unsorted'], quantity: 2 },
    ])
  })
})

describe('supplier offers in an export', () => {
  it('are read, never imported: the column is ignored, not made a parameter', () => {
    for (const preset of ['complib', 'spreadsheet'] as const) {
      expect(proposeMapping(['name', 'offers', 'offers.0.supplier', 'Resistance'], preset)).toMatchObject({ offers: 'ignore', 'offers.0.supplier': 'ignore' })
    }
  })
})
