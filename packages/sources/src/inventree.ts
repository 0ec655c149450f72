import {
  PeerPart,
  SourceCandidate,
  SourceError,
  SourcePart,
  defineSource,
  statusError,
  type SourceAnswer,
  type SourceContext,
  type SourceParameter,
  type SupplierOffer,
} from '@complib/core'
import * as z from 'zod'
import { conform, issuePath, scrub, count, positive, httpUrl, cleanText, clip } from './_internal/answer-fields'

/*
 * InvenTree's REST API, coded against InvenTree's own documentation and source:
 * - https://docs.inventree.org/en/stable/api/ and the schema pages under
 *   https://docs.inventree.org/en/stable/api/schema/ (part, company, stock,
 *   common): token auth is the `Authorization` header "Token <token>"; a list
 *   answers `{ count, next, previous, results }` when `limit`/`offset` are
 *   given (API v341, inventree/InvenTree#9547: "Require pagination limit on
 *   list queries"); `GET /api/` (InvenTree/api.py, InfoView) answers
 *   `{ server: "InvenTree", version, apiVersion, … }` without a login;
 * - github.com/inventree/InvenTree, src/backend/InvenTree/:
 *   part/serializers.py — PartSerializer (`pk`, `name`, `IPN`, `description`,
 *   `category`, `keywords`, `active`, `link`, `image`, `in_stock`, and
 *   `tags`, sent only with `?tags=true` since the output options), and
 *   CategorySerializer (`pk`, `name`, `parent`, `pathstring`);
 *   common/serializers.py — ParameterSerializer (`model_type`, `model_id`,
 *   `template_detail` { `name`, `units` }, `data`) at `/api/parameter/`,
 *   which replaced `/api/part/parameter/` (PartParameterSerializer: `part`,
 *   `template_detail`, `data`) in API v429 (inventree/InvenTree#10699; the
 *   official client inventree-python, inventree/part.py and base.py, uses
 *   the old one up to v428 and the new one from v429), and
 *   AttachmentSerializer (`model_type`, `model_id`, `attachment` — a media
 *   path —, `filename`, `link`, `comment`) at `/api/attachment/` (API v207,
 *   inventree/InvenTree#7420, the oldest this source reads);
 *   company/serializers.py and company/api.py — ManufacturerPartSerializer
 *   (`part`, `MPN`, `manufacturer_detail.name` with `?manufacturer_detail=true`)
 *   at `/api/company/part/manufacturer/`, SupplierPartSerializer (`part`,
 *   `SKU`, `link`, `available`, `packaging`, `pack_quantity`,
 *   `supplier_detail.name` with `?supplier_detail=true`) at
 *   `/api/company/part/`, SupplierPriceBreakSerializer (`part` = the supplier
 *   part, `quantity`, `price`, `price_currency`; filter `base_part`) at
 *   `/api/company/price-break/`;
 *   stock/serializers.py — StockItemSerializer (`part`, `quantity`,
 *   `location`; filter `in_stock`) at `/api/stock/`, and
 *   LocationSerializer (`pk`, `name`, `parent`, `pathstring`) at
 *   `/api/stock/location/`.
 * Quantities and prices are Decimal fields, rendered as numbers or as text
 * depending on the version: both are read. An error answers `{ detail }`.
 * InvenTree keeps no KiCad fields: the inventree-kicad plugin
 * (github.com/afkiwers/inventree_kicad) maps parameter templates chosen in
 * its own settings, not templates of fixed names, so `kicad` stays null
 * (the parameters themselves come through) — and no modification time of a
 * part, so `modifiedAt` is null.
 */

/** Items a page asks for: small answers (well under the HTTP client's 8 MiB), few requests. */
const PAGE = 100
/** A bound on the pages of one list (a million items), should a server keep answering `count` without ending. */
const MAX_PAGES = 10_000
/** The API version that moved part parameters to `/api/parameter/` (inventree/InvenTree#10699). */
const GENERIC_PARAMETERS = 429
/** The API version of the generic `/api/attachment/` (inventree/InvenTree#7420), InvenTree 0.16. */
const OLDEST_API = 207
/** How long a server's API version is remembered before it is asked again (it changes only on an upgrade). */
const VERSION_TTL_MS = 60 * 60 * 1000
/** Where stock with no location is put: skipped, the library would hold less than InvenTree counts. */
export const INVENTREE_NO_LOCATION = 'Unsorted'

