import { SourceError, type PeerPart, type SourceCandidate, type SourceParameter, type SourcePart, type SupplierOffer } from '@complib/core'
import { absoluteUrl, cleanText, clip, count, httpUrl, positive, priceBreaksOf } from '../_internal/answer-fields'
import type { Attachment, ManufacturerPart, Parameter, Part, PriceBreak, StockItem, SupplierPart, TreeNode } from './answers'
import { serverBase, type InventreeConfig, type InventreeContext } from './config'
import { decimal, inventreeAttachmentKind, inventreeTags, lastSegment, whole } from './fields'
import { byKey, type Library, type PartRecords } from './read'

/*
 * One InvenTree part in the contract's words: a pull's PeerPart from the
 * library read whole, a fetch's SourcePart, a search's SourceCandidate.
 * InvenTree keeps no KiCad fields: the inventree-kicad plugin
 * (github.com/afkiwers/inventree_kicad) maps parameter templates chosen in
 * its own settings, not templates of fixed names, so `kicad` stays null (the
 * parameters themselves come through) — and no modification time of a part,
 * so `modifiedAt` is null.
 */

/** Where stock with no location is put: skipped, the library would hold less than InvenTree counts. */
export const INVENTREE_NO_LOCATION = 'Unsorted'

type PeerAttachment = PeerPart['attachments'][number]

export function peerPart(part: Part, library: Library, context: InventreeContext): PeerPart {
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

export function sourcePart(pk: number, records: PartRecords, context: InventreeContext): SourcePart {
  const { part, mpns, supplierParts, priceBreaks, parameters, attachments, category } = records
  // Filters are joined again here: a server that ignores one answers more than the part's.
  const own = <T extends { part: number }>(list: T[]) => list.filter((x) => x.part === pk)
  const ownMpns = _mpns(own(mpns))
  const ownAttachments = _attachments(attachments.filter((a) => a.model_id === pk), context.config)
  return {
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
    offers: _offers(own(supplierParts), byKey(priceBreaks, (b) => b.part), context.now()),
  }
}

/** A search's candidate; its MPN is the one a fetch gives, from the part's manufacturer parts. */
export function candidate(part: Part, mpns: ManufacturerPart[], config: InventreeConfig): SourceCandidate {
  const first = _mpns(mpns.filter((m) => m.part === part.pk))[0]
  return {
    ref: String(part.pk),
    manufacturer: first?.manufacturer ?? null,
    mpn: _mpnOf(part, first),
    description: clip(part.description, 10_000),
    imageUrl: _absolute(part.image, config),
    productUrl: httpUrl(part.link),
    lifecycle: part.active === false ? 'obsolete' : 'active',
    // What the InvenTree holds of it: a peer's own stock, not a supplier's.
    stock: count(whole(part.in_stock)),
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
      stock: count(whole(s.available)),
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
  for (const b of [...raw].sort((x, y) => (decimal(x.quantity) ?? 0) - (decimal(y.quantity) ?? 0) || x.pk - y.pk)) {
    const quantity = positive(decimal(b.quantity))
    const price = decimal(b.price)
    if (quantity === null || price === null || price < 0) continue
    const code = /^[A-Za-z]{3}$/.test(b.price_currency?.trim() ?? '') ? b.price_currency!.trim().toUpperCase() : null
    currency ??= code
    if (code !== currency || byQuantity.has(quantity)) continue
    byQuantity.set(quantity, price)
  }
  // Already ascending: the breaks were read in the order of their quantities.
  return { currency, breaks: priceBreaksOf(byQuantity) }
}

/**
 * Stock summed per location path, whole units (a part kept in fractions,
 * metres of wire, loses the fraction: the library counts whole units);
 * stock with no location goes under INVENTREE_NO_LOCATION.
 */
function _stock(items: StockItem[], locations: Map<number, TreeNode>): PeerPart['stock'] {
  const byPath = new Map<string, { path: string[]; quantity: number }>()
  for (const item of items) {
    const quantity = decimal(item.quantity)
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

/** Link attachments by their link, files by their media URL on the server (downloading needs the same token). */
function _attachments(raw: Attachment[], config: InventreeConfig): PeerAttachment[] {
  const out: PeerAttachment[] = []
  for (const a of [...raw].sort((x, y) => x.pk - y.pk)) {
    const link = httpUrl(a.link)
    const url = link ?? _absolute(a.attachment, config)
    if (!url) continue
    const file = cleanText(a.filename) ?? lastSegment(a.attachment)
    const name = clip((link ? cleanText(a.comment) ?? lastSegment(link) : file) ?? new URL(url).host, 255)
    if (!name) continue
    out.push({ name, url, kind: inventreeAttachmentKind(link ? null : file, a.comment, url) })
  }
  return out
}

/** A media path made a URL on the server; an absolute http(s) URL as it is. */
function _absolute(path: string | null | undefined, config: InventreeConfig): string | null {
  return absoluteUrl(path, `${serverBase(config)}/`)
}
