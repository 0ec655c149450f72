import {
  ComponentStatus,
  PeerPart,
  SourceCandidate,
  SourceError,
  SourcePart,
  defineSource,
  statusError,
  type SourceAnswer,
  type SourceContext,
  type SourceLifecycle,
  type SourceParameter,
  type SupplierOffer,
} from '@complib/core'
import * as z from 'zod'
import { conform, issuePath, scrub, httpUrl, cleanText, clip } from './_internal/answer-fields'
import { UNKNOWN_MANUFACTURER } from './runtime/library-mapping'

/*
 * Part-DB, a self-hosted parts library (https://github.com/Part-DB/Part-DB-server),
 * read through its REST API, coded against its documentation and the source it
 * is generated from (API Platform), as of commit 1521c63c (2026-08-19):
 * - https://docs.part-db.de/api/intro.html (docs/api/intro.md) — endpoints under
 *   `/api/`; `Accept: application/ld+json` for JSON-LD (chosen here: the docs
 *   recommend it, and its collections carry their total and next-page link);
 *   pagination by `page` and `itemsPerPage`; LIKE filters where `%` is the
 *   wildcard (`/api/parts.jsonld?name=BC%25`); `order[...]`; GET /api/info;
 * - https://docs.part-db.de/api/authentication.html (docs/api/authentication.md)
 *   — `Authorization: Bearer tcp_…`, a token bound to a user and scope;
 * - config/packages/api_platform.yaml — `hydra_prefix: true` (so `hydra:member`,
 *   `hydra:totalItems`, `hydra:view` / `hydra:next`; the file says it may become
 *   false, so the unprefixed names are read too), RFC 7807 errors;
 * - src/Entity/Parts/Part.php — GET /api/parts serialises the groups `part:read`,
 *   `provider_reference:read`, `api:basic:read`, `part_lot:read`; GET
 *   /api/parts/{id} adds `orderdetail:read`, `pricedetail:read`,
 *   `parameter:read`, `attachment:read`, `eda_info:read`, so orderdetails with
 *   their prices, parameters, attachments and EDA fields come only with the
 *   single part (and parameters have no collection endpoint at all,
 *   src/Entity/Parameters/AbstractParameter.php): a pull lists the parts and
 *   reads each one. Filters: LikeFilter on `name`, `ipn`,
 *   `manufacturer_product_number`; OrderFilter on `id`. `lastModified`;
 * - src/Entity/Parts/PartTraits/: BasicPropertyTrait (`description`, `category`,
 *   `footprint`), AdvancedPropertyTrait (`tags` — one comma-separated string —,
 *   `ipn`), ManufacturerTrait (`manufacturer`, `manufacturer_product_number`,
 *   `manufacturer_product_url`, `manufacturing_status`), InstockTrait
 *   (`partLots`, `total_instock`), OrderTrait (`orderdetails`), EDATrait
 *   (`eda_info`); src/Entity/Parts/ManufacturingStatus.php (`announced`,
 *   `active`, `nrfnd`, `eol`, `discontinued`, `''` for not set);
 *   src/Entity/EDA/EDAPartInfo.php (`kicad_symbol`, `kicad_footprint`, `value`,
 *   `exclude_from_bom`, `exclude_from_board`, `exclude_from_sim`);
 * - src/Entity/PriceInformations/Orderdetail.php (`supplier`, `supplierpartnr`,
 *   `supplier_product_url`, `obsolete`, `pricedetails`) and Pricedetail.php
 *   (`price`, a decimal string, "for the price related quantity";
 *   `price_related_quantity`; `min_discount_quantity`; `currency_iso_code`, null
 *   for "the global base currency") — that base currency is `base_currency` of
 *   GET /api/info (src/ApiResource/PartDBInfo.php);
 * - src/Entity/Parameters/AbstractParameter.php (`name`, `value_text`,
 *   `value_min`, `value_typical`, `value_max`, `unit`, and `formatted`, whose
 *   layout the value below follows);
 * - src/Entity/Parts/{PartLot,StorageLocation,Category}.php (`storage_location`,
 *   `amount`, `instock_unknown`; `parent` always an IRI — `readableLink: false`)
 *   and src/Entity/Base/AbstractStructuralDBElement.php (`full_path`, the names
 *   from the root joined by " → ", in the `api:basic:read` group, so every
 *   embedded category, location, manufacturer and supplier carries `@id`, `id`,
 *   `name` and `full_path`);
 * - src/Entity/Attachments/Attachment.php and src/Serializer/AttachmentNormalizer.php
 *   (`name`, `external_path`, `internal_path` — a URL on the server such as
 *   `/media/part/2/bc547.pdf` —, `original_filename`, `picture`, `3d_model`,
 *   `attachment_type` always an IRI);
 * - src/Security/ApiTokenAuthenticator.php (a refused token: 401, no body,
 *   `WWW-Authenticate: Bearer … error_description="…"`) and
 *   AuthenticationEntryPoint.php (no token: 401 `{ title, detail }`).
 */