const InventreeConfig = z.strictObject({
  baseUrl: z
    .url({ protocol: /^https?$/, error: 'an http(s) URL' })
    .meta({ description: 'The InvenTree server, e.g. https://inventree.example.com (the API is under /api/)' }),
  token: z
    .string()
    .min(1)
    .max(200)
    .regex(/^\S+$/, { error: 'a token has no spaces' })
    .meta({ description: "An API token of an InvenTree user allowed to read parts, companies and stock (Settings → Account → API tokens); sent as 'Authorization: Token …'" }),
})
type InventreeConfig = z.infer<typeof InventreeConfig>
type InventreeContext = SourceContext<InventreeConfig>

// ---------------------------------------------------------------------------
// What InvenTree answers (the serializers above). Only the fields read are
// named; a field of another type than documented is a `bad-answer`.

const Text = z.string().nullish()
const Pk = z.number().int()
/** A Decimal field: a number, or its text. */
const Decimal = z.union([z.number(), z.string()]).nullish()

const Info = z.object({ server: Text, apiVersion: z.union([z.number(), z.string()]).nullish() })
const Part = z.object({
  pk: Pk,
  name: z.string(),
  IPN: Text,
  description: Text,
  category: Pk.nullish(),
  keywords: Text,
  active: z.boolean().nullish(),
  tags: z.array(z.string()).nullish(),
  link: Text,
  image: Text,
  in_stock: Decimal,
})
type Part = z.infer<typeof Part>
const TreeNode = z.object({ pk: Pk, name: z.string(), parent: Pk.nullish(), pathstring: Text })
type TreeNode = z.infer<typeof TreeNode>
const TemplateDetail = z.object({ name: z.string(), units: Text }).nullish()
const Parameter = z.object({ pk: Pk, model_id: Pk, template_detail: TemplateDetail, data: Text })
const LegacyParameter = z.object({ pk: Pk, part: Pk, template_detail: TemplateDetail, data: Text })
type Parameter = z.infer<typeof Parameter>
const Company = z.object({ name: z.string() }).nullish()
const ManufacturerPart = z.object({ pk: Pk, part: Pk, MPN: Text, manufacturer_detail: Company })
type ManufacturerPart = z.infer<typeof ManufacturerPart>
const SupplierPart = z.object({
  pk: Pk,
  part: Pk,
  SKU: Text,
  link: Text,
  available: Decimal,
  packaging: Text,
  pack_quantity: Text,
  supplier_detail: Company,
})
type SupplierPart = z.infer<typeof SupplierPart>
const PriceBreak = z.object({ pk: Pk, part: Pk, quantity: Decimal, price: Decimal, price_currency: Text })
type PriceBreak = z.infer<typeof PriceBreak>
const StockItem = z.object({ pk: Pk, part: Pk, quantity: Decimal, location: Pk.nullish() })
type StockItem = z.infer<typeof StockItem>
const Attachment = z.object({ pk: Pk, model_id: Pk, attachment: Text, filename: Text, link: Text, comment: Text })
type Attachment = z.infer<typeof Attachment>
const ErrorBody = z.object({ detail: Text })

/** Everything a part is joined from, each list keyed by the part's pk. */
interface Library {
  parts: Part[]
  categories: Map<number, TreeNode>
  locations: Map<number, TreeNode>
  parameters: Map<number, Parameter[]>
  manufacturerParts: Map<number, ManufacturerPart[]>
  supplierParts: Map<number, SupplierPart[]>
  /** By supplier part pk. */
  priceBreaks: Map<number, PriceBreak[]>
  stock: Map<number, StockItem[]>
  attachments: Map<number, Attachment[]>
}

// ---------------------------------------------------------------------------

