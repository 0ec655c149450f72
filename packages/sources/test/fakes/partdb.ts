import type { ServerResponse } from 'node:http'
import { sendJson, startFake, type Fake, type SeenRequest } from './serve'

/*
 * A fake of a Part-DB server's REST API (API Platform, JSON-LD), answering in
 * the shapes of Part-DB-server (commit 1521c63c) and its documentation:
 * - https://docs.part-db.de/api/intro.html — `/api/...` endpoints, JSON-LD for
 *   `Accept: application/ld+json`, `page` and `itemsPerPage` (API Platform's
 *   default 30 per page), LIKE filters with `%` and `_` wildcards;
 * - https://docs.part-db.de/api/authentication.html — `Authorization: Bearer tcp_…`;
 * - config/packages/api_platform.yaml — `hydra_prefix: true`: collections as
 *   `{ @context, @id, @type: hydra:Collection, hydra:totalItems, hydra:member,
 *   hydra:view: { hydra:first, hydra:last, hydra:previous, hydra:next } }`;
 *   errors as RFC 7807 / Hydra (`title`, `detail`, `status`, `hydra:title`, `hydra:description`);
 * - src/Entity/Parts/Part.php — GET /api/parts (groups part:read,
 *   provider_reference:read, api:basic:read, part_lot:read: orderdetails,
 *   parameters and attachments only as `{ @id, @type, id }`, `eda_info` empty),
 *   GET /api/parts/{id} (everything embedded); filters `name`, `ipn`,
 *   `description`, `manufacturer_product_number`, `order[id]`;
 * - the part traits, ManufacturingStatus, EDAPartInfo, Orderdetail,
 *   Pricedetail (price a decimal string with 5 places, `price_per_unit`,
 *   `currency_iso_code`), AbstractParameter (`formatted`), PartLot,
 *   Attachment + AttachmentNormalizer (`internal_path` as the server's URL:
 *   `/media/...` for public files, `/attachment/{id}/view` for `%SECURE%`
 *   ones; `picture`, `3d_model`, `external`, `internal`, `private`,
 *   `builtIn`, `thumbnail_url`, `media_url`), and every embedded related
 *   resource as `{ @id, @type, id, name, full_path }` (api:basic:read);
 * - GET /api/categories, /api/storage_locations, /api/attachment_types
 *   (`parent` an IRI), GET /api/info (src/ApiResource/PartDBInfo.php);
 * - src/Security/ApiTokenAuthenticator.php: a `tcp_` token it does not know is
 *   a 401 with no body and `WWW-Authenticate: Bearer realm="api",
 *   error="invalid_token",error_description="Invalid credentials."`;
 *   AuthenticationEntryPoint.php: no token is a 401 `{ title, detail }`.
 * The library lives in `db`, plain records in Part-DB's entity fields
 * (relations by id, as the database holds them), rendered on every request,
 * so a test can change it before pulling again. Records keep the order Part-DB
 * sorts them in (parameters by group and name, attachments by name).
 */

/** The one API token this fake accepts (Part-DB's: `tcp_` and 64 hex digits). */
export const PARTDB_FAKE_TOKEN = 'tcp_5e1f0c9a7b3d2e4f6a8c0b1d3e5f7a9c2b4d6e8f0a1c3e5b7d9f2a4c6e8b0d1f'
/** A part of the generated library with offers and a manufacturing status. */
export const PARTDB_FAKE_REF = '4'

export type ManufacturingStatus = 'announced' | 'active' | 'nrfnd' | 'eol' | 'discontinued' | ''

