import { foldKey } from '../identifiers'
import { ComponentPatch, type Component } from '../schemas/component'
import type { StorageSession } from '../storage/types'
import { findChanges, type ChangeLookups } from './changes'
import { placeholderManufacturer, type PlannedRef } from './external-refs'
import type { ImportRowError, PlannedRow } from './plan-types'

/** A company row of a company export: its key in the peer's database and its name. */
export interface CompanyRow {
  row: number
  key: string
  name: string
}

/**
 * Plans a company export (decision 0646): each company's key becomes a
 * `company` ref to its name, and every part carrying the company's
 * placeholder manufacturer (imported before the company was known) gets the
 * name instead: an update of that part, made of the company rows that rename
 * its MPNs. A part that then holds the same MPN twice keeps it once. No
 * component is created.
 */
export async function planCompanies(storage: StorageSession, source: string, companies: readonly CompanyRow[], lookups: ChangeLookups): Promise<{ refs: PlannedRef[]; rows: PlannedRow[]; errors: ImportRowError[] }> {
  const refs: PlannedRef[] = []
  const errors: ImportRowError[] = []
  const seen = new Map<string, CompanyRow>()
  const parts = new Map<string, { component: Component; renames: Map<string, string>; rows: Set<number> }>()
  for (const c of companies) {
    const twice = seen.get(c.key)
    if (twice) {
      if (twice.name !== c.name) errors.push({ row: c.row, path: 'sourceKey', message: `key ${c.key} is also row ${twice.row}, named "${twice.name}"` })
      continue
    }
    seen.set(c.key, c)
    refs.push({ row: c.row, source, kind: 'company', key: c.key, target: c.name })
    const placeholder = placeholderManufacturer(source, c.key)
    let cursor: string | undefined
    do {
      const page = await storage.components.list({ manufacturer: placeholder, limit: 500, sort: 'id', includeDeleted: false, cursor } as Parameters<StorageSession['components']['list']>[0])
      for (const component of page.items) {
        const part = parts.get(component.id) ?? { component, renames: new Map<string, string>(), rows: new Set<number>() }
        part.renames.set(foldKey(placeholder), c.name)
        part.rows.add(c.row)
        parts.set(component.id, part)
      }
      cursor = page.nextCursor ?? undefined
    } while (cursor)
  }
  const rows: PlannedRow[] = []
  for (const { component, renames, rows: from } of parts.values()) {
    const mpns: Component['mpns'] = []
    for (const m of component.mpns) {
      const manufacturer = renames.get(foldKey(m.manufacturer)) ?? m.manufacturer
      if (!mpns.some((o) => foldKey(o.manufacturer) === foldKey(manufacturer) && o.partNumber.toUpperCase() === m.partNumber.toUpperCase())) mpns.push({ ...m, manufacturer })
    }
    const patch = ComponentPatch.parse({ mpns })
    const changes = await findChanges(storage, component, patch, {}, lookups)
    const numbers = [...from].sort((a, b) => a - b)
    rows.push({ row: numbers[0]!, rows: numbers, action: 'update', componentId: component.id, input: patch, changes, current: { ipn: component.ipn, name: component.name }, extras: {} })
  }
  return { refs, rows, errors }
}