/** Parts per page of a listing: three requests for a library of 300. */
const PAGE_SIZE = 100
/** A bound on the pages of one listing, against a server that always says there is a next one. */
const MAX_PAGES = 10_000
/** At most this many candidates per search (one page of each filter). */
const MAX_SEARCH = 50
/** Part-DB's separator in `full_path` (AbstractStructuralDBElement::PATH_DELIMITER_ARROW). */
const PATH_DELIMITER = ' → '
const BASE_CURRENCY_MEMO = 'partdb:base-currency'

const PartdbConfig = z.strictObject({
  baseUrl: z
    .url({ protocol: /^https?$/, error: 'an http(s) URL' })
    .max(500)
    .meta({ description: 'The address of your Part-DB server, e.g. https://parts.example.com (its API is under /api)' }),
  token: z
    .string()
    .max(300)
    .regex(/^tcp_[A-Za-z0-9]+$/, { error: 'a Part-DB API token, starting with tcp_' })
    .meta({ description: 'An API token (user settings → API tokens); the read-only scope is enough' }),
})
type PartdbConfig = z.infer<typeof PartdbConfig>
type PartdbContext = SourceContext<PartdbConfig>

// ---------------------------------------------------------------------------
// What Part-DB answers. Fields are read as nullish (older servers lack some);
// a field of another type than the entities declare is a `bad-answer`.

const Text = z.string().nullish()
const Num = z.number().nullish()
const Flag = z.boolean().nullish()

/** A related resource embedded through `api:basic:read`: its IRI, id, name and path. */
const Basic = z.object({ '@id': Text, id: Num, name: Text, full_path: Text })
type Basic = z.infer<typeof Basic>

const Pricedetail = z.object({ price: z.union([z.string(), z.number()]).nullish(), price_related_quantity: Num, min_discount_quantity: Num, currency_iso_code: Text })
const Orderdetail = z.object({ supplier: Basic.nullish(), supplierpartnr: Text, supplier_product_url: Text, obsolete: Flag, pricedetails: z.array(Pricedetail).nullish() })
type Orderdetail = z.infer<typeof Orderdetail>
const Parameter = z.object({ name: Text, value_text: Text, value_min: Num, value_typical: Num, value_max: Num, unit: Text })
type Parameter = z.infer<typeof Parameter>
const PartLot = z.object({ storage_location: Basic.nullish(), amount: Num, instock_unknown: Flag })
const Attachment = z.object({
  name: Text,
  external_path: Text,
  internal_path: Text,
  original_filename: Text,
  picture: Flag,
  '3d_model': Flag,
  attachment_type: z.union([z.string(), Basic]).nullish(),
})
type Attachment = z.infer<typeof Attachment>
const EdaInfo = z.object({ kicad_symbol: Text, kicad_footprint: Text, value: Text, exclude_from_bom: Flag, exclude_from_board: Flag, exclude_from_sim: Flag })

/** A part as GET /api/parts lists it (its relations beyond the basic ones are only IRIs there). */
const ListedPart = z.object({
  id: z.int().positive(),
  name: Text,
  description: Text,
  ipn: Text,
  tags: Text,
  category: Basic.nullish(),
  footprint: Basic.nullish(),
  manufacturer: Basic.nullish(),
  manufacturer_product_number: Text,
  manufacturer_product_url: Text,
  manufacturing_status: Text,
  total_instock: Num,
  lastModified: Text,
})
type ListedPart = z.infer<typeof ListedPart>

