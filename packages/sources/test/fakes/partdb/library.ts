import type { ManufacturingStatus, PartdbAttachment, PartdbDb, PartdbEdaInfo, PartdbNode, PartdbOrderdetail, PartdbParameter, PartdbPart, PartdbPartLot } from './records'

/*
 * The generated library: deterministic, varied by the part's index. Records
 * keep the order Part-DB sorts them in (parameters by group and name,
 * attachments by name).
 */

/** A part of the generated library with offers and a manufacturing status. */
export const PARTDB_FAKE_REF = '4'

const node = (id: number, name: string, parent: number | null = null): PartdbNode => ({ id, name, parent, comment: '' })

/** A library of `count` parts, the same every time. */
export function partdbLibrary(count: number): PartdbDb {
  const db: PartdbDb = {
    baseCurrency: 'EUR',
    categories: [
      node(1, 'Passives'),
      node(2, 'Resistors', 1),
      node(3, 'Thin film', 2),
      node(4, 'Capacitors', 1),
      node(5, 'MLCC', 4),
      node(6, 'Semiconductors'),
      node(7, 'Amplifiers', 6),
      node(8, 'Op-amps', 7),
      node(9, 'Microcontrollers', 6),
      node(10, 'Connectors'),
      // A name with Part-DB's own path separator in it: only the parent chain gives its path right.
      node(11, 'In → Out adapters', 10),
      node(12, 'Électromécanique'),
      node(13, 'Relais ½-Brücke', 12),
      node(14, 'センサー', 6),
    ],
    storageLocations: [
      node(1, 'Lab'),
      node(2, 'Shelf A', 1),
      node(3, 'Drawer 1', 2),
      node(4, 'Drawer 2', 2),
      node(5, 'Shelf B', 1),
      node(6, 'Box ½', 5),
      node(7, 'Warehouse'),
      node(8, 'Rack 3', 7),
      node(9, 'Bin 12', 8),
      node(10, 'Büro'),
      node(11, '倉庫'),
    ],
    manufacturers: [node(1, 'Texas Instruments'), node(2, 'STMicroelectronics'), node(3, 'Murata'), node(4, 'Yageo'), node(5, 'Würth Elektronik'), node(6, 'ローム'), node(7, 'Nexperia')],
    suppliers: [node(1, 'DigiKey'), node(2, 'Mouser'), node(3, 'LCSC'), node(4, 'Reichelt')],
    footprints: [node(1, 'SOIC-8'), node(2, '0603'), node(3, 'LQFP-48'), node(4, 'TO-92')],
    currencies: [
      { id: 1, name: 'US Dollar', iso_code: 'USD' },
      { id: 2, name: 'Euro', iso_code: 'EUR' },
      { id: 3, name: 'Pound sterling', iso_code: 'GBP' },
    ],
    attachmentTypes: [node(1, 'Datasheet'), node(2, 'Picture'), node(3, '3D model'), node(4, 'Other')],
    parts: [],
  }
  const ids = { lot: 0, orderdetail: 0, pricedetail: 0, parameter: 0, attachment: 0 }
  for (let i = 0; i < count; i++) db.parts.push(generatedPart(i, ids))
  return db
}

const STATUSES: (ManufacturingStatus | null)[] = ['nrfnd', 'active', 'eol', 'discontinued', 'announced', '', null]
const TAGS = ['', 'smd,0603', ' analog , low-noise ,analog', 'THT', 'ürün,テスト,,']

interface Family {
  name: (n: string) => string
  mpn: (n: string) => string
  categories: number[]
  manufacturer: number
  footprint: number | null
  parameters: (i: number) => Omit<PartdbParameter, 'id'>[]
}

const param = (name: string, values: Partial<Omit<PartdbParameter, 'id' | 'name'>>): Omit<PartdbParameter, 'id'> => ({
  name,
  symbol: '',
  value_min: null,
  value_typical: null,
  value_max: null,
  unit: '',
  value_text: '',
  group: '',
  ...values,
})

