import { foldKey } from '../identifiers'
import type { Component, ComponentPatchParsed } from '../schemas/component'
import type { ImportField } from '../schemas/import'
import type { SupplierOffer } from '../schemas/source'
import type { StorageSession } from '../storage/types'
import { toLocationPaths } from './location-paths'
import type { LibRef, LinkInput, StockInput } from './row-input'

/** A field an update changes: the stored value and the value after the commit, in the form the file gives it. */
export interface FieldChange {
  field: ImportField
  before: unknown
  after: unknown
}

/** What an update carries besides its patch: symbols and footprints by reference, stock per location path, links. */
export interface UpdateExtras {
  symbols?: LibRef[] | undefined
  footprints?: LibRef[] | undefined
  stock?: StockInput[] | undefined
  attachments?: LinkInput[] | undefined
  offers?: SupplierOffer[] | undefined
}

/** Lookups shared by every row of one plan: the location tree, and symbols and footprints by id. */
export interface ChangeLookups {
  paths?: Map<string, string[]>
  refs: Map<string, string>
}

const SCALARS = ['name', 'ipn', 'description', 'status', 'category', 'kicadValue', 'excludeFromBom', 'excludeFromBoard', 'excludeFromSim'] as const

/**
 * The fields an update changes, compared with what is stored: an empty list
 * means the row finds the part already as the file says, and the commit
 * leaves it alone (decision 0611).
 * Tags compare as the database compares names (foldKey); parameters by
 * type, value and unit; stock only at the locations the file names; links
 * by URL (the import adds links, it removes none).
 */
export async function findChanges(storage: StorageSession, existing: Component, patch: ComponentPatchParsed, extras: UpdateExtras, lookups: ChangeLookups, offerSource?: string): Promise<FieldChange[]> {
  const changes: FieldChange[] = []
  for (const field of SCALARS) {
    const after = patch[field]
    if (after !== undefined && after !== existing[field]) changes.push({ field, before: existing[field], after })
  }
  if (patch.tags && !_sameSet(existing.tags.map(foldKey), patch.tags.map(foldKey))) changes.push({ field: 'tags', before: existing.tags, after: patch.tags })
  if (patch.parameters && !_sameSet(existing.parameters.map(_parameterKey), patch.parameters.map(_parameterKey))) {
    changes.push({ field: 'parameters', before: existing.parameters, after: patch.parameters })
  }
  if (patch.mpns && !_sameSet(existing.mpns.map(_mpnKey), patch.mpns.map(_mpnKey))) changes.push({ field: 'mpns', before: existing.mpns, after: patch.mpns })
  for (const kind of ['symbols', 'footprints'] as const) {
    const refs = extras[kind]
    if (!refs) continue
    const before = await Promise.all(existing[kind].map((l) => _refOf(storage, kind, l.id, lookups)))
    const after = [...new Set(refs.map((r) => `${r.library}:${r.name}`))]
    if (before.join('\n') !== after.join('\n')) changes.push({ field: kind, before, after })
  }
  if (extras.stock?.length) {
    lookups.paths ??= toLocationPaths(await storage.locations.tree())
    const stored = (await storage.locations.stockForComponent(existing.id)).map((s) => ({ path: (lookups.paths!.get(s.locationId) ?? [s.locationName]).join('/'), quantity: s.quantity }))
    const after = stored.map((s) => ({ ...s }))
    let changed = false
    for (const s of extras.stock) {
      const path = s.path.join('/')
      const same = after.find((t) => foldKey(t.path) === foldKey(path))
      // None where nothing is stocked is what the library holds already (stock 0 is no entry).
      if (!same) {
        if (s.quantity === 0) continue
        after.push({ path, quantity: s.quantity })
      } else if (same.quantity !== s.quantity) same.quantity = s.quantity
      else continue
      changed = true
    }
    if (changed) changes.push({ field: 'stock', before: stored, after })
  }
  if (extras.attachments?.length) {
    const have = (await storage.attachments.listForComponent(existing.id)).flatMap((a) => (a.url ? [a.url] : []))
    const added = [...new Set(extras.attachments.map((a) => a.url))].filter((url) => !have.includes(url))
    if (added.length) changes.push({ field: 'attachments', before: have, after: [...have, ...added] })
  }
  if (extras.offers && offerSource !== undefined) {
    // The source's last answer replaces its offers whole; when they were asked (fetchedAt) is no change of what they say.
    const stored = (await storage.offers.list(existing.id)).filter((o) => o.sourceId === offerSource).map(({ sourceId: _s, ref: _r, ...o }) => o)
    // In no particular order: offers are listed by supplier, not in the order a source gave them.
    const said = (list: readonly SupplierOffer[]) =>
      JSON.stringify(list.map((o) => JSON.stringify([o.supplier, o.sku, o.url, o.stock, o.minimumQuantity, o.multiple, o.packaging, o.currency, o.priceBreaks.map((b) => [b.quantity, b.price])])).sort())
    if (said(stored) !== said(extras.offers)) changes.push({ field: 'offers', before: stored, after: extras.offers })
  }
  return changes
}

async function _refOf(storage: StorageSession, kind: 'symbols' | 'footprints', id: string, lookups: ChangeLookups): Promise<string> {
  let ref = lookups.refs.get(id)
  if (ref === undefined) {
    const item = await storage[kind].get(id)
    ref = item.library ? `${item.library}:${item.name}` : item.name
    lookups.refs.set(id, ref)
  }
  return ref
}

function _sameSet(a: string[], b: string[]): boolean {
  const left = new Set(a)
  const right = new Set(b)
  return left.size === right.size && [...left].every((k) => right.has(k))
}

function _parameterKey(p: { type: string; value: string; unit?: string | null | undefined }): string {
  return JSON.stringify([p.type, p.value, p.unit ?? ''])
}

function _mpnKey(m: { manufacturer: string; partNumber: string }): string {
  return `${foldKey(m.manufacturer)}\u0000${m.partNumber.toUpperCase()}`
}