/** A part as GET /api/parts/{id} answers it, everything embedded. */
const FullPart = ListedPart.extend({
  partLots: z.array(PartLot).nullish(),
  orderdetails: z.array(Orderdetail).nullish(),
  parameters: z.array(Parameter).nullish(),
  attachments: z.array(Attachment).nullish(),
  master_picture_attachment: Attachment.nullish(),
  eda_info: EdaInfo.nullish(),
})
type FullPart = z.infer<typeof FullPart>

/** A category, storage location or attachment type as its own collection lists it: `parent` is an IRI. */
const TreeNode = z.object({ '@id': z.string(), name: Text, parent: Text })

const HydraView = z.object({ 'hydra:next': Text, next: Text }).nullish()
const HydraCollection = z.object({
  'hydra:member': z.array(z.unknown()).optional(),
  member: z.array(z.unknown()).optional(),
  'hydra:totalItems': Num,
  totalItems: Num,
  'hydra:view': HydraView,
  view: HydraView,
})

const Info = z.object({ base_currency: Text })

/** Why Part-DB refused: API Platform's RFC 7807 / Hydra error, or the entry point's `{ title, detail }`. */
const ErrorBody = z.object({ title: Text, detail: Text, 'hydra:title': Text, 'hydra:description': Text, message: Text })

// ---------------------------------------------------------------------------

export const partdbSource = defineSource({
  type: 'partdb',
  title: 'Part-DB',
  description: 'Parts of a Part-DB server (an API token from its user settings): search and fetch one, or pull the whole library.',
  documentation: 'https://docs.part-db.de/api/intro.html',
  configSchema: PartdbConfig,
  secretFields: ['token'],
  capabilities: { search: true, offers: true, lifecycle: true, pull: true },
  // Part-DB documents no rate limit. It is a PHP application on the user's own
  // server, often a small one, and a pull reads every part one request at a
  // time: ten a second keeps a pull of a few thousand parts within minutes
  // without crowding out the people using its web interface.
  limits: { requestsPerMinute: 600, requestsPerDay: null },

  async search(query, context, limit) {
    const text = query.trim().slice(0, 200)
    const wanted = Math.min(Math.floor(limit), MAX_SEARCH)
    if (!text || !(wanted >= 1)) return []
    // A part is found by a part of its name, else of its MPN (the two filters would AND in one request).
    const pattern = `%${text}%`
    const found = await _page(context, '/api/parts', ListedPart, { name: pattern, 'order[id]': 'asc', page: '1', itemsPerPage: String(wanted) })
    if (found.items.length < wanted) {
      const byMpn = await _page(context, '/api/parts', ListedPart, { manufacturer_product_number: pattern, 'order[id]': 'asc', page: '1', itemsPerPage: String(wanted) })
      found.items.push(...byMpn.items)
    }
    const seen = new Set<number>()
    const out: SourceCandidate[] = []
    for (const part of found.items) {
      const mpn = _mpnOf(part)
      if (seen.has(part.id) || !mpn) continue
      seen.add(part.id)
      out.push(conform('Part-DB', SourceCandidate, _candidate(part, mpn), 'a part of its search'))
      if (out.length === wanted) break
    }
    return out
  },

  async fetch(ref, context) {
    const wanted = ref.trim()
    if (!/^\d{1,12}$/.test(wanted)) return null
    const part = await _part(context, Number(wanted))
    if (!part) return null
    const baseCurrency = _needsBaseCurrency(part) ? await _baseCurrency(context, false) : null
    const mpn = _mpnOf(part)
    if (!mpn) throw new SourceError('bad-answer', `Part-DB answered part ${wanted} without a name`)
    return conform('Part-DB', SourcePart, _sourcePart(part, mpn, _lookups(context, baseCurrency)), `part ${wanted}`)
  },

  async *pull(context, onProgress) {
    // The small collections first, whole, to build paths and names in memory.
    const baseCurrency = await _baseCurrency(context, true)
    const categories = await _tree(context, '/api/categories')
    const locations = await _tree(context, '/api/storage_locations')
    const attachmentTypes = await _tree(context, '/api/attachment_types')
    const lookups = _lookups(context, baseCurrency, { categories, locations, attachmentTypes })
    const listed = await _all(context, '/api/parts', ListedPart, { 'order[id]': 'asc' })
    const ids = [...new Set(listed.map((p) => p.id))].sort((a, b) => a - b)
    let total = ids.length
    let done = 0
    onProgress?.(done, total)
    for (const id of ids) {
      const part = await _part(context, id)
      if (!part) {
        // Deleted since the listing: one fewer to read.
        onProgress?.(done, --total)
        continue
      }
      const peer = conform('Part-DB', PeerPart, _peerPart(part, lookups), `part ${id}`)
      onProgress?.(++done, total)
      yield peer
    }
  },
})