export const inventreeSource = defineSource({
  type: 'inventree',
  title: 'InvenTree',
  description: 'Parts of an InvenTree server — categories, parameters, manufacturer and supplier parts with prices, stock and attachments — to search, or to pull as a whole library and sync again (an API token).',
  documentation: 'https://docs.inventree.org/en/stable/api/',
  configSchema: InventreeConfig,
  secretFields: ['token'],
  capabilities: { search: true, offers: true, lifecycle: false, pull: true },
  // InvenTree documents no rate limit: it is the user's own server. Ten
  // requests a second lets a pull of a large library (a few hundred pages)
  // finish in about a minute without crowding out the people using it.
  limits: { requestsPerMinute: 600, requestsPerDay: null },

  async search(query, context, limit) {
    const text = query.trim().slice(0, 200)
    const wanted = Math.min(Math.floor(limit), 50)
    if (!text || !(wanted >= 1)) return []
    const page = await _page(context, '/api/part/', { search: text }, Part, 0, wanted)
    const out: SourceCandidate[] = []
    for (const part of page.results.slice(0, wanted)) {
      // The candidate's MPN is the one a fetch gives: one request per part for its manufacturer parts.
      const mpns = await _readAll(context, '/api/company/part/manufacturer/', { part: part.pk, manufacturer_detail: true }, ManufacturerPart)
      const first = _mpns(mpns.filter((m) => m.part === part.pk))[0]
      out.push(
        conform('InvenTree', SourceCandidate, {
          ref: String(part.pk),
          manufacturer: first?.manufacturer ?? null,
          mpn: _mpnOf(part, first),
          description: clip(part.description, 10_000),
          imageUrl: _absolute(part.image, context.config),
          productUrl: httpUrl(part.link),
          lifecycle: part.active === false ? 'obsolete' : 'active',
          // What the InvenTree holds of it: a peer's own stock, not a supplier's.
          stock: count(_whole(part.in_stock)),
        }, `part ${part.pk} of its search`),
      )
    }
    return out
  },

  async fetch(ref, context) {
    const wanted = ref.trim()
    if (!/^[1-9]\d{0,14}$/.test(wanted)) return null
    const pk = Number(wanted)
    const body = await _get(context, `/api/part/${pk}/`, { tags: true }, { notFoundAsNull: true })
    if (body === null) return null
    const part = _read(Part, body, `part ${pk}`)
    const version = await _apiVersion(context)
    const mpns = await _readAll(context, '/api/company/part/manufacturer/', { part: pk, manufacturer_detail: true }, ManufacturerPart)
    const supplierParts = await _readAll(context, '/api/company/part/', { part: pk, supplier_detail: true }, SupplierPart)
    const priceBreaks = await _readAll(context, '/api/company/price-break/', { base_part: pk }, PriceBreak)
    const parameters = await _readParameters(context, version, pk)
    const attachments = await _readAll(context, '/api/attachment/', { model_type: 'part', model_id: pk }, Attachment)
    const category = part.category == null ? null : _read(TreeNode, await _get(context, `/api/part/category/${part.category}/`, {}), `category ${part.category}`)
    // Filters are joined again here: a server that ignores one answers more than the part's.
    const own = <T extends { part: number }>(list: T[]) => list.filter((x) => x.part === pk)
    const ownMpns = _mpns(own(mpns))
    const ownAttachments = _attachments(attachments.filter((a) => a.model_id === pk), context.config)
    return conform('InvenTree', SourcePart, {
      ref: String(pk),
      manufacturer: ownMpns[0]?.manufacturer ?? null,
      mpn: _mpnOf(part, ownMpns[0]),
      name: clip(part.name, 200),
      description: clip(part.description, 10_000),
      categoryHints: (category ? (category.pathstring ?? category.name) : '').split('/').map((n) => clip(n, 200)).filter((n): n is string => n !== null).slice(-10),
      parameters: _parameters(parameters.filter((p) => p.model_id === pk)).slice(0, 200),
      datasheetUrl: ownAttachments.find((a) => a.kind === 'datasheet')?.url ?? null,
      imageUrl: _absolute(part.image, context.config),
      productUrl: httpUrl(part.link),
      lifecycle: part.active === false ? 'obsolete' : 'active',
      supplierStatus: part.active == null ? null : part.active ? 'Active' : 'Inactive',
      package: null,
      rohs: null,
      offers: _offers(own(supplierParts), _byKey(priceBreaks, (b) => b.part), context.now()),
    }, `part ${pk}`)
  },

  async *pull(context, onProgress) {
    const library = await _readLibrary(context)
    const parts = [...library.parts].sort((a, b) => a.pk - b.pk)
    onProgress?.(0, parts.length)
    for (const [i, part] of parts.entries()) {
      yield conform('InvenTree', PeerPart, _peerPart(part, library, context), `part ${part.pk}`)
      onProgress?.(i + 1, parts.length)
    }
  },
})

