import type { Component } from '@complib/client-sdk'

/** One field that differs between two versions, each side in words. */
export interface FieldChange {
  field: string
  label: string
  before: string
  after: string
}

/** The fields a version's diff shows, in the form's order, with how each is said. */
const FIELDS: Array<{ field: keyof Component; label: string; show: (c: Component) => string }> = [
  { field: 'name', label: 'Name', show: (c) => c.name },
  { field: 'ipn', label: 'IPN', show: (c) => c.ipn },
  { field: 'description', label: 'Description', show: (c) => c.description ?? '' },
  { field: 'status', label: 'Status', show: (c) => c.status },
  { field: 'category', label: 'Category', show: (c) => c.category ?? '' },
  { field: 'tags', label: 'Tags', show: (c) => c.tags.join(', ') },
  { field: 'parameters', label: 'Parameters', show: (c) => c.parameters.map((p) => `${p.type} ${p.value}${p.unit ? ` ${p.unit}` : ''}`).join('; ') },
  { field: 'mpns', label: 'Manufacturer part numbers', show: (c) => c.mpns.map((m) => `${m.manufacturer} ${m.partNumber}`).join('; ') },
  { field: 'symbols', label: 'Symbols', show: (c) => _names(c.symbols) },
  { field: 'footprints', label: 'Footprints', show: (c) => _names(c.footprints) },
  { field: 'kicadValue', label: 'KiCad value', show: (c) => c.kicadValue ?? '' },
  { field: 'excludeFromBom', label: 'KiCad: exclude from BOM', show: (c) => _yesNo(c.excludeFromBom) },
  { field: 'excludeFromBoard', label: 'KiCad: exclude from board', show: (c) => _yesNo(c.excludeFromBoard) },
  { field: 'excludeFromSim', label: 'KiCad: exclude from simulation', show: (c) => _yesNo(c.excludeFromSim) },
]

/**
 * What changed from one version of a component to the next, field by field
 * (old → new), in the form's order. Attachments, timestamps and the version
 * itself are left out: they change with every write or have their own list.
 */
export function diffVersions(before: Component, after: Component): FieldChange[] {
  const changes: FieldChange[] = []
  for (const { field, label, show } of FIELDS) {
    const was = show(before)
    const now = show(after)
    if (was !== now) changes.push({ field, label, before: was, after: now })
  }
  return changes
}

function _names(links: Array<{ name: string }>): string {
  return links.map((l) => l.name).join(', ')
}

function _yesNo(value: boolean): string {
  return value ? 'yes' : 'no'
}
