import type { Component, ComponentPatch, ComponentStatus } from '@complib/client-sdk'

/** The editable fields of a component, as the form holds them. */
export interface Draft {
  name: string
  ipn: string
  description: string
  category: string
  status: ComponentStatus
  tags: string
  /**
   * `typed`: edited in the free rows of this form, so it stays there even
   * once its name is a template's, and fills that template's field (the fields: decision 1416).
   */
  parameters: Array<{ type: string; value: string; unit: string; typed?: boolean }>
  mpns: Array<{ manufacturer: string; partNumber: string }>
  symbols: Array<{ id: string; name: string }>
  footprints: Array<{ id: string; name: string }>
}

export const NEW_DRAFT: Draft = { name: '', ipn: '', description: '', category: '', status: 'draft', tags: '', parameters: [], mpns: [], symbols: [], footprints: [] }

export function toDraft(c: Component): Draft {
  return {
    name: c.name,
    ipn: c.ipn,
    description: c.description ?? '',
    category: c.category ?? '',
    status: c.status,
    tags: c.tags.join(', '),
    parameters: c.parameters.map((p) => ({ type: p.type, value: p.value, unit: p.unit ?? '' })),
    mpns: c.mpns.map((m) => ({ ...m })),
    symbols: c.symbols.map((s) => ({ id: s.id, name: s.name })),
    footprints: c.footprints.map((s) => ({ id: s.id, name: s.name })),
  }
}

/** The draft as the API's fields (empty text is null; blank rows left out). */
export function toFields(d: Draft) {
  return {
    name: d.name.trim(),
    ipn: d.ipn.trim(),
    description: d.description.trim() || null,
    category: d.category.trim() || null,
    status: d.status,
    tags: d.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
    parameters: d.parameters.filter((p) => p.type.trim() || p.value.trim()).map((p) => ({ type: p.type.trim(), value: p.value.trim(), unit: p.unit.trim() || null })),
    mpns: d.mpns.filter((m) => m.manufacturer.trim() || m.partNumber.trim()).map((m) => ({ manufacturer: m.manufacturer.trim(), partNumber: m.partNumber.trim() })),
    symbols: d.symbols.map((s) => s.id),
    footprints: d.footprints.map((s) => s.id),
  }
}

/** A merge patch of only what changed between `base` and `draft`. */
export function toPatch(base: Draft, draft: Draft): ComponentPatch {
  const before = toFields(base) as Record<string, unknown>
  const after = toFields(draft) as Record<string, unknown>
  const patch: Record<string, unknown> = {}
  for (const key of Object.keys(after)) if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) patch[key] = after[key]
  return patch as ComponentPatch
}

/**
 * The draft carried over onto a newer version of the component (`latest`):
 * the fields edited here keep their edits, the rest take the newer values.
 * Undefined when the newer version also changed a field edited here: then
 * nothing is merged, and saving meets the 412 that says so.
 */
export function rebaseDraft(base: Draft, draft: Draft, latest: Draft): Draft | undefined {
  const edited = Object.keys(toPatch(base, draft)) as Array<keyof Draft>
  const before = toFields(base) as Record<string, unknown>
  const now = toFields(latest) as Record<string, unknown>
  if (edited.some((key) => JSON.stringify(before[key]) !== JSON.stringify(now[key]))) return undefined
  const next: Draft = { ...latest }
  for (const key of edited) (next as unknown as Record<string, unknown>)[key] = draft[key]
  return next
}