// ---------------------------------------------------------------------------
// Asking

/** A GET of the API with the token, the answer's JSON, or null for a 404 when `notFound` is 'null'. */
async function _get(context: PartdbContext, path: string, query: Record<string, string>, notFound: 'null' | 'error' = 'error'): Promise<{ body: unknown; where: string } | null> {
  const url = new URL(`${context.config.baseUrl.replace(/\/+$/, '')}${path}`)
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value)
  // Host and path for messages: the query holds what a user searched for, the token travels in a header.
  const where = `${url.host}${url.pathname}`
  const answer = await context.http.request(url, { method: 'GET', headers: { accept: 'application/ld+json', authorization: `Bearer ${context.config.token}` } })
  if (answer.status === 404 && notFound === 'null') return null
  if (answer.status < 200 || answer.status > 299) {
    const said = scrub(_said(answer), [context.config.token])
    throw statusError(answer.status, answer.headers, `${where} answered ${answer.status}${said ? `: ${said}` : ''}`)
  }
  return { body: answer.json(), where }
}

/** One part whole, or null when Part-DB has none of that id. */
async function _part(context: PartdbContext, id: number): Promise<FullPart | null> {
  const got = await _get(context, `/api/parts/${id}`, {}, 'null')
  return got ? _read(FullPart, got.body, got.where) : null
}

/** One page of a collection: its members as `schema` reads them, and whether Part-DB links a next page. */
async function _page<T>(context: PartdbContext, path: string, schema: z.ZodType<T>, query: Record<string, string>): Promise<{ items: T[]; total: number | null; next: boolean }> {
  const got = (await _get(context, path, query))!
  const page = _read(HydraCollection, got.body, got.where)
  const members = page['hydra:member'] ?? page.member
  if (!members) throw new SourceError('bad-answer', `${got.where} answered a collection without members`)
  const view = page['hydra:view'] ?? page.view
  const total = page['hydra:totalItems'] ?? page.totalItems ?? null
  return { items: members.map((m, i) => _read(schema, m, `${got.where} (member ${i})`)), total, next: !!(view?.['hydra:next'] ?? view?.next) }
}

/**
 * A collection whole, page by page. The next page is asked while Part-DB
 * links one (it may cap `itemsPerPage` lower than asked), or, without links,
 * while fewer than its total have come.
 */
async function _all<T>(context: PartdbContext, path: string, schema: z.ZodType<T>, query: Record<string, string> = {}): Promise<T[]> {
  const out: T[] = []
  for (let page = 1; page <= MAX_PAGES; page++) {
    const got = await _page(context, path, schema, { ...query, page: String(page), itemsPerPage: String(PAGE_SIZE) })
    out.push(...got.items)
    const more = got.next || (got.total !== null && out.length < got.total)
    if (!more || got.items.length === 0) break
  }
  return out
}

interface _Node {
  name: string | null
  parent: string | null
}

/** A tree collection (categories, locations, attachment types) by IRI. */
async function _tree(context: PartdbContext, path: string): Promise<Map<string, _Node>> {
  const nodes = await _all(context, path, TreeNode)
  return new Map(nodes.map((n) => [n['@id'], { name: cleanText(n.name), parent: cleanText(n.parent) }]))
}