const FAMILIES: Family[] = [
  {
    name: (n) => `LM358-${n}`,
    mpn: (n) => `LM358DR-${n}`,
    categories: [8, 7],
    manufacturer: 1,
    footprint: 1,
    parameters: () => [param('Channels', { value_text: '2' }), param('GBW', { value_typical: 0.7, unit: 'MHz' }), param('Supply voltage', { value_min: 3, value_max: 32, unit: 'V' })],
  },
  {
    name: (n) => `RC0603FR-07${n}KL`,
    mpn: (n) => `RC0603FR-07${n}KL`,
    categories: [3, 2],
    manufacturer: 4,
    footprint: 2,
    parameters: (i) => [param('Power', { value_max: 0.1, unit: 'W' }), param('Resistance', { value_typical: (i % 97) * 100 + 10, unit: 'Ω' }), param('Tolerance', { value_text: '±1%' })],
  },
  {
    name: (n) => `GRM188R71H${n}KA01D`,
    mpn: (n) => `GRM188R71H${n}KA01D`,
    categories: [5],
    manufacturer: 3,
    footprint: 2,
    parameters: () => [param('Capacitance', { value_typical: 100, unit: 'nF', value_text: 'X7R' }), param('Temperature', { value_min: -55, value_max: 125, unit: '°C' }), param('Voltage', { value_max: 50, unit: 'V' })],
  },
  {
    name: (n) => `STM32F103C8T${n}`,
    mpn: (n) => `STM32F103C8T6-${n}`,
    categories: [9],
    manufacturer: 2,
    footprint: 3,
    parameters: () => [param('Clock', { value_min: 8, value_typical: 72, unit: 'MHz', group: 'Timing' }), param('Core', { value_text: 'ARM Cortex-M3', group: 'Core' }), param('Flash', { value_typical: 64, unit: 'kB', group: 'Memory' }), param('VDD', { value_min: 2, value_typical: 3.3, value_max: 3.6, unit: 'V', group: 'Power' })],
  },
  {
    name: (n) => `Stecker ½″ №${n}`,
    mpn: (n) => `WE-${n}`,
    categories: [11, 10],
    manufacturer: 5,
    footprint: null,
    parameters: () => [param('Material', { value_text: 'PBT — schwarz' }), param('Pins', { value_typical: 4 })],
  },
  {
    name: (n) => `温度センサー ${n}`,
    mpn: (n) => `BD${n}G`,
    categories: [14, 13],
    manufacturer: 6,
    footprint: 4,
    parameters: () => [param('Accuracy', { value_max: 0.5, unit: '°C', value_text: 'typ. 0.2' }), param('Range', { value_min: -40, value_max: 125, unit: '°C' }), param('Resolution', { value_min: 0.0625, unit: '°C' })],
  },
]

/** Part-DB writes instants RFC 3339 with the server's offset; the even parts come in +02:00. */
function rfc3339(ms: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19)
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

