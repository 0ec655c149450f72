import type { ImportTarget } from '../schemas/import'
import type { PlannedRow } from './plan-types'
import type { MappingWarning } from './warnings'

/** Presets of files whose rows belong to parts of another file (decision 0647). */
const PART_ATTACHED: Record<string, string> = { 'inventree-manufacturer-parts': 'manufacturer parts', 'inventree-supplier-parts': 'supplier parts' }

/** Column names peers give their keys. */
const KEY_NAMES = /^(id|pk|part|base part|part id|manufacturer|manufacturer id|supplier|company|company id|.*_id)$/i

/** What a plan knows of its file when it warns. */
export interface PlanFacts {
  preset: string | undefined
  source: string | null
  mapping: Readonly<Record<string, ImportTarget>>
  rows: readonly PlannedRow[]
  /** Valid rows that plan parts. */
  parts: number
  /** Of those, rows with a part key or source key. */
  keyed: number
  /** Per column read as something other than a key: whether every filled cell is a whole number. */
  numericColumns: ReadonlyMap<string, boolean>
}

/**
 * The plan-time half of the warnings (decision 0647): a file that would
 * create components it probably should not. Shown before commit beside the
 * mapping's warnings; never refused.
 * - a file of a preset attached to parts (manufacturer parts, supplier parts)
 *   that would create any component: its part column is not read as the part's key;
 * - a file with a key column whose rows without a key would create parts
 *   (those are found by their upsert key only, and a second file cannot name them);
 * - a file with no source that would create parts while a name, manufacturer
 *   or key-named column holds only whole numbers: a peer's keys read as text.
 */
export function planWarnings(facts: PlanFacts): MappingWarning[] {
  const warnings: MappingWarning[] = []
  const creates = facts.rows.filter((r) => r.action === 'create')
  if (creates.length === 0) return warnings
  const column = (target: ImportTarget) => Object.keys(facts.mapping).find((c) => facts.mapping[c] === target)
  const attached = facts.preset !== undefined && Object.hasOwn(PART_ATTACHED, facts.preset) ? PART_ATTACHED[facts.preset]! : null
  if (attached !== null) {
    warnings.push({ column: null, message: `this file lists ${attached} of parts, yet it would create ${creates.length} components; map the column that holds the part's key (InvenTree's "Base Part") to partKey, so that its rows add to the parts the part export made` })
  }
  const sourceColumn = column('sourceKey')
  const unkeyed = creates.filter((r) => !r.sourceRef).length
  if (sourceColumn !== undefined && unkeyed > 0) {
    warnings.push({ column: sourceColumn, message: `${unkeyed} of the ${creates.length} components this file creates have no key in "${sourceColumn}": files that name parts by key will not find them` })
  }
  if (facts.source === null && attached === null) {
    for (const [name, whole] of facts.numericColumns) {
      const target = facts.mapping[name]
      if (!whole || !(target === 'name' || target === 'manufacturer' || KEY_NAMES.test(name))) continue
      warnings.push({
        column: name,
        message: `"${name}" holds only whole numbers, as a database's keys do: if this file is another program's export whose rows belong to parts imported before, these ${creates.length} creates are probably wrong; upload it again with ?source= (inventree, partdb) and map "${name}" to partKey`,
      })
    }
  }
  return warnings
}