/** Part-DB's base currency (GET /api/info), the currency of prices that name none; null when the server does not say. */
async function _baseCurrency(context: PartdbContext, fresh: boolean): Promise<string | null> {
  if (!fresh && context.memo.has(BASE_CURRENCY_MEMO)) return context.memo.get(BASE_CURRENCY_MEMO) as string | null
  const got = await _get(context, '/api/info', {}, 'null')
  const currency = got ? _currencyCode(_read(Info, got.body, got.where).base_currency) : null
  context.memo.set(BASE_CURRENCY_MEMO, currency)
  return currency
}

function _needsBaseCurrency(part: FullPart): boolean {
  return (part.orderdetails ?? []).some((o) => (o.pricedetails ?? []).some((p) => !_currencyCode(p.currency_iso_code)))
}

/** What a refusal says: the WWW-Authenticate error description of a refused token, else the error body's words. */
function _said(answer: SourceAnswer): string {
  const challenge = /error_description="([^"]*)"/.exec(answer.headers.get('www-authenticate') ?? '')
  if (challenge?.[1]) return challenge[1].slice(0, 200)
  let body: unknown
  try {
    body = JSON.parse(answer.text)
  } catch {
    // An HTML error page says nothing worth quoting.
    return answer.text.trimStart().startsWith('<') ? '' : answer.text.replace(/\s+/g, ' ').trim().slice(0, 200)
  }
  const parsed = ErrorBody.safeParse(body)
  if (!parsed.success) return ''
  const e = parsed.data
  const words = [...new Set([e.title ?? e['hydra:title'], e.detail ?? e['hydra:description'] ?? e.message].map((w) => w?.trim()).filter((w): w is string => !!w))]
  return words.join(' — ').slice(0, 200)
}

function _read<T>(schema: z.ZodType<T>, body: unknown, where: string): T {
  const parsed = schema.safeParse(body)
  if (!parsed.success) throw new SourceError('bad-answer', `${where} answered a shape Part-DB's API does not have (at ${issuePath(parsed.error)})`)
  return parsed.data
}

// ---------------------------------------------------------------------------
// Normalising

interface _Lookups {
  baseUrl: string
  baseCurrency: string | null
  now: Date
  /** The trees of a pull; a fetch goes by each embedded `full_path` instead. */
  categories: Map<string, _Node> | null
  locations: Map<string, _Node> | null
  attachmentTypes: Map<string, _Node> | null
}

function _lookups(context: PartdbContext, baseCurrency: string | null, trees?: Pick<_Lookups, 'categories' | 'locations' | 'attachmentTypes'>): _Lookups {
  return { baseUrl: context.config.baseUrl, baseCurrency, now: context.now(), categories: null, locations: null, attachmentTypes: null, ...trees }
}

function _peerPart(p: FullPart, l: _Lookups): PeerPart {
  const eda = p.eda_info
  const manufacturer = clip(p.manufacturer?.name, 200)
  const mpn = clip(p.manufacturer_product_number, 200)
  return {
    key: String(p.id),
    name: clip(p.name, 200) ?? '',
    ipn: clip(p.ipn, 100),
    // Part-DB descriptions are Markdown (with some HTML): kept as the text they are.
    description: clip(p.description, 10_000),
    categoryPath: _path(p.category, l.categories),
    tags: partdbTags(p.tags),
    status: partdbStatus(p.manufacturing_status),
    parameters: (p.parameters ?? []).map(_parameter).filter((x): x is SourceParameter => x !== null).slice(0, 500),
    // An MPN without a manufacturer is kept under the name the library gives an unnamed one.
    mpns: mpn ? [{ manufacturer: manufacturer ?? UNKNOWN_MANUFACTURER, partNumber: mpn }] : [],
    offers: _offers(p.orderdetails ?? [], l),
    stock: _stock(p, l),
    attachments: _attachments(p.attachments ?? [], l).slice(0, 100),
    kicad: {
      symbol: clip(eda?.kicad_symbol, 300),
      footprint: clip(eda?.kicad_footprint, 300),
      value: clip(eda?.value, 200),
      excludeFromBom: eda?.exclude_from_bom ?? null,
      excludeFromBoard: eda?.exclude_from_board ?? null,
      excludeFromSim: eda?.exclude_from_sim ?? null,
    },
    modifiedAt: _instant(p.lastModified),
  }
}

