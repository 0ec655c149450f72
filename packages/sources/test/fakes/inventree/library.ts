import type { FakeCompany, FakeManufacturerPart, FakeParameterTemplate, FakeSupplierPart, FakeTreeNode, InventreeFakeDb } from './records'

/*
 * The generated library: from a seed, so every run holds the same one, varied
 * the ways a real one is.
 */

/** A small seeded generator (mulberry32): the same library every run. */
function _random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const node = (pk: number, name: string, parent: number | null): FakeTreeNode => ({ pk, name, description: `${name} (fake)`, parent })

/** A library of `size` parts, varied the ways a real one is. */
export function inventreeFakeLibrary(size: number): InventreeFakeDb {
  const rnd = _random(1609)
  const int = (min: number, max: number) => min + Math.floor(rnd() * (max - min + 1))
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!
  const shuffled = <T>(items: readonly T[]): T[] => {
    const out = [...items]
    for (let k = out.length - 1; k > 0; k--) {
      const j = Math.floor(rnd() * (k + 1))
      ;[out[k], out[j]] = [out[j]!, out[k]!]
    }
    return out
  }
  const categories = [
    node(1, 'Passives', null),
    node(2, 'Resistors', 1),
    node(3, 'Capacitors', 1),
    node(4, 'Ceramic', 3),
    node(5, 'Électrolytiques', 3),
    node(6, 'ICs', null),
    node(7, 'Op Amps', 6),
    node(8, 'Microcontrollers', 6),
    node(9, 'Power', 6),
    node(10, 'LDO', 9),
    node(11, 'Connectors', null),
    node(12, 'Pin Headers', 11),
    node(13, 'センサー', null),
    node(14, 'Relais – Signal', null),
  ]
  const locations = [node(1, 'Werkstatt', null), node(2, 'Regal A', 1), node(3, 'Fach 1', 2), node(4, 'Fach 2', 2), node(5, 'Regal B', 1), node(6, 'Lab', null), node(7, 'Drawer 3', 6), node(8, 'Überlauf-Lager', null)]
  const companies: FakeCompany[] = [
    { pk: 1, name: 'Texas Instruments', currency: 'USD', is_manufacturer: true, is_supplier: false },
    { pk: 2, name: 'STMicroelectronics', currency: 'EUR', is_manufacturer: true, is_supplier: false },
    { pk: 3, name: 'Murata', currency: 'JPY', is_manufacturer: true, is_supplier: false },
    { pk: 4, name: 'Yageo', currency: 'USD', is_manufacturer: true, is_supplier: false },
    { pk: 5, name: 'Würth Elektronik', currency: 'EUR', is_manufacturer: true, is_supplier: true },
    { pk: 6, name: '村田製作所', currency: 'JPY', is_manufacturer: true, is_supplier: false },
    { pk: 7, name: 'DigiKey', currency: 'USD', is_manufacturer: false, is_supplier: true },
    { pk: 8, name: 'Mouser', currency: 'EUR', is_manufacturer: false, is_supplier: true },
    { pk: 9, name: 'LCSC', currency: 'CNY', is_manufacturer: false, is_supplier: true },
    { pk: 10, name: 'Farnell', currency: 'GBP', is_manufacturer: false, is_supplier: true },
  ]
  const parameterTemplates: FakeParameterTemplate[] = [
    { pk: 1, name: 'Resistance', units: 'Ω', description: '' },
    { pk: 2, name: 'Capacitance', units: 'F', description: '' },
    { pk: 3, name: 'Tolerance', units: '%', description: '' },
    { pk: 4, name: 'Voltage Rating', units: 'V', description: '' },
    { pk: 5, name: 'Package', units: '', description: 'Case / footprint' },
    { pk: 6, name: 'Operating Temperature', units: '°C', description: '' },
    { pk: 7, name: 'Pins', units: '', description: '' },
    { pk: 8, name: 'Dielectric', units: '', description: '' },
  ]
  const values: Record<number, readonly string[]> = {
    1: ['10k', '4k7', '100', '1M'],
    2: ['100n', '10u', '22p'],
    3: ['1', '5', '0.1'],
    4: ['16', '50', '6.3'],
    5: ['0603', 'SOIC-8', 'TO-220', 'QFN-32'],
    6: ['-40 to 85', '-55 to 125'],
    7: ['8', '32', '2x20'],
    8: ['X7R', 'C0G', 'Y5V'],
  }
  const names = ['Widerstand {n}Ω 0603', 'Kondensator {n} X7R', '运算放大器 LM358-{n}', 'Résistance ½ W {n}', 'MCU STM32 #{n}', 'LDO 3,3 V – {n}', 'Stiftleiste 2×{n}', 'Relais 5 V {n}', 'Temp-Sensor {n}', 'Ω-Präzision {n}']
  const keywords = ['resistor, smd, 0603', 'opamp dual', '', null, 'mlcc; x7r; 16 V', '  power   ldo  ', 'Sensor, I²C']
  const tagSets = [[], ['smd'], ['SMD', 'rohs'], ['THT', 'Bestand'], ['power']]
  const leafCategories = [2, 4, 5, 7, 8, 10, 12, 13, 14, 1, 6]
  const packagings = ['Cut Tape', 'Reel', 'Tray', '', 'Tube']
  const packs = ['', '1', '100', '2500']

  const db: InventreeFakeDb = { categories, locations, companies, parts: [], parameterTemplates, parameters: [], manufacturerParts: [], supplierParts: [], priceBreaks: [], stockItems: [], attachments: [] }
  const next = { parameter: 1, mpn: 1, sp: 1, pb: 1, stock: 1, attachment: 1 }
  for (let i = 0; i < size; i++) {
    // Keys with gaps, not in list order: a pull yields them sorted.
    const pk = 100 + 3 * i + (i % 3)
    const mpnBase = `${pick(['LM', 'RC', 'GRM', 'STM', 'TPS', 'WR'])}${1000 + i}`
    db.parts.push({
      pk,
      name: pick(names).replace('{n}', String(i + 1)),
      IPN: i % 9 === 0 ? null : i % 4 === 0 ? '' : `IPN-${String(i + 1).padStart(5, '0')}`,
      description: i % 6 === 0 ? '' : `Fake part ${i + 1}: ${pick(['general purpose', 'low noise', 'automotive grade', 'für Prototypen'])}`,
      category: i % 13 === 0 ? null : pick(leafCategories),
      keywords: pick(keywords),
      active: i % 7 !== 3,
      tags: [...pick(tagSets)],
      link: i % 5 === 0 ? `https://example.com/parts/${pk}` : '',
      image: i % 8 === 0 ? `/media/part_images/part_${pk}.png` : null,
      units: '',
    })
    const templates = shuffled(parameterTemplates).slice(0, int(0, 4))
    for (const t of templates) db.parameters.push({ pk: next.parameter++, template: t.pk, model_type: 'part', model_id: pk, data: pick(values[t.pk]!) })
    const mpns: FakeManufacturerPart[] = []
    for (let j = int(0, 3); j > 0; j--) {
      const m = { pk: next.mpn++, part: pk, manufacturer: int(1, 6), MPN: `${mpnBase}-${j}`, link: j === 1 ? `https://www.example-maker.com/${mpnBase}` : '' }
      mpns.push(m)
      db.manufacturerParts.push(m)
    }
    const suppliers = shuffled([7, 8, 9, 10, 5]).slice(0, int(0, 2))
    for (const supplier of suppliers) {
      const sp: FakeSupplierPart = {
        pk: next.sp++,
        part: pk,
        supplier,
        manufacturer_part: mpns.length > 0 ? pick(mpns).pk : null,
        SKU: `${companies.find((c) => c.pk === supplier)!.name.slice(0, 3).toUpperCase()}-${mpnBase}-${supplier}`,
        link: rnd() < 0.7 ? `https://shop.example.com/${supplier}/${mpnBase}` : '',
        available: int(0, 20_000),
        packaging: pick(packagings),
        pack_quantity: pick(packs),
      }
      db.supplierParts.push(sp)
      const currency = companies.find((c) => c.pk === supplier)!.currency
      const breaks = [1, 10, 100, 1000].slice(0, int(1, 4))
      const unit = int(5, 5000) / 1000
      // Stored out of quantity order, as a server may list them.
      for (const [k, quantity] of breaks.entries()) db.priceBreaks.unshift({ pk: next.pb++, part: sp.pk, quantity, price: Math.round(unit * (1 - k * 0.15) * 10_000) / 10_000, price_currency: currency })
    }
    for (let j = int(0, 3); j > 0; j--) {
      const location = i % 10 === 0 ? null : int(1, locations.length)
      const quantity = i % 17 === 0 ? 2.5 : int(1, 500)
      db.stockItems.push({ pk: next.stock++, part: pk, location, quantity, in_stock: j !== 3 })
      // The same place twice: a pull adds them up.
      if (i % 5 === 1) db.stockItems.push({ pk: next.stock++, part: pk, location, quantity: i % 17 === 0 ? 0.5 : 7, in_stock: true })
    }
    const attachmentKinds = [
      { attachment: `/media/attachments/part/${pk}/datasheet_${mpnBase}.pdf`, link: null, comment: '' },
      { attachment: null, link: `https://www.ti.com/lit/ds/symlink/${mpnBase.toLowerCase()}.pdf`, comment: 'Datasheet' },
      { attachment: `/media/attachments/part/${pk}/photo.jpg`, link: null, comment: 'Foto vom Bauteil' },
      { attachment: `/media/attachments/part/${pk}/footprint.step`, link: null, comment: '3D model' },
      { attachment: null, link: `https://example.com/app-notes/AN-${pk}`, comment: '' },
      { attachment: `/media/attachments/part/${pk}/Schaltplan_Übersicht.pdf`, link: null, comment: 'Schaltplan' },
    ]
    for (let j = int(0, 3); j > 0; j--) db.attachments.push({ pk: next.attachment++, model_type: 'part', model_id: pk, ...pick(attachmentKinds) })
    // Attachments of other models share the list: a pull asks for the parts' only.
    if (i % 11 === 0) db.attachments.push({ pk: next.attachment++, model_type: 'stockitem', model_id: pk, attachment: `/media/attachments/stockitem/${pk}/test-report.pdf`, link: null, comment: 'Datasheet of the lot' })
  }
  // Parts listed out of key order.
  db.parts.sort((a, b) => (a.pk % 7) - (b.pk % 7) || a.pk - b.pk)
  return db
}