// ---------------------------------------------------------------------------
// Asking

function _base(config: InventreeConfig): string {
  // Either the server or its API root may be configured: both mean the same server.
  return config.baseUrl.replace(/\/+$/, '').replace(/\/api$/, '')
}

type Query = Record<string, string | number | boolean>

/** One GET with the token; the body as JSON, or null for a 404 when asked. */
async function _get(context: InventreeContext, path: string, query: Query, options: { notFoundAsNull?: boolean } = {}): Promise<unknown> {
  const url = new URL(`${_base(context.config)}${path}`)
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value))
  const where = `${url.host}${url.pathname}`
  const answer = await context.http.request(url, { method: 'GET', headers: { authorization: `Token ${context.config.token}`, accept: 'application/json' } })
  if (answer.status === 404 && options.notFoundAsNull) return null
  if (answer.status < 200 || answer.status > 299) {
    const said = scrub(_said(answer), [context.config.token])
    throw statusError(answer.status, answer.headers, `${where} answered ${answer.status}${said ? `: ${said}` : ''}`)
  }
  return answer.json()
}

/** What an error answer says: DRF's `detail`, else its first line. */
function _said(answer: SourceAnswer): string {
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(answer.text))
    return parsed.success ? (parsed.data.detail ?? '').slice(0, 200) : ''
  } catch {
    return answer.text.replace(/\s+/g, ' ').trim().slice(0, 200)
  }
}

function _read<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body)
  if (!parsed.success) throw new SourceError('bad-answer', `InvenTree answered ${what} in a shape its API schema does not describe (at ${issuePath(parsed.error)})`)
  return parsed.data
}

async function _page<T>(context: InventreeContext, path: string, query: Query, item: z.ZodType<T>, offset: number, limit: number): Promise<{ count: number; results: T[] }> {
  const body = await _get(context, path, { ...query, limit, offset })
  return _read(z.object({ count: z.number().int().min(0), results: z.array(item) }), body, `a page of ${path}`)
}

/** A whole list, page after page by `offset` (not by `next`: behind a proxy its host may not be the one asked). */
async function _readAll<T>(context: InventreeContext, path: string, query: Query, item: z.ZodType<T>): Promise<T[]> {
  const out: T[] = []
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const page = await _page(context, path, query, item, out.length, PAGE)
    out.push(...page.results)
    if (page.results.length === 0 || out.length >= page.count) return out
  }
  throw new SourceError('bad-answer', `InvenTree kept answering pages of ${path} past ${MAX_PAGES * PAGE} items`)
}

/** The server's API version, remembered for an hour: it decides where parameters are read. */
async function _apiVersion(context: InventreeContext): Promise<number> {
  const key = `inventree:apiVersion:${_base(context.config)}`
  const held = context.memo.get(key) as { version: number; at: number } | undefined
  if (held && Date.now() - held.at < VERSION_TTL_MS) return held.version
  const info = _read(Info, await _get(context, '/api/', {}), 'its server information')
  const version = Number(info.apiVersion)
  if (!Number.isInteger(version) || version < 1) throw new SourceError('bad-answer', `${_base(context.config)}/api/ gave no API version: is it an InvenTree server?`)
  if (version < OLDEST_API) throw new SourceError('refused', `InvenTree API version ${version} is older than ${OLDEST_API} (InvenTree 0.16), the oldest with the attachment API this source reads`)
  context.memo.set(key, { version, at: Date.now() })
  return version
}

/** Part parameters from where the server keeps them, in the generic shape (`model_id` = the part). */
async function _readParameters(context: InventreeContext, version: number, part?: number): Promise<Parameter[]> {
  if (version >= GENERIC_PARAMETERS) {
    return _readAll(context, '/api/parameter/', { model_type: 'part', template_detail: true, ...(part === undefined ? {} : { model_id: part }) }, Parameter)
  }
  const legacy = await _readAll(context, '/api/part/parameter/', { template_detail: true, ...(part === undefined ? {} : { part }) }, LegacyParameter)
  return legacy.map((p) => ({ pk: p.pk, model_id: p.part, template_detail: p.template_detail, data: p.data }))
}