function _sourcePart(p: FullPart, mpn: string, l: _Lookups): SourcePart {
  const attachments = _attachments(p.attachments ?? [], l)
  const master = p.master_picture_attachment ? _attachments([p.master_picture_attachment], l)[0] : undefined
  const status = clip(p.manufacturing_status, 200)
  return {
    ref: String(p.id),
    manufacturer: clip(p.manufacturer?.name, 200),
    mpn,
    name: clip(p.name, 200),
    description: clip(p.description, 10_000),
    // The narrowest ten: a hint is most useful at the leaf.
    categoryHints: _path(p.category, l.categories).slice(-10),
    parameters: (p.parameters ?? []).map(_parameter).filter((x): x is SourceParameter => x !== null).slice(0, 200),
    datasheetUrl: attachments.find((a) => a.kind === 'datasheet')?.url ?? null,
    imageUrl: master?.url ?? attachments.find((a) => a.kind === 'image')?.url ?? null,
    productUrl: httpUrl(p.manufacturer_product_url),
    lifecycle: partdbLifecycle(status),
    supplierStatus: status,
    // Part-DB's footprint is the package (SOIC-8, 0603), not a CAD footprint.
    package: clip(p.footprint?.name, 200),
    rohs: null,
    offers: _offers(p.orderdetails ?? [], l),
  }
}

function _candidate(p: ListedPart, mpn: string): SourceCandidate {
  const stock = typeof p.total_instock === 'number' && Number.isFinite(p.total_instock) && p.total_instock >= 0 ? Math.round(p.total_instock) : null
  return {
    ref: String(p.id),
    manufacturer: clip(p.manufacturer?.name, 200),
    mpn,
    description: clip(p.description, 10_000),
    imageUrl: null,
    productUrl: httpUrl(p.manufacturer_product_url),
    lifecycle: partdbLifecycle(p.manufacturing_status),
    stock,
  }
}

/** The part number a search and fetch answer: the MPN, else the IPN, else the name (Part-DB requires one). */
function _mpnOf(p: ListedPart): string | null {
  return clip(p.manufacturer_product_number, 200) ?? clip(p.ipn, 200) ?? clip(p.name, 200)
}

/**
 * A category's or location's names from the root. With the tree of a pull,
 * by the parent IRIs (a name may itself hold " → "); otherwise, or for a node
 * the tree lacks, by splitting the embedded `full_path`.
 */
function _path(node: Basic | null | undefined, tree: Map<string, _Node> | null): string[] {
  if (!node) return []
  const iri = cleanText(node['@id'])
  const names: string[] = []
  if (tree && iri && tree.has(iri)) {
    const visited = new Set<string>()
    for (let at: string | null = iri; at && !visited.has(at) && visited.size < 20; ) {
      visited.add(at)
      const n: _Node | undefined = tree.get(at)
      if (!n) break
      if (n.name) names.unshift(n.name)
      at = n.parent
    }
  } else {
    const full = cleanText(node.full_path)
    names.push(...(full ? full.split(PATH_DELIMITER) : [node.name ?? '']))
  }
  return names.map((n) => clip(n, 200)).filter((n): n is string => n !== null).slice(0, 20)
}

function _parameter(p: Parameter): SourceParameter | null {
  const name = clip(p.name, 100)
  if (!name) return null
  return { name, value: partdbParameterValue(p).slice(0, 500), unit: clip(p.unit, 32) }
}

/**
 * Supplier offers from orderdetails. One offer per orderdetail and currency:
 * Part-DB lets each price of one orderdetail have its own currency, and an
 * offer has one. An `obsolete` orderdetail is one the supplier no longer
 * sells, so it is no offer. Part-DB keeps no supplier stock, minimum or
 * multiple: those are null.
 */