function generatedPart(i: number, ids: { lot: number; orderdetail: number; pricedetail: number; parameter: number; attachment: number }): PartdbPart {
  const id = 3 * (i + 1) + ((i + 1) % 3)
  const n = String(i).padStart(3, '0')
  const family = FAMILIES[i % FAMILIES.length]!
  const name = family.name(n)
  const parameters = family.parameters(i).map((p) => ({ id: ++ids.parameter, ...p }))
  const orderdetails = Array.from({ length: [1, 2, 0][i % 3]! }, (_, k): PartdbOrderdetail => {
    const j = i + k
    const supplier = (j % 4) + 1
    const breaks = [1, 10, 100, 1000].slice(0, (j % 4) + 1)
    const perQuantity = j % 5 === 0 ? 100 : 1
    const currency = [null, 1, 3][j % 3]!
    return {
      id: ++ids.orderdetail,
      supplier,
      supplierpartnr: j % 11 === 10 ? '' : `${['DK', 'MO', 'C', 'RE'][supplier - 1]}-${name}`,
      supplier_product_url: j % 6 === 5 ? '' : `https://supplier${supplier}.example.com/p/${encodeURIComponent(name)}`,
      obsolete: j % 13 === 12,
      prices_includes_vat: supplier === 4 ? true : null,
      pricedetails: breaks.map((q, b) => ({
        id: ++ids.pricedetail,
        price: (((i % 50) + 1) * 0.137 * perQuantity * Math.pow(0.8, b)).toFixed(5),
        price_related_quantity: perQuantity,
        min_discount_quantity: q,
        // Now and then the largest break is quoted in euros, whatever the others are in.
        currency: j % 7 === 0 && b === breaks.length - 1 && b > 0 ? 2 : currency,
      })),
    }
  })
  const partLots = Array.from({ length: i % 4 }, (_, k): PartdbPartLot => {
    const j = i + k
    return {
      id: ++ids.lot,
      description: k === 0 ? '' : `Lot ${k}`,
      comment: '',
      amount: i % 17 === 0 && k === 0 ? 2.5 : (i * 37 + k * 11) % 500,
      instock_unknown: j % 8 === 7,
      storage_location: j % 10 === 9 ? null : ((i * 3 + k * 5) % 11) + 1,
      expiration_date: k === 2 ? '2025-01-01T00:00:00+00:00' : null,
      needs_refill: false,
    }
  })
  const slug = encodeURIComponent(name)
  const templates: Omit<PartdbAttachment, 'id'>[] = [
    // An external datasheet, on every third part also downloaded into Part-DB.
    { name: 'Datasheet', attachment_type: 1, external_path: `https://docs.example.com/ds/${slug}.pdf`, internal_path: i % 3 === 1 ? `%MEDIA%/part/${id}/ds-${id}.pdf` : null, original_filename: null, show_in_table: true },
    { name: 'Model', attachment_type: 3, external_path: null, internal_path: `%MEDIA%/part/${id}/model-${id}.x3d`, original_filename: 'model.x3d', show_in_table: false },
    i % 8 === 3
      ? { name: 'Notes', attachment_type: 4, external_path: null, internal_path: `%SECURE%/part/${id}/notes-${id}.pdf`, original_filename: 'notes.pdf', show_in_table: false }
      : { name: 'Product page', attachment_type: 4, external_path: `https://maker.example.com/products/${id}`, internal_path: null, original_filename: null, show_in_table: false },
    { name: 'Photo', attachment_type: 2, external_path: null, internal_path: `%MEDIA%/part/${id}/photo-${id}.jpg`, original_filename: 'photo.jpg', show_in_table: false },
  ]
  // Part-DB lists attachments by name.
  const attachments = templates
    .slice(0, i % 5)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((a) => ({ id: ++ids.attachment, ...a }))
  const base = Date.UTC(2026, 0, 1, 8)
  const eda: PartdbEdaInfo =
    i % 3 === 0
      ? { reference_prefix: 'U', value: name.slice(0, 20), visibility: true, exclude_from_bom: i % 2 === 0, exclude_from_board: null, exclude_from_sim: true, kicad_symbol: 'Amplifier_Operational:LM358', kicad_footprint: 'Package_SO:SOIC-8_3.9x4.9mm_P1.27mm' }
      : i % 3 === 1
        ? { reference_prefix: null, value: null, visibility: null, exclude_from_bom: null, exclude_from_board: null, exclude_from_sim: null, kicad_symbol: null, kicad_footprint: null }
        : { reference_prefix: '', value: '', visibility: null, exclude_from_bom: false, exclude_from_board: false, exclude_from_sim: null, kicad_symbol: '', kicad_footprint: 'Resistor_SMD:R_0603_1608Metric' }
  return {
    id,
    name,
    description: i % 3 === 0 ? '' : `**${name}** — <em>for tests</em>, see [the datasheet](https://docs.example.com/ds/${slug}.pdf)`,
    comment: '',
    category: family.categories[Math.floor(i / FAMILIES.length) % family.categories.length]!,
    footprint: family.footprint,
    manufacturer: i % 5 === 4 ? null : family.manufacturer,
    manufacturer_product_number: i % 9 === 8 ? '' : family.mpn(n),
    manufacturer_product_url: i % 2 === 0 ? `https://maker.example.com/products/${id}` : '',
    manufacturing_status: STATUSES[i % STATUSES.length]!,
    ipn: i % 4 === 3 ? null : `PDB-${String(i).padStart(4, '0')}`,
    tags: TAGS[i % TAGS.length]!,
    favorite: i % 10 === 0,
    needs_review: false,
    mass: null,
    minamount: 0,
    partLots,
    orderdetails,
    // Part-DB orders parameters by group, then name.
    parameters: parameters.sort((a, b) => a.group.localeCompare(b.group) || a.name.localeCompare(b.name)),
    attachments,
    master_picture_attachment: attachments.find((a) => a.name === 'Photo')?.id ?? null,
    eda_info: eda,
    addedDate: rfc3339(base + i * 3_600_000, 0),
    lastModified: rfc3339(base + i * 7 * 3_600_000 + (i % 60) * 1000, i % 2 === 0 ? 120 : 0),
  }
}
