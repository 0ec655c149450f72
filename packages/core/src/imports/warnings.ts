import type { ImportTarget } from '../schemas/import'

/** A mapping that will import, but probably not as the user means: shown beside the mapping, never refused. */
export interface MappingWarning {
  /** The column the warning is about; null when it is about the mapping as a whole. */
  column: string | null
  message: string
}

/** Targets a part has one of: a second column feeding one makes the rows disagree with themselves. */
const SINGLE: ReadonlySet<ImportTarget> = new Set<ImportTarget>(['name', 'ipn', 'description', 'status', 'category', 'kicadValue', 'excludeFromBom', 'excludeFromBoard', 'excludeFromSim', 'location', 'quantity'])

/**
 * What looks wrong in a mapping (decision 0617): two columns feeding a field a
 * part has once (or two part-number columns for one manufacturer: the same part
 * would get two MPNs), and no column giving names (each part is then named
 * after its first MPN).
 */
export function mappingWarnings(columns: readonly string[], mapping: Readonly<Record<string, ImportTarget>>): MappingWarning[] {
  const warnings: MappingWarning[] = []
  const by = new Map<ImportTarget, string[]>()
  for (const c of columns) {
    const target = mapping[c]
    if (target === undefined) continue
    by.set(target, [...(by.get(target) ?? []), c])
  }
  for (const [target, cols] of by) {
    if (cols.length < 2) continue
    if (SINGLE.has(target)) {
      for (const c of cols.slice(1)) warnings.push({ column: c, message: `"${cols[0]}" and "${c}" both give the ${target}; a row where they differ is invalid — map one of them to ignore (or to another field)` })
    }
  }
  const numbers = by.get('partNumber') ?? []
  const makers = by.get('manufacturer') ?? []
  if (numbers.length > 1 && numbers.length > makers.length) {
    for (const c of numbers.slice(1)) {
      warnings.push({ column: c, message: `"${numbers[0]}" and "${c}" both give an MPN, and the file has ${makers.length === 0 ? 'no manufacturer column' : 'fewer manufacturer columns'}: each part would get two MPNs — is "${c}" an internal part number (ipn)?` })
    }
  }
  // A file attached to parts by their key creates none, and needs no names (decision 0640).
  if (!by.has('name') && !by.has('mpns') && !by.has('parameters') && !by.has('partKey')) {
    warnings.push({
      column: null,
      message: numbers.length
        ? `no column gives names: each part is named after its MPN ("${numbers[0]}"); map a column to name if the file has one`
        : 'no column gives names: every new part will be invalid; map a column to name',
    })
  }
  return warnings
}