function _offers(details: Orderdetail[], l: _Lookups): SupplierOffer[] {
  const out: SupplierOffer[] = []
  for (const o of details) {
    const supplier = clip(o.supplier?.name, 200)
    if (o.obsolete || !supplier) continue
    const byCurrency = new Map<string | null, Map<number, number>>()
    for (const p of o.pricedetails ?? []) {
      const price = partdbUnitPrice(p.price, p.price_related_quantity)
      if (price === null) continue
      // Part-DB counts in the part's unit and may hold a fraction: the break starts at the next whole unit.
      const quantity = Math.max(1, Math.ceil(p.min_discount_quantity ?? 1))
      const currency = _currencyCode(p.currency_iso_code) ?? l.baseCurrency
      const breaks = byCurrency.get(currency) ?? new Map<number, number>()
      if (!breaks.has(quantity)) breaks.set(quantity, price)
      byCurrency.set(currency, breaks)
    }
    if (byCurrency.size === 0) byCurrency.set(null, new Map())
    for (const [currency, breaks] of byCurrency) {
      out.push({
        supplier,
        sku: clip(o.supplierpartnr, 200),
        url: httpUrl(o.supplier_product_url),
        stock: null,
        minimumQuantity: null,
        multiple: null,
        packaging: null,
        currency,
        priceBreaks: [...breaks].sort(([a], [b]) => a - b).slice(0, 50).map(([quantity, price]) => ({ quantity, price })),
        fetchedAt: l.now.toISOString(),
      })
    }
  }
  return out.slice(0, 50)
}

/**
 * Stock per lot, under its location's path. A lot marked `instock_unknown`
 * has no amount to tell (Part-DB leaves it out of its own sums too), and a
 * lot without a location has no place in the library's stock: both are left
 * out. Amounts are in the part's unit and may be fractional (metres of wire):
 * rounded to the nearest whole. Expired lots are still on the shelf and count.
 */
function _stock(p: FullPart, l: _Lookups): PeerPart['stock'] {
  const out: PeerPart['stock'] = []
  for (const lot of p.partLots ?? []) {
    if (lot.instock_unknown) continue
    const path = _path(lot.storage_location, l.locations)
    if (path.length === 0) continue
    const amount = typeof lot.amount === 'number' && Number.isFinite(lot.amount) ? lot.amount : 0
    out.push({ path, quantity: Math.min(1_000_000_000, Math.max(0, Math.round(amount))) })
  }
  return out.slice(0, 500)
}

/**
 * Attachments as links: the external URL where there is one (reachable
 * without Part-DB's credentials, even when Part-DB also keeps a copy), else
 * the server's own URL of the uploaded file, made absolute against `baseUrl`
 * (it is server-relative and already holds any path Part-DB is served under).
 */
function _attachments(raw: Attachment[], l: _Lookups): PeerPart['attachments'] {
  const out: PeerPart['attachments'] = []
  for (const a of raw) {
    const external = httpUrl(a.external_path)
    const url = external ?? _absolute(a.internal_path, l.baseUrl)
    if (!url) continue
    const type = typeof a.attachment_type === 'string' ? (l.attachmentTypes?.get(a.attachment_type)?.name ?? null) : cleanText(a.attachment_type?.name)
    const name = clip(a.name, 255) ?? 'Attachment'
    const kind = partdbAttachmentKind({ name, type, picture: a.picture === true, model: a['3d_model'] === true, external: cleanText(a.external_path), filename: cleanText(a.original_filename) ?? cleanText(a.internal_path) })
    out.push({ name, url, kind })
  }
  return out
}

