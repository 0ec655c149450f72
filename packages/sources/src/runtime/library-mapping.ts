import {
  COMPONENT_LIMITS,
  canTransition,
  checkParameterValue,
  foldKey,
  statusFromLifecycle,
  type Component,
  type ComponentCreate,
  type ComponentOffer,
  type ComponentParameter,
  type ComponentStatus,
  type EnrichField,
  type ParameterRule,
  type SourcePart,
  type SupplierOffer,
} from '@complib/core'

/** What the library holds that a part is mapped onto. */
export interface LibraryShape {
  /** The library's parameter types with their rules. */
  rules: readonly ParameterRule[]
  /** The paths of the library's categories. */
  categories: readonly string[]
  /** The source's type title (`Mouser`), for parameters kept under the supplier's name. */
  sourceTitle: string
}

/**
 * A source's parameters as the library's (decision 1602): a name that is one
 * of the library's parameter types (compared as identifiers are) becomes that
 * type, its value checked by the type's rule; a value the type refuses, and a
 * name the library does not know, is kept under the supplier's name (the
 * former with the source's title after it, so it cannot collide with the
 * typed one). The first of a repeated name wins; at most the library's limit.
 */
export function mapParameters(part: SourcePart, shape: LibraryShape): ComponentParameter[] {
  const rules = new Map(shape.rules.map((r) => [foldKey(r.name), r]))
  const out: ComponentParameter[] = []
  const seen = new Set<string>()
  for (const p of part.parameters) {
    const value = p.value.trim()
    const named = `name\u0000${foldKey(p.name)}`
    if (!value || seen.has(named)) continue
    seen.add(named)
    const rule = rules.get(foldKey(p.name))
    let mapped: ComponentParameter
    if (rule) {
      const check = checkParameterValue(rule, value, p.unit)
      mapped = check.ok ? { type: rule.name, value: check.value, unit: check.unit } : { type: `${p.name} (${shape.sourceTitle})`.slice(0, 100), value, unit: p.unit }
    } else mapped = { type: p.name.trim().slice(0, 100), value: value.slice(0, 500), unit: p.unit }
    const key = foldKey(mapped.type)
    if (seen.has(key)) continue
    seen.add(key)
    out.push(mapped)
    if (out.length === COMPONENT_LIMITS.parameters) break
  }
  return out
}

/**
 * The library's category a part goes in, when the caller named none: the
 * deepest of the source's hints that is the last name of one of the library's
 * categories (compared as identifiers are), or none. Suppliers' trees differ
 * from every library's, so a hint alone never makes a new category.
 */
export function pickCategory(part: SourcePart, categories: readonly string[]): string | null {
  for (const hint of [...part.categoryHints].reverse()) {
    const key = foldKey(hint.trim())
    const found = categories.find((path) => foldKey(path.split('/').at(-1) ?? '') === key)
    if (found) return found
  }
  return null
}

/** The component a part makes (decision 1600): its name is the MPN, unless the source gives one of its own. */
export function componentFromPart(part: SourcePart, shape: LibraryShape, overrides: { category?: string | null | undefined; ipn?: string | undefined }): ComponentCreate {
  const create: ComponentCreate = {
    name: (part.name ?? part.mpn).slice(0, 200),
    description: part.description,
    status: statusFromLifecycle(part.lifecycle),
    category: overrides.category === undefined ? pickCategory(part, shape.categories) : overrides.category,
    mpns: [{ manufacturer: part.manufacturer ?? UNKNOWN_MANUFACTURER, partNumber: part.mpn }],
    parameters: mapParameters(part, shape),
  }
  if (overrides.ipn !== undefined) create.ipn = overrides.ipn
  return create
}

/** When a source names no manufacturer: an MPN needs one. */
export const UNKNOWN_MANUFACTURER = 'Unknown'

/** One field that differs between the library and the source, and how to write the source's value. */
export interface FieldDiff {
  field: EnrichField
  current: unknown
  proposed: unknown
  /** Why it cannot be applied (a status the lifecycle does not allow), or null. */
  blocked: string | null
}