/** Every list a pull joins, each read whole. Parts first: a refused token fails there. */
async function _readLibrary(context: InventreeContext): Promise<Library> {
  const parts = await _readAll(context, '/api/part/', { tags: true }, Part)
  const version = await _apiVersion(context)
  const categories = await _readAll(context, '/api/part/category/', {}, TreeNode)
  const locations = await _readAll(context, '/api/stock/location/', {}, TreeNode)
  const parameters = await _readParameters(context, version)
  const manufacturerParts = await _readAll(context, '/api/company/part/manufacturer/', { manufacturer_detail: true }, ManufacturerPart)
  const supplierParts = await _readAll(context, '/api/company/part/', { supplier_detail: true }, SupplierPart)
  const priceBreaks = await _readAll(context, '/api/company/price-break/', {}, PriceBreak)
  // Only what is on the shelf: not what was sold, consumed by a build or is being built.
  const stock = await _readAll(context, '/api/stock/', { in_stock: true }, StockItem)
  const attachments = await _readAll(context, '/api/attachment/', { model_type: 'part' }, Attachment)
  return {
    parts,
    categories: new Map(categories.map((c) => [c.pk, c])),
    locations: new Map(locations.map((l) => [l.pk, l])),
    parameters: _byKey(parameters, (p) => p.model_id),
    manufacturerParts: _byKey(manufacturerParts, (m) => m.part),
    supplierParts: _byKey(supplierParts, (s) => s.part),
    priceBreaks: _byKey(priceBreaks, (b) => b.part),
    stock: _byKey(stock, (s) => s.part),
    attachments: _byKey(attachments, (a) => a.model_id),
  }
}

