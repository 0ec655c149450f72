import type { ServerResponse } from 'node:http'
import { sendJson, startFake, type Fake, type SeenRequest } from './serve'

/*
 * A fake of an InvenTree server's REST API, answering in the shapes of
 * InvenTree's API schema (https://docs.inventree.org/en/stable/api/schema/)
 * and of its serializers in github.com/inventree/InvenTree,
 * src/backend/InvenTree/:
 * - InvenTree/api.py InfoView: `GET /api/` → `{ server: "InvenTree",
 *   version, instance, apiVersion, … }`, without a login;
 * - auth: DRF's TokenAuthentication, `Authorization: Token <key>`; a wrong
 *   key is 401 `{ "detail": "Invalid token." }` (on every endpoint, /api/
 *   too), none is 401 `{ "detail": "Authentication credentials were not
 *   provided." }`, both with `WWW-Authenticate: Token`; an unknown object is
 *   404 `{ "detail": "No … matches the given query." }`;
 * - lists: with `limit` (and `offset`), DRF's LimitOffsetPagination `{ count,
 *   next, previous, results }`; without, the bare array;
 * - part/serializers.py: PartSerializer at /api/part/ and /api/part/<pk>/
 *   (`tags` only with `?tags=true`, an output option of recent versions;
 *   `search` matched term by term on name, IPN, description, keywords,
 *   category name, MPN and SKU, like its search_fields), CategorySerializer
 *   at /api/part/category/ (`pathstring`, `level` derived from `parent`);
 * - common/serializers.py: ParameterSerializer at /api/parameter/ (filters
 *   `model_type`, `model_id`) from API v429, PartParameterSerializer at
 *   /api/part/parameter/ (filter `part`) up to v428
 *   (inventree/InvenTree#10699), both with `template_detail`;
 *   AttachmentSerializer at /api/attachment/ (filters `model_type`,
 *   `model_id`; `attachment` a media path, `filename` its base name);
 * - company/serializers.py and company/api.py: ManufacturerPartSerializer
 *   (`manufacturer_detail` with `?manufacturer_detail=true`, filter `part`),
 *   SupplierPartSerializer (`supplier_detail` with `?supplier_detail=true`,
 *   `MPN`, `pack_quantity_native`; filters `part`, `supplier`),
 *   SupplierPriceBreakSerializer (filters `part`, `base_part`; `price` as
 *   DRF renders a Decimal, text with six places; `quantity` a number);
 * - stock/serializers.py: StockItemSerializer at /api/stock/ (filters
 *   `part`, `location`, `in_stock`), LocationSerializer at
 *   /api/stock/location/.
 * The library is generated from a seed, so every run holds the same one, in
 * plain records of InvenTree's model fields on `fake.db`: tests change them
 * before a pull; answers derive the rest (paths, details) from them.
 */

/** The one API token this fake accepts (InvenTree's own tokens look like this: `inv-` and a date). */
export const INVENTREE_FAKE_TOKEN = 'inv-7c3e9a1f5b2d4e6f8a0c1e3b5d7f9a2c-20261126'
/** The API version of InvenTree 1.3 (docs.inventree.org/en/stable/api/schema). */
export const INVENTREE_FAKE_API_VERSION = 477

export interface FakeTreeNode {
  pk: number
  name: string
  description: string
  parent: number | null
}
export interface FakeCompany {
  pk: number
  name: string
  currency: string
  is_manufacturer: boolean
  is_supplier: boolean
}
export interface FakePart {
  pk: number
  name: string
  IPN: string | null
  description: string
  category: number | null
  keywords: string | null
  active: boolean
  tags: string[]
  link: string
  image: string | null
  units: string
}
export interface FakeParameterTemplate {
  pk: number
  name: string
  units: string
  description: string
}
export interface FakeParameter {
  pk: number
  template: number
  model_type: string
  model_id: number
  data: string
}
export interface FakeManufacturerPart {
  pk: number
  part: number
  manufacturer: number
  MPN: string
  link: string
}
export interface FakeSupplierPart {
  pk: number
  part: number
  supplier: number
  manufacturer_part: number | null
  SKU: string
  link: string
  available: number
  packaging: string
  pack_quantity: string
}
export interface FakePriceBreak {
  pk: number
  /** The supplier part. */
  part: number
  quantity: number
  price: number
  price_currency: string
}
export interface FakeStockItem {
  pk: number
  part: number
  location: number | null
  quantity: number
  /** On the shelf (not sold, consumed or being built): what `?in_stock=true` keeps. */
  in_stock: boolean
}
export interface FakeAttachment {
  pk: number
  model_type: string
  model_id: number
  /** A media path, for a file. */
  attachment: string | null
  link: string | null
  comment: string
}