/** What the library holds of a component that enrichment compares beyond the component itself. */
export interface Held {
  component: Component
  /** URLs of its datasheet attachments. */
  datasheetUrls: readonly string[]
  /** The offers this source gave it before. */
  offers: readonly ComponentOffer[]
}

/**
 * The fields where a part at a source differs from the component (decision
 * 1602): the description; the MPN when the component lacks it; parameters
 * the source gives (added, or their values changed; the component's others
 * stay); the status the source's lifecycle stands for, blocked where the
 * library's lifecycle does not allow the move; the datasheet link when the
 * component has not got it; the offers when stock or prices changed.
 */
export function diffPart(held: Held, part: SourcePart, shape: LibraryShape): FieldDiff[] {
  const c = held.component
  const out: FieldDiff[] = []
  if (part.description && part.description !== c.description) out.push({ field: 'description', current: c.description, proposed: part.description, blocked: null })

  const manufacturer = part.manufacturer ?? UNKNOWN_MANUFACTURER
  if (!c.mpns.some((m) => foldKey(m.partNumber) === foldKey(part.mpn))) {
    if (c.mpns.length < COMPONENT_LIMITS.mpns) out.push({ field: 'mpns', current: c.mpns, proposed: [...c.mpns, { manufacturer, partNumber: part.mpn }], blocked: null })
    else out.push({ field: 'mpns', current: c.mpns, proposed: c.mpns, blocked: `the component already has ${COMPONENT_LIMITS.mpns} part numbers` })
  }

  const merged = mergeParameters(c.parameters, mapParameters(part, shape))
  if (merged.changed) out.push({ field: 'parameters', current: c.parameters, proposed: merged.parameters, blocked: null })

  if (part.lifecycle !== 'unknown') {
    const status: ComponentStatus = statusFromLifecycle(part.lifecycle)
    if (status !== c.status) {
      const blocked = canTransition(c.status, status) ? null : `the library's lifecycle does not go from ${c.status} to ${status}`
      out.push({ field: 'status', current: c.status, proposed: status, blocked })
    }
  }

  if (part.datasheetUrl && !held.datasheetUrls.includes(part.datasheetUrl)) out.push({ field: 'datasheet', current: held.datasheetUrls[0] ?? null, proposed: part.datasheetUrl, blocked: null })

  if (!sameOffers(held.offers, part.offers)) out.push({ field: 'offers', current: held.offers, proposed: part.offers, blocked: null })
  return out
}

/** The component's parameters with the source's put in: a type both have takes the source's value, one only the source has is added (up to the limit). */
export function mergeParameters(current: readonly ComponentParameter[], incoming: readonly ComponentParameter[]): { parameters: ComponentParameter[]; changed: boolean } {
  const out = current.map((p) => ({ ...p }))
  let changed = false
  for (const p of incoming) {
    const i = out.findIndex((q) => foldKey(q.type) === foldKey(p.type))
    if (i >= 0) {
      const q = out[i]!
      if (q.value !== p.value || (q.unit ?? null) !== (p.unit ?? null)) {
        out[i] = { ...p, type: q.type }
        changed = true
      }
    } else if (out.length < COMPONENT_LIMITS.parameters) {
      out.push(p)
      changed = true
    }
  }
  return { parameters: out, changed }
}

/** Whether two lists of offers say the same, leaving out when each was asked. */
export function sameOffers(a: readonly (SupplierOffer | ComponentOffer)[], b: readonly SupplierOffer[]): boolean {
  const key = (o: SupplierOffer | ComponentOffer) => JSON.stringify([o.supplier, o.sku, o.url, o.stock, o.minimumQuantity, o.multiple, o.packaging, o.currency, o.priceBreaks])
  const left = a.map(key).sort()
  const right = b.map(key).sort()
  return left.length === right.length && left.every((k, i) => k === right[i])
}