export interface PartdbNode {
  id: number
  name: string
  parent: number | null
  comment: string
}
export interface PartdbCurrency {
  id: number
  name: string
  iso_code: string
}
export interface PartdbPricedetail {
  id: number
  /** A decimal with 5 places, as Part-DB's BigDecimal column. */
  price: string
  price_related_quantity: number
  min_discount_quantity: number
  currency: number | null
}
export interface PartdbOrderdetail {
  id: number
  supplier: number
  supplierpartnr: string
  supplier_product_url: string
  obsolete: boolean
  prices_includes_vat: boolean | null
  pricedetails: PartdbPricedetail[]
}
export interface PartdbParameter {
  id: number
  name: string
  symbol: string
  value_min: number | null
  value_typical: number | null
  value_max: number | null
  unit: string
  value_text: string
  group: string
}
export interface PartdbPartLot {
  id: number
  description: string
  comment: string
  amount: number
  instock_unknown: boolean
  storage_location: number | null
  expiration_date: string | null
  needs_refill: boolean
}
export interface PartdbAttachment {
  id: number
  name: string
  attachment_type: number
  external_path: string | null
  /** As stored: a placeholder path, `%MEDIA%/part/4/photo.jpg` or `%SECURE%/…`. */
  internal_path: string | null
  original_filename: string | null
  show_in_table: boolean
}
export interface PartdbEdaInfo {
  reference_prefix: string | null
  value: string | null
  visibility: boolean | null
  exclude_from_bom: boolean | null
  exclude_from_board: boolean | null
  exclude_from_sim: boolean | null
  kicad_symbol: string | null
  kicad_footprint: string | null
}
export interface PartdbPart {
  id: number
  name: string
  description: string
  comment: string
  category: number
  footprint: number | null
  manufacturer: number | null
  manufacturer_product_number: string
  manufacturer_product_url: string
  manufacturing_status: ManufacturingStatus | null
  ipn: string | null
  tags: string
  favorite: boolean
  needs_review: boolean
  mass: number | null
  minamount: number
  partLots: PartdbPartLot[]
  orderdetails: PartdbOrderdetail[]
  parameters: PartdbParameter[]
  attachments: PartdbAttachment[]
  master_picture_attachment: number | null
  eda_info: PartdbEdaInfo
  addedDate: string
  lastModified: string
}
export interface PartdbDb {
  /** LocalizationSettings::$baseCurrency, the currency of prices without one. */
  baseCurrency: string
  categories: PartdbNode[]
  storageLocations: PartdbNode[]
  manufacturers: PartdbNode[]
  suppliers: PartdbNode[]
  footprints: PartdbNode[]
  currencies: PartdbCurrency[]
  attachmentTypes: PartdbNode[]
  parts: PartdbPart[]
}

export interface PartdbFake extends Fake {
  db: PartdbDb
}

export async function startPartdbFake(options: { parts?: number } = {}): Promise<PartdbFake> {
  const db = partdbLibrary(options.parts ?? 300)
  const fake = await startFake((req, res) => answer(db, req, res))
  return Object.assign(fake, { db })
}

// ---------------------------------------------------------------------------
// Routing

function answer(db: PartdbDb, req: SeenRequest, res: ServerResponse): void {
  const refused = authenticate(req)
  if (refused) return refused(res)
  // Other formats exist (plain JSON, JSON:API, HTML docs); this fake speaks only the JSON-LD a source asks for.
  if (!String(req.headers.accept ?? '').includes('application/ld+json')) return error(res, 406, 'Not Acceptable', 'This fake answers application/ld+json only')
  if (req.method !== 'GET') return error(res, 405, 'Method Not Allowed', `No route for "${req.method} ${req.path}"`)
  const r = render(db)
  const part = /^\/api\/parts\/(\d+)$/.exec(req.path)
  if (part) {
    const found = db.parts.find((p) => p.id === Number(part[1]))
    return found ? jsonld(res, 200, { '@context': '/api/contexts/Part', ...r.part(found, true) }) : error(res, 404, 'An error occurred', 'Not Found')
  }
  switch (req.path) {
    case '/api/info':
      return jsonld(res, 200, { '@context': '/api/contexts/PartDBInfo', '@id': '/api/info', '@type': 'PartDBInfo', version: '2.0.0', git_branch: null, git_commit: null, title: 'Part-DB', banner: '', default_uri: 'http://localhost/', global_timezone: 'Europe/Berlin', base_currency: db.baseCurrency, global_locale: 'en' })
    case '/api/parts':
      return collection(req, res, 'Part', filterParts(db.parts, req.query).map((p) => r.part(p, false)))
    case '/api/categories':
      return collection(req, res, 'Category', db.categories.map((c) => r.tree('categories', 'Category', db.categories, c)))
    case '/api/storage_locations':
      return collection(req, res, 'StorageLocation', db.storageLocations.map((c) => r.tree('storage_locations', 'StorageLocation', db.storageLocations, c)))
    case '/api/attachment_types':
      return collection(req, res, 'AttachmentType', db.attachmentTypes.map((c) => r.tree('attachment_types', 'AttachmentType', db.attachmentTypes, c)))
    default:
      return error(res, 404, 'An error occurred', `No route found for "GET ${req.path}"`)
  }
}