export interface InventreeFakeDb {
  categories: FakeTreeNode[]
  locations: FakeTreeNode[]
  companies: FakeCompany[]
  parts: FakePart[]
  parameterTemplates: FakeParameterTemplate[]
  parameters: FakeParameter[]
  manufacturerParts: FakeManufacturerPart[]
  supplierParts: FakeSupplierPart[]
  priceBreaks: FakePriceBreak[]
  stockItems: FakeStockItem[]
  attachments: FakeAttachment[]
}

export interface InventreeFake extends Fake {
  db: InventreeFakeDb
  /** What `GET /api/` says; `apiVersion` chooses which parameter endpoint exists. */
  info: { apiVersion: number }
}

export async function startInventreeFake(options: { parts?: number; apiVersion?: number } = {}): Promise<InventreeFake> {
  const db = inventreeFakeLibrary(options.parts ?? 300)
  const info = { apiVersion: options.apiVersion ?? INVENTREE_FAKE_API_VERSION }
  let base = ''
  const fake = await startFake((request, res) => _answer(db, info, base, request, res))
  base = fake.url
  return Object.assign(fake, { db, info })
}

// ---------------------------------------------------------------------------
// Answering

function _answer(db: InventreeFakeDb, info: { apiVersion: number }, base: string, request: SeenRequest, res: ServerResponse): void {
  const auth = request.headers.authorization
  const token = typeof auth === 'string' && /^Token\s+/i.test(auth) ? auth.replace(/^Token\s+/i, '').trim() : null
  const unauthorized = (detail: string) => sendJson(res, 401, { detail }, { 'www-authenticate': 'Token' })
  if (token !== null && token !== INVENTREE_FAKE_TOKEN) return unauthorized('Invalid token.')
  if (request.method !== 'GET') return sendJson(res, 405, { detail: `Method "${request.method}" not allowed.` })
  if (request.path === '/api/') {
    return sendJson(res, 200, { server: 'InvenTree', version: '1.3.0', instance: 'complib fake', apiVersion: info.apiVersion, worker_running: true, plugins_enabled: false, debug_mode: false, docker_mode: false })
  }
  if (token === null) return unauthorized('Authentication credentials were not provided.')
  const q = request.query
  const flag = (name: string, fallback = false) => (q.has(name) ? /^(true|1|yes)$/i.test(q.get(name) ?? '') : fallback)
  const is = (name: string, value: number | string | null) => !q.has(name) || String(value) === q.get(name)
  const list = (items: unknown[]) => _list(res, base, request, items)
  const detail = (what: string, item: unknown) => (item === undefined ? sendJson(res, 404, { detail: `No ${what} matches the given query.` }) : sendJson(res, 200, item))
  const pkOf = (pattern: RegExp) => Number(pattern.exec(request.path)?.[1])
  const generic = info.apiVersion >= 429

  const parts = () => db.parts.map((p) => _part(db, p, flag('tags')))
  if (request.path === '/api/part/') return list(parts().filter((p) => is('category', p.category) && _matches(db, p, q.get('search'))))
  if (/^\/api\/part\/\d+\/$/.test(request.path)) return detail('Part', parts().find((p) => p.pk === pkOf(/(\d+)/)))
  if (request.path === '/api/part/category/') return list(db.categories.map((c) => _node(db.categories, c)))
  if (/^\/api\/part\/category\/\d+\/$/.test(request.path)) return detail('PartCategory', db.categories.map((c) => _node(db.categories, c)).find((c) => c.pk === pkOf(/(\d+)/)))
  if (request.path === '/api/stock/location/') return list(db.locations.map((l) => _node(db.locations, l)))
  if (request.path === '/api/parameter/' && generic) {
    return list(db.parameters.filter((p) => is('model_type', p.model_type) && is('model_id', p.model_id) && is('template', p.template)).map((p) => _parameter(db, p, flag('template_detail', true))))
  }
  if (request.path === '/api/part/parameter/' && !generic) {
    const legacy = db.parameters.filter((p) => p.model_type === 'part' && is('part', p.model_id) && is('template', p.template))
    return list(legacy.map((p) => _legacyParameter(db, p, flag('template_detail', true))))
  }
  if (request.path === '/api/company/part/manufacturer/') {
    return list(db.manufacturerParts.filter((m) => is('part', m.part) && is('manufacturer', m.manufacturer)).map((m) => _manufacturerPart(db, m, flag('manufacturer_detail'))))
  }
  if (request.path === '/api/company/part/') {
    return list(db.supplierParts.filter((s) => is('part', s.part) && is('supplier', s.supplier)).map((s) => _supplierPart(db, s, flag('supplier_detail'))))
  }
  if (request.path === '/api/company/price-break/') {
    const basePart = (b: FakePriceBreak) => db.supplierParts.find((s) => s.pk === b.part)?.part ?? null
    return list(db.priceBreaks.filter((b) => is('part', b.part) && is('base_part', basePart(b))).map((b) => _priceBreak(db, b)))
  }
  if (request.path === '/api/stock/') {
    const kept = db.stockItems.filter((s) => is('part', s.part) && is('location', s.location) && (!q.has('in_stock') || s.in_stock === flag('in_stock')))
    return list(kept.map((s) => _stockItem(db, s)))
  }
  if (request.path === '/api/attachment/') return list(db.attachments.filter((a) => is('model_type', a.model_type) && is('model_id', a.model_id)).map(_attachment))
  sendJson(res, 404, { detail: 'Not found.' })
}