function _absolute(path: string | null | undefined, baseUrl: string): string | null {
  const text = cleanText(path)
  if (!text) return null
  try {
    return httpUrl(new URL(text, baseUrl.replace(/\/*$/, '/')).href)
  } catch {
    return null
  }
}

function _currencyCode(value: string | null | undefined): string | null {
  const code = value?.trim().toUpperCase()
  return code && /^[A-Z]{3}$/.test(code) ? code : null
}

/** An instant as the contract's timestamp (Part-DB writes RFC 3339 with an offset). */
function _instant(value: string | null | undefined): string | null {
  if (!value) return null
  const at = new Date(value)
  return Number.isNaN(at.getTime()) ? null : at.toISOString()
}

// ---------------------------------------------------------------------------
// Reading Part-DB's fields (exported for the tests)

/**
 * The library's status from ManufacturingStatus: `announced` (not in
 * production yet) is `draft`; `nrfnd` is `nrnd`; `eol` ("will become
 * discontinued soon", still to be had) is `nrnd` too; `discontinued` is
 * `obsolete`; not set (`''`, null) says nothing: null.
 */
export function partdbStatus(value: string | null | undefined): ComponentStatus | null {
  switch (value?.trim().toLowerCase()) {
    case 'announced':
      return 'draft'
    case 'active':
      return 'active'
    case 'nrfnd':
    case 'eol':
      return 'nrnd'
    case 'discontinued':
      return 'obsolete'
    default:
      return null
  }
}

/** The same in a source's lifecycle words: `announced` is `preview`, not set is `unknown`. */
export function partdbLifecycle(value: string | null | undefined): SourceLifecycle {
  const status = partdbStatus(value)
  return status === null ? 'unknown' : status === 'draft' ? 'preview' : status
}

/** Tags from Part-DB's one comma-separated string: trimmed, each once, empty ones dropped. */
export function partdbTags(value: string | null | undefined): string[] {
  const out: string[] = []
  for (const piece of (value ?? '').split(',')) {
    const tag = clip(piece, 100)
    if (tag && !out.includes(tag)) out.push(tag)
  }
  return out.slice(0, 100)
}

/**
 * A parameter's value as one text, laid out as Part-DB's own `formatted`
 * but without the unit (that goes beside it): the text alone when there is
 * no number; else the typical value, the range after it in brackets
 * ("3.3 (2.7 ... 5.5)"), "min. x" or "max. y" for a one-sided range, a range
 * alone without a typical value ("-40 ... 125"), and the text after the
 * numbers in square brackets ("100 [X7R]").
 */
export function partdbParameterValue(p: { value_text?: string | null; value_min?: number | null; value_typical?: number | null; value_max?: number | null }): string {
  const text = p.value_text?.trim() ?? ''
  const shown = (n: number | null | undefined) => (typeof n === 'number' && Number.isFinite(n) ? String(n) : null)
  const [min, typ, max] = [shown(p.value_min), shown(p.value_typical), shown(p.value_max)] as const
  if (min === null && typ === null && max === null) return text
  const range = min !== null && max !== null ? `${min} ... ${max}` : max !== null ? `max. ${max}` : min !== null ? `min. ${min}` : null
  const numbers = typ === null ? (range ?? '') : range ? `${typ} (${range})` : typ
  return text ? `${numbers} [${text}]` : numbers
}

/**
 * The price of one unit: Part-DB's `price` is "for the price related
 * quantity" (a price per 100 pieces, say), a decimal string. Null when it is
 * not a price.
 */
export function partdbUnitPrice(price: string | number | null | undefined, perQuantity: number | null | undefined): number | null {
  const amount = typeof price === 'number' ? price : Number(String(price ?? '').trim() || Number.NaN)
  const per = typeof perQuantity === 'number' && Number.isFinite(perQuantity) && perQuantity > 0 ? perQuantity : 1
  const unit = amount / per
  return Number.isFinite(unit) && unit >= 0 ? unit : null
}

const DOCUMENT_EXTENSIONS = /\.(pdf|docx?|odt|rtf|txt|md|html?|xlsx?|ods|csv)$/i

/**
 * What an attachment is, from its type's name and its own (Part-DB's
 * attachment types are the user's own: "Datasheet", "Datenblatt", "3D
 * model"…), then from what Part-DB says of the file. `picture` is trusted for
 * an uploaded file or a link with an extension only: Part-DB also calls every
 * link without one a picture.
 */
export function partdbAttachmentKind(a: { name: string; type: string | null; picture: boolean; model: boolean; external: string | null; filename: string | null }): PeerPart['attachments'][number]['kind'] {
  const words = `${a.type ?? ''} ${a.name}`
  if (a.model) return 'cad'
  if (/data\s*-?\s*sheet|datenblatt|fiche technique/i.test(words)) return 'datasheet'
  if (/\b(3d|cad|step|kicad|footprint|symbol|model)\b/i.test(words)) return 'cad'
  const externalPath = a.external ? _pathOf(a.external) : null
  if (a.picture && (externalPath === null || /\.[a-z0-9]+$/i.test(externalPath))) return 'image'
  if (DOCUMENT_EXTENSIONS.test(externalPath ?? '') || DOCUMENT_EXTENSIONS.test(a.filename ?? '')) return 'document'
  return 'other'
}

function _pathOf(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return url
  }
}