/** What Part-DB's firewall does with the Authorization header: null when it lets the request through. */
function authenticate(req: SeenRequest): ((res: ServerResponse) => void) | null {
  const bearer = /^(?:Bearer|Token) (\S+)$/.exec(String(req.headers.authorization ?? ''))
  if (!bearer || !/^tcp_[^_]+$/.test(bearer[1]!)) {
    return (res) => sendJson(res, 401, { title: 'Unauthorized', detail: 'Authentication is required. Please pass a valid API token in the Authorization header.' })
  }
  if (bearer[1] === PARTDB_FAKE_TOKEN) return null
  return (res) => res.writeHead(401, { 'www-authenticate': 'Bearer realm="api",error="invalid_token",error_description="Invalid credentials."' }).end()
}

function filterParts(parts: PartdbPart[], query: URLSearchParams): PartdbPart[] {
  let out = [...parts]
  for (const field of ['name', 'ipn', 'description', 'manufacturer_product_number'] as const) {
    const pattern = query.get(field)
    if (pattern === null) continue
    const like = likePattern(pattern)
    out = out.filter((p) => like.test(p[field] ?? ''))
  }
  const direction = query.get('order[id]') === 'desc' ? -1 : 1
  return out.sort((a, b) => (a.id - b.id) * direction)
}