/** DRF's LimitOffsetPagination, or the bare list without `limit`. */
function _list(res: ServerResponse, base: string, request: SeenRequest, items: unknown[]): void {
  if (!request.query.has('limit')) return sendJson(res, 200, items)
  const limit = Math.max(0, Number(request.query.get('limit')) || 0)
  const offset = Math.max(0, Number(request.query.get('offset')) || 0)
  const at = (o: number) => {
    const url = new URL(`${base}${request.path}`)
    for (const [k, v] of request.query) url.searchParams.set(k, v)
    url.searchParams.set('offset', String(o))
    return url.toString()
  }
  sendJson(res, 200, {
    count: items.length,
    next: offset + limit < items.length ? at(offset + limit) : null,
    previous: offset > 0 ? at(Math.max(0, offset - limit)) : null,
    results: items.slice(offset, offset + limit),
  })
}

function _pathOf(nodes: FakeTreeNode[], pk: number | null): FakeTreeNode[] {
  const out: FakeTreeNode[] = []
  for (let at = nodes.find((n) => n.pk === pk); at && !out.includes(at); at = nodes.find((n) => n.pk === at!.parent)) out.unshift(at)
  return out
}

function _node(nodes: FakeTreeNode[], n: FakeTreeNode) {
  const path = _pathOf(nodes, n.pk)
  return { pk: n.pk, name: n.name, description: n.description, parent: n.parent, level: path.length - 1, pathstring: path.map((p) => p.name).join('/'), structural: false, icon: '' }
}

function _part(db: InventreeFakeDb, p: FakePart, withTags: boolean) {
  const onShelf = db.stockItems.filter((s) => s.part === p.pk && s.in_stock).reduce((sum, s) => sum + s.quantity, 0)
  return {
    pk: p.pk,
    name: p.name,
    IPN: p.IPN,
    full_name: p.IPN ? `${p.IPN} | ${p.name}` : p.name,
    revision: '',
    description: p.description,
    category: p.category,
    category_name: db.categories.find((c) => c.pk === p.category)?.name ?? null,
    keywords: p.keywords,
    active: p.active,
    link: p.link,
    image: p.image,
    thumbnail: p.image ?? '/static/img/blank_image.thumbnail.png',
    units: p.units,
    assembly: false,
    component: true,
    is_template: false,
    purchaseable: true,
    salable: false,
    trackable: false,
    virtual: false,
    locked: false,
    minimum_stock: 0,
    creation_date: '2025-06-01',
    in_stock: onShelf,
    total_in_stock: onShelf,
    ...(withTags ? { tags: [...p.tags] } : {}),
  }
}

/** DRF's SearchFilter: every term must match one of the search fields. */
function _matches(db: InventreeFakeDb, p: Pick<FakePart, 'pk' | 'name' | 'IPN' | 'description' | 'keywords' | 'category'>, search: string | null): boolean {
  const terms = (search ?? '').toLowerCase().split(/[\s,]+/).filter(Boolean)
  if (terms.length === 0) return true
  const fields = [
    p.name,
    p.IPN ?? '',
    p.description,
    p.keywords ?? '',
    db.categories.find((c) => c.pk === p.category)?.name ?? '',
    ...db.manufacturerParts.filter((m) => m.part === p.pk).map((m) => m.MPN),
    ...db.supplierParts.filter((s) => s.part === p.pk).map((s) => s.SKU),
  ].map((f) => f.toLowerCase())
  return terms.every((t) => fields.some((f) => f.includes(t)))
}