function _byKey<T>(list: T[], key: (item: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>()
  for (const item of list) {
    const held = out.get(key(item))
    if (held) held.push(item)
    else out.set(key(item), [item])
  }
  return out
}

// ---------------------------------------------------------------------------
// Normalising

function _peerPart(part: Part, library: Library, context: InventreeContext): PeerPart {
  const name = clip(part.name, 200)
  if (!name) throw new SourceError('bad-answer', `InvenTree answered part ${part.pk} without a name`)
  return {
    key: String(part.pk),
    name,
    ipn: clip(part.IPN, 100),
    description: clip(part.description, 10_000),
    categoryPath: part.category == null ? [] : _path(part.category, library.categories),
    tags: inventreeTags(part.tags, part.keywords),
    // InvenTree has one lifecycle flag: an inactive part is one not to use
    // any more (it cannot be added to new orders or BOMs) — the library's
    // `obsolete`; an active one is `active`.
    status: part.active == null ? null : part.active ? 'active' : 'obsolete',
    parameters: _parameters(library.parameters.get(part.pk) ?? []).slice(0, 500),
    mpns: _mpns(library.manufacturerParts.get(part.pk) ?? []).slice(0, 50),
    offers: _offers(library.supplierParts.get(part.pk) ?? [], library.priceBreaks, context.now()),
    stock: _stock(library.stock.get(part.pk) ?? [], library.locations),
    attachments: _attachments(library.attachments.get(part.pk) ?? [], context.config).slice(0, 100),
    kicad: { symbol: null, footprint: null, value: null, excludeFromBom: null, excludeFromBoard: null, excludeFromSim: null },
    modifiedAt: null,
  }
}

/** The names from the root to `pk` by `parent` (not `pathstring`, which joins names with "/" a name may hold). */
function _path(pk: number, nodes: Map<number, TreeNode>): string[] {
  const names: string[] = []
  const seen = new Set<number>()
  for (let at: number | null | undefined = pk; at != null && !seen.has(at); ) {
    seen.add(at)
    const node = nodes.get(at)
    if (!node) break
    const name = clip(node.name, 200)
    if (name) names.unshift(name)
    at = node.parent
  }
  return names.slice(0, 20)
}

/**
 * Tags from InvenTree's own `tags`, then its `keywords`, each once (case
 * aside). Keywords are free text, written as a list ("op amp, dual, smd") or
 * as words ("opamp dual smd"): with a comma or semicolon they are split
 * there, so a keyword of several words stays whole; without, on spaces.
 */
export function inventreeTags(tags: readonly string[] | null | undefined, keywords: string | null | undefined): string[] {
  const text = keywords?.trim() ?? ''
  const words = text ? text.split(/[,;]/.test(text) ? /[,;]/ : /\s+/) : []
  const out: string[] = []
  const seen = new Set<string>()
  for (const raw of [...(tags ?? []), ...words]) {
    const tag = clip(raw, 100)
    if (!tag || seen.has(tag.toLowerCase())) continue
    seen.add(tag.toLowerCase())
    out.push(tag)
  }
  return out.slice(0, 100)
}

/** Parameters in InvenTree's order, the template's units as the unit (none when it has none). */
function _parameters(raw: Parameter[]): SourceParameter[] {
  const out: SourceParameter[] = []
  for (const p of [...raw].sort((a, b) => a.pk - b.pk)) {
    const name = clip(p.template_detail?.name, 100)
    if (!name) continue
    out.push({ name, value: (p.data ?? '').slice(0, 500), unit: clip(p.template_detail?.units, 32) })
  }
  return out
}

function _mpns(raw: ManufacturerPart[]): PeerPart['mpns'] {
  const out: PeerPart['mpns'] = []
  for (const m of [...raw].sort((a, b) => a.pk - b.pk)) {
    const manufacturer = clip(m.manufacturer_detail?.name, 200)
    const partNumber = clip(m.MPN, 200)
    if (manufacturer && partNumber) out.push({ manufacturer, partNumber })
  }
  return out
}

/** A fetch's and a search's MPN: the first manufacturer part's, else the IPN, else the name. */
function _mpnOf(part: Part, first: PeerPart['mpns'][number] | undefined): string {
  return first?.partNumber ?? clip(part.IPN, 200) ?? clip(part.name, 200) ?? String(part.pk)
}

/**
 * Supplier parts as offers. InvenTree keeps no minimum or order multiple;
 * its price breaks count and price the supplier part's own unit, a pack of
 * `pack_quantity` when one is set, so the pack is named with the packaging
 * and the breaks are kept as held.
 */
function _offers(raw: SupplierPart[], priceBreaks: Map<number, PriceBreak[]>, now: Date): SupplierOffer[] {
  const out: SupplierOffer[] = []
  for (const s of [...raw].sort((a, b) => a.pk - b.pk)) {
    const supplier = clip(s.supplier_detail?.name, 200)
    if (!supplier) continue
    const pack = cleanText(s.pack_quantity)
    const packaging = [cleanText(s.packaging), pack && pack !== '1' ? `pack of ${pack}` : null].filter((w): w is string => w !== null).join(', ')
    const breaks = _priceBreaks(priceBreaks.get(s.pk) ?? [])
    out.push({
      supplier,
      sku: clip(s.SKU, 200),
      url: httpUrl(s.link),
      stock: count(_whole(s.available)),
      minimumQuantity: null,
      multiple: null,
      packaging: packaging ? packaging.slice(0, 200) : null,
      currency: breaks.currency,
      priceBreaks: breaks.breaks,
      fetchedAt: now.toISOString(),
    })
  }
  return out.slice(0, 50)
}

/** Breaks ascending by quantity in the first one's currency; a quantity that is not a whole number of at least one is left out. */
function _priceBreaks(raw: PriceBreak[]): { currency: string | null; breaks: SupplierOffer['priceBreaks'] } {
  let currency: string | null = null
  const byQuantity = new Map<number, number>()
  for (const b of [...raw].sort((x, y) => (_number(x.quantity) ?? 0) - (_number(y.quantity) ?? 0) || x.pk - y.pk)) {
    const quantity = positive(_number(b.quantity))
    const price = _number(b.price)
    if (quantity === null || price === null || price < 0) continue
    const code = /^[A-Za-z]{3}$/.test(b.price_currency?.trim() ?? '') ? b.price_currency!.trim().toUpperCase() : null
    currency ??= code
    if (code !== currency || byQuantity.has(quantity)) continue
    byQuantity.set(quantity, price)
  }
  return { currency, breaks: [...byQuantity].slice(0, 50).map(([quantity, price]) => ({ quantity, price })) }
}

/**
 * Stock summed per location path, whole units (a part kept in fractions,
 * metres of wire, loses the fraction: the library counts whole units);
 * stock with no location goes under INVENTREE_NO_LOCATION.
 */
function _stock(items: StockItem[], locations: Map<number, TreeNode>): PeerPart['stock'] {
  const byPath = new Map<string, { path: string[]; quantity: number }>()
  for (const item of items) {
    const quantity = _number(item.quantity)
    if (quantity === null || quantity <= 0) continue
    const found = item.location == null ? [] : _path(item.location, locations)
    const path = found.length > 0 ? found : [INVENTREE_NO_LOCATION]
    const key = path.join('\u0000')
    const held = byPath.get(key)
    if (held) held.quantity += quantity
    else byPath.set(key, { path, quantity })
  }
  return [...byPath.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, s]) => ({ path: s.path, quantity: Math.min(Math.floor(s.quantity + 1e-9), 1_000_000_000) }))
    .filter((s) => s.quantity > 0)
    .slice(0, 500)
}