/** SQL (I)LIKE as a regular expression: `%` any run, `_` any one character, case-insensitive (Part-DB's LikeFilter uses ILIKE). */
function likePattern(pattern: string): RegExp {
  const body = [...pattern].map((c) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')
  return new RegExp(`^${body}$`, 'isu')
}

/** A paginated Hydra collection, as API Platform answers one. */
function collection(req: SeenRequest, res: ServerResponse, type: string, members: unknown[]): void {
  const page = Number(req.query.get('page') ?? '1')
  const perPage = Number(req.query.get('itemsPerPage') ?? '30')
  if (!Number.isInteger(page) || page < 1) return error(res, 400, 'An error occurred', 'Page should not be less than 1')
  if (!Number.isInteger(perPage) || perPage < 0) return error(res, 400, 'An error occurred', 'Item per page parameter should not be less than 0')
  const last = Math.max(1, Math.ceil(members.length / Math.max(perPage, 1)))
  const at = (n: number) => {
    const q = new URLSearchParams(req.query)
    q.set('page', String(n))
    return `${req.path}?${q.toString()}`
  }
  const view: Record<string, unknown> = { '@id': at(page), '@type': 'hydra:PartialCollectionView' }
  if (members.length > perPage) {
    Object.assign(view, { 'hydra:first': at(1), 'hydra:last': at(last) })
    if (page > 1) view['hydra:previous'] = at(page - 1)
    if (page < last) view['hydra:next'] = at(page + 1)
  }
  jsonld(res, 200, {
    '@context': `/api/contexts/${type}`,
    '@id': req.path,
    '@type': 'hydra:Collection',
    'hydra:totalItems': members.length,
    'hydra:member': members.slice((page - 1) * perPage, page * perPage),
    'hydra:view': view,
  })
}

function jsonld(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/ld+json; charset=utf-8' }).end(JSON.stringify(body))
}

/** An API Platform error with `rfc_7807_compliant_errors`, in JSON-LD. */
function error(res: ServerResponse, status: number, title: string, detail: string): void {
  res.writeHead(status, { 'content-type': 'application/problem+json; charset=utf-8' }).end(
    JSON.stringify({ '@context': '/api/contexts/Error', '@id': `/api/errors/${status}`, '@type': 'hydra:Error', title, detail, status, type: `/errors/${status}`, 'hydra:title': title, 'hydra:description': detail }),
  )
}

// ---------------------------------------------------------------------------
// Rendering records as Part-DB serialises them

const PICTURE_EXTS = ['apng', 'bmp', 'gif', 'ico', 'cur', 'jpg', 'jpeg', 'jfif', 'pjpeg', 'pjp', 'png', 'svg', 'webp']

function render(db: PartdbDb) {
  const byId = <T extends { id: number }>(list: T[], id: number | null) => (id === null ? undefined : list.find((x) => x.id === id))
  const fullPath = (list: PartdbNode[], node: PartdbNode): string => {
    const names = [node.name]
    for (let at = byId(list, node.parent), n = 0; at && n < 20; at = byId(list, at.parent), n++) names.unshift(at.name)
    return names.join(' → ')
  }
  /** A related resource through api:basic:read. */
  const basic = (path: string, type: string, list: PartdbNode[], id: number | null) => {
    const node = byId(list, id)
    return node ? { '@id': `/api/${path}/${node.id}`, '@type': type, id: node.id, name: node.name, full_path: fullPath(list, node) } : null
  }
  const currencyOf = (id: number | null) => byId(db.currencies, id)
  const pricedetail = (p: PartdbPricedetail) => ({
    '@id': `/api/pricedetails/${p.id}`,
    '@type': 'Pricedetail',
    id: p.id,
    price: p.price,
    currency: currencyOf(p.currency) ? { '@id': `/api/currencies/${p.currency}`, '@type': 'Currency', id: p.currency, name: currencyOf(p.currency)!.name, full_path: currencyOf(p.currency)!.name } : null,
    price_related_quantity: p.price_related_quantity,
    min_discount_quantity: p.min_discount_quantity,
    price_per_unit: (Number(p.price) / p.price_related_quantity).toFixed(5),
    currency_iso_code: currencyOf(p.currency)?.iso_code ?? null,
  })
  const orderdetail = (o: PartdbOrderdetail) => ({
    '@id': `/api/orderdetails/${o.id}`,
    '@type': 'Orderdetail',
    id: o.id,
    pricedetails: o.pricedetails.map(pricedetail),
    supplierpartnr: o.supplierpartnr,
    obsolete: o.obsolete,
    eda_visibility: null,
    supplier_product_url: o.supplier_product_url,
    supplier: basic('suppliers', 'Supplier', db.suppliers, o.supplier),
    prices_includes_vat: o.prices_includes_vat,
  })
  const parameter = (p: PartdbParameter) => ({ '@id': `/api/parameters/${p.id}`, '@type': 'PartParameter', ...p, eda_visibility: null, eda_symbol_visibility: null, formatted: formatted(p) })
  const lot = (l: PartdbPartLot) => ({
    '@id': `/api/part_lots/${l.id}`,
    '@type': 'PartLot',
    id: l.id,
    description: l.description,
    comment: l.comment,
    expiration_date: l.expiration_date,
    storage_location: basic('storage_locations', 'StorageLocation', db.storageLocations, l.storage_location),
    instock_unknown: l.instock_unknown,
    amount: l.amount,
    needs_refill: l.needs_refill,
    owner: null,
    user_barcode: null,
    last_stocktake_at: null,
  })
  const attachment = (a: PartdbAttachment) => {
    const extension = (path: string | null) => /\.([a-z0-9]+)$/i.exec(path ?? '')?.[1]?.toLowerCase() ?? ''
    const internal = !!a.internal_path
    const picture = internal ? PICTURE_EXTS.includes(extension(a.internal_path)) : !!a.external_path && (extension(new URL(a.external_path).pathname) === '' || PICTURE_EXTS.includes(extension(new URL(a.external_path).pathname)))
    const secure = a.internal_path?.startsWith('%SECURE%') ?? false
    const url = !internal ? null : secure ? `/attachment/${a.id}/view` : a.internal_path!.replace(/^%MEDIA%/, '/media')
    return {
      '@id': `/api/attachments/${a.id}`,
      '@type': 'PartAttachment',
      id: a.id,
      name: a.name,
      original_filename: a.original_filename,
      external_path: a.external_path,
      show_in_table: a.show_in_table,
      attachment_type: `/api/attachment_types/${a.attachment_type}`,
      picture,
      '3d_model': internal && extension(a.internal_path) === 'x3d',
      external: !!a.external_path,
      internal,
      private: secure,
      builtIn: false,
      internal_path: url,
      thumbnail_url: picture ? (url ? `/media/cache/thumbnail_sm${url}` : a.external_path) : null,
      media_url: url ?? a.external_path,
    }
  }
  const ref = (path: string, type: string, id: number) => ({ '@id': `/api/${path}/${id}`, '@type': type, id })
  return {
    part(p: PartdbPart, full: boolean) {
      const master = p.attachments.find((a) => a.id === p.master_picture_attachment)
      return {
        '@id': `/api/parts/${p.id}`,
        '@type': 'Part',
        id: p.id,
        name: p.name,
        description: p.description,
        comment: p.comment,
        favorite: p.favorite,
        category: basic('categories', 'Category', db.categories, p.category),
        footprint: basic('footprints', 'Footprint', db.footprints, p.footprint),
        manufacturer: basic('manufacturers', 'Manufacturer', db.manufacturers, p.manufacturer),
        manufacturer_product_url: p.manufacturer_product_url,
        manufacturer_product_number: p.manufacturer_product_number,
        manufacturing_status: p.manufacturing_status,
        ipn: p.ipn,
        tags: p.tags,
        needs_review: p.needs_review,
        mass: p.mass,
        gtin: null,
        providerReference: { provider_key: null, provider_id: null, provider_url: null, last_updated: null },
        partCustomState: null,
        partLots: p.partLots.map(lot),
        minamount: p.minamount,
        partUnit: null,
        total_instock: p.partLots.filter((l) => !l.instock_unknown).reduce((sum, l) => sum + l.amount, 0),
        orderdetails: full ? p.orderdetails.map(orderdetail) : p.orderdetails.map((o) => ref('orderdetails', 'Orderdetail', o.id)),
        parameters: full ? p.parameters.map(parameter) : p.parameters.map((x) => ref('parameters', 'PartParameter', x.id)),
        attachments: full ? p.attachments.map(attachment) : p.attachments.map((a) => ref('attachments', 'PartAttachment', a.id)),
        master_picture_attachment: master ? (full ? attachment(master) : ref('attachments', 'PartAttachment', master.id)) : null,
        eda_info: full ? { ...p.eda_info } : {},
        project_build_part: false,
        associated_parts_as_owner: [],
        associated_parts_as_other: [],
        addedDate: p.addedDate,
        lastModified: p.lastModified,
      }
    },
    tree(path: string, type: string, list: PartdbNode[], node: PartdbNode) {
      return { '@id': `/api/${path}/${node.id}`, '@type': type, id: node.id, name: node.name, full_path: fullPath(list, node), parent: node.parent === null ? null : `/api/${path}/${node.parent}`, comment: node.comment }
    },
  }
}

/** AbstractParameter::getFormattedValue, with the unit after each number. */
function formatted(p: PartdbParameter): string {
  const u = (n: number) => (p.unit ? `${n} ${p.unit}` : String(n))
  if (p.value_typical === null && p.value_min === null && p.value_max === null) return p.value_text
  let out = p.value_typical !== null ? u(p.value_typical) : ''
  const open = p.value_typical !== null && (!!p.value_min || !!p.value_max)
  if (open) out += ' ('
  if (p.value_min !== null && p.value_max !== null) out += `${u(p.value_min)} ... ${u(p.value_max)}`
  else if (p.value_max !== null) out += `max. ${u(p.value_max)}`
  else if (p.value_min !== null) out += `min. ${u(p.value_min)}`
  if (open) out += ')'
  if (p.value_text !== '' && p.value_text !== '0') out += ` [${p.value_text}]`
  return out
}

// ---------------------------------------------------------------------------
// The generated library: deterministic, varied by the part's index

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