function _parameter(db: InventreeFakeDb, p: FakeParameter, withTemplate: boolean) {
  const template = db.parameterTemplates.find((t) => t.pk === p.template)
  const numeric = Number.parseFloat(p.data)
  return {
    pk: p.pk,
    template: p.template,
    model_type: p.model_type,
    model_id: p.model_id,
    data: p.data,
    data_numeric: Number.isFinite(numeric) ? numeric : null,
    note: '',
    updated: '2026-01-15T09:30:00.000000Z',
    updated_by: 1,
    ...(withTemplate && template ? { template_detail: { pk: template.pk, name: template.name, units: template.units, description: template.description, model_type: 'part', checkbox: false, choices: '', selectionlist: null, enabled: true } } : {}),
  }
}

/** PartParameterSerializer (up to v428): the part by `part`, no generic model fields. */
function _legacyParameter(db: InventreeFakeDb, p: FakeParameter, withTemplate: boolean) {
  const { pk, template, data, data_numeric, template_detail } = _parameter(db, p, withTemplate)
  return { pk, part: p.model_id, template, data, data_numeric, ...(template_detail ? { template_detail } : {}) }
}

function _company(db: InventreeFakeDb, pk: number | null) {
  const c = db.companies.find((x) => x.pk === pk)
  return c ? { pk: c.pk, active: true, name: c.name, description: '', image: null, thumbnail: null, currency: c.currency, tax_id: '' } : null
}

function _manufacturerPart(db: InventreeFakeDb, m: FakeManufacturerPart, withDetail: boolean) {
  return { pk: m.pk, part: m.part, manufacturer: m.manufacturer, MPN: m.MPN, description: '', link: m.link, barcode_hash: '', notes: null, ...(withDetail ? { manufacturer_detail: _company(db, m.manufacturer) } : {}) }
}

function _supplierPart(db: InventreeFakeDb, s: FakeSupplierPart, withDetail: boolean) {
  const native = Number.parseFloat(s.pack_quantity)
  return {
    pk: s.pk,
    part: s.part,
    supplier: s.supplier,
    manufacturer_part: s.manufacturer_part,
    MPN: db.manufacturerParts.find((m) => m.pk === s.manufacturer_part)?.MPN ?? null,
    SKU: s.SKU,
    description: '',
    link: s.link,
    active: true,
    available: s.available,
    availability_updated: null,
    packaging: s.packaging,
    pack_quantity: s.pack_quantity,
    pack_quantity_native: Number.isFinite(native) ? native : 1,
    note: '',
    barcode_hash: '',
    in_stock: 0,
    on_order: 0,
    updated: '2026-01-15T09:30:00.000000Z',
    ...(withDetail ? { supplier_detail: _company(db, s.supplier) } : {}),
  }
}

function _priceBreak(db: InventreeFakeDb, b: FakePriceBreak) {
  const supplier = db.supplierParts.find((s) => s.pk === b.part)?.supplier ?? null
  return { pk: b.pk, part: b.part, quantity: b.quantity, price: b.price.toFixed(6), price_currency: b.price_currency, supplier, updated: '2026-01-15T09:30:00.000000Z' }
}

function _stockItem(db: InventreeFakeDb, s: FakeStockItem) {
  return { pk: s.pk, part: s.part, quantity: s.quantity, location: s.location, serial: null, batch: '', status: s.in_stock ? 10 : 60, in_stock: s.in_stock, is_building: false, belongs_to: null, customer: s.in_stock ? null : 1, supplier_part: db.supplierParts.find((x) => x.part === s.part)?.pk ?? null }
}

function _attachment(a: FakeAttachment) {
  const filename = a.attachment ? a.attachment.split('/').at(-1) ?? null : null
  return { pk: a.pk, attachment: a.attachment, filename, link: a.link, comment: a.comment, upload_date: '2026-01-15', upload_user: 1, file_size: a.attachment ? 123_456 : 0, model_type: a.model_type, model_id: a.model_id, tags: [] }
}

// ---------------------------------------------------------------------------
// The generated library

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
