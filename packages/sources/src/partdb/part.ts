import type { PeerPart, SourceCandidate, SourceParameter, SourcePart, SupplierOffer } from '@complib/core'
import { absoluteUrl, cleanText, clip, currencyCode, httpUrl, priceBreaksOf } from '../_internal/answer-fields'
import { UNKNOWN_MANUFACTURER } from '../runtime/library-mapping'
import type { Attachment, Basic, FullPart, ListedPart, Orderdetail, Parameter } from './answers'
import type { PartdbContext } from './config'
import { partdbAttachmentKind, partdbLifecycle, partdbParameterValue, partdbStatus, partdbTags, partdbUnitPrice } from './fields'
import type { TreeName } from './read'

/*
 * One Part-DB part in the contract's words: a pull's PeerPart, a fetch's
 * SourcePart, a search's SourceCandidate. Paths come from the trees a pull
 * reads, else from `full_path` (src/Entity/Base/AbstractStructuralDBElement.php,
 * as of commit 1521c63c: the names from the root joined by " → "); a price
 * whose `currency_iso_code` is null is in "the global base currency"
 * (src/Entity/PriceInformations/Pricedetail.php), GET /api/info's `base_currency`.
 */

/** Part-DB's separator in `full_path` (AbstractStructuralDBElement::PATH_DELIMITER_ARROW). */
const PATH_DELIMITER = ' → '

/** What a part is read against besides itself. */
export interface Lookups {
  baseUrl: string
  baseCurrency: string | null
  now: Date
  /** The trees of a pull; a fetch goes by each embedded `full_path` instead. */
  categories: Map<string, TreeName> | null
  locations: Map<string, TreeName> | null
  attachmentTypes: Map<string, TreeName> | null
}

export function lookups(context: PartdbContext, baseCurrency: string | null, trees?: Pick<Lookups, 'categories' | 'locations' | 'attachmentTypes'>): Lookups {
  return { baseUrl: context.config.baseUrl, baseCurrency, now: context.now(), categories: null, locations: null, attachmentTypes: null, ...trees }
}

export function peerPart(p: FullPart, l: Lookups): PeerPart {
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

export function sourcePart(p: FullPart, mpn: string, l: Lookups): SourcePart {
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

export function candidate(p: ListedPart, mpn: string): SourceCandidate {
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
export function mpnOf(p: ListedPart): string | null {
  return clip(p.manufacturer_product_number, 200) ?? clip(p.ipn, 200) ?? clip(p.name, 200)
}

/**
 * A category's or location's names from the root. With the tree of a pull,
 * by the parent IRIs (a name may itself hold " → "); otherwise, or for a node
 * the tree lacks, by splitting the embedded `full_path`.
 */
function _path(node: Basic | null | undefined, tree: Map<string, TreeName> | null): string[] {
  if (!node) return []
  const iri = cleanText(node['@id'])
  const names: string[] = []
  if (tree && iri && tree.has(iri)) {
    const visited = new Set<string>()
    for (let at: string | null = iri; at && !visited.has(at) && visited.size < 20; ) {
      visited.add(at)
      const n: TreeName | undefined = tree.get(at)
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
function _offers(details: Orderdetail[], l: Lookups): SupplierOffer[] {
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
      const currency = currencyCode(p.currency_iso_code) ?? l.baseCurrency
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
        priceBreaks: priceBreaksOf(breaks),
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
function _stock(p: FullPart, l: Lookups): PeerPart['stock'] {
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
function _attachments(raw: Attachment[], l: Lookups): PeerPart['attachments'] {
  const out: PeerPart['attachments'] = []
  for (const a of raw) {
    const external = httpUrl(a.external_path)
    // Server-relative, it already holds any path Part-DB is served under.
    const url = external ?? absoluteUrl(a.internal_path, l.baseUrl.replace(/\/*$/, '/'))
    if (!url) continue
    const type = typeof a.attachment_type === 'string' ? (l.attachmentTypes?.get(a.attachment_type)?.name ?? null) : cleanText(a.attachment_type?.name)
    const name = clip(a.name, 255) ?? 'Attachment'
    const kind = partdbAttachmentKind({ name, type, picture: a.picture === true, model: a['3d_model'] === true, external: cleanText(a.external_path), filename: cleanText(a.original_filename) ?? cleanText(a.internal_path) })
    out.push({ name, url, kind })
  }
  return out
}

/** An instant as the contract's timestamp (Part-DB writes RFC 3339 with an offset). */
function _instant(value: string | null | undefined): string | null {
  if (!value) return null
  const at = new Date(value)
  return Number.isNaN(at.getTime()) ? null : at.toISOString()
}