type PeerAttachment = PeerPart['attachments'][number]

/** Link attachments by their link, files by their media URL on the server (downloading needs the same token). */
function _attachments(raw: Attachment[], config: InventreeConfig): PeerAttachment[] {
  const out: PeerAttachment[] = []
  for (const a of [...raw].sort((x, y) => x.pk - y.pk)) {
    const link = httpUrl(a.link)
    const url = link ?? _absolute(a.attachment, config)
    if (!url) continue
    const file = cleanText(a.filename) ?? _lastSegment(a.attachment)
    const name = clip((link ? cleanText(a.comment) ?? _lastSegment(link) : file) ?? new URL(url).host, 255)
    if (!name) continue
    out.push({ name, url, kind: inventreeAttachmentKind(link ? null : file, a.comment, url) })
  }
  return out
}

const IMAGE = /\.(png|jpe?g|gif|bmp|webp|svg|tiff?)$/i
const CAD = /\.(step|stp|wrl|stl|iges|igs|dxf|kicad_(mod|sym|pcb)|lib|brd|sch|f3d)$/i
const DOCUMENT = /\.(pdf|txt|md|rtf|docx?|odt|xlsx?|ods|csv|html?)$/i

/** 'datasheet' when the file's name or the comment says so; else by the file's (or link's) extension; else 'other'. */
export function inventreeAttachmentKind(filename: string | null | undefined, comment: string | null | undefined, url: string): PeerAttachment['kind'] {
  if (/data\s*-?\s*sheet|datenblatt/i.test(`${filename ?? ''} ${comment ?? ''}`)) return 'datasheet'
  const named = filename ?? _lastSegment(url) ?? ''
  if (IMAGE.test(named)) return 'image'
  if (CAD.test(named)) return 'cad'
  if (DOCUMENT.test(named)) return 'document'
  return 'other'
}

/** A media path made a URL on the server; an absolute http(s) URL as it is. */
function _absolute(path: string | null | undefined, config: InventreeConfig): string | null {
  const text = cleanText(path)
  if (!text) return null
  try {
    return httpUrl(new URL(text, `${_base(config)}/`).toString())
  } catch {
    return null
  }
}

function _lastSegment(path: string | null | undefined): string | null {
  const text = cleanText(path)
  if (!text) return null
  let pathname = text
  try {
    pathname = new URL(text, 'http://x/').pathname
  } catch {
    // the text as it is
  }
  const last = pathname.split('/').filter(Boolean).at(-1)
  if (!last) return null
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

/** A Decimal field as a finite number, or null. */
function _number(value: number | string | null | undefined): number | null {
  const n = typeof value === 'string' ? (value.trim() === '' ? Number.NaN : Number(value)) : (value ?? Number.NaN)
  return Number.isFinite(n) ? n : null
}

/** A Decimal field as a whole number (rounded down), or null. */
function _whole(value: number | string | null | undefined): number | null {
  const n = _number(value)
  return n === null ? null : Math.floor(n + 1e-9)
}
