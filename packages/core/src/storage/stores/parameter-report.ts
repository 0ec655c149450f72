import { foldKey } from '../../identifiers'
import { checkParameterValue, missingRequired } from '../../parameter-value'
import type { CategoryTemplate } from '../../schemas/category'
import type { MissingRequiredParameter, NonConformingParameter, ParameterReport } from '../../schemas/parameter'
import type { SqlExecutor } from '../_internal/sql-executor'
import { templatesOf } from './category-templates'
import { rulesFor } from './parameter-conform'

/**
 * What the library holds that today's parameter types and category templates
 * would refuse (decision 0442): values written before their type had a kind,
 * choices or limits stay as they were, and this lists them, as it lists the
 * components that lack a parameter their category now requires. Live
 * components only, by id; each list cut at `limit`, its total counting all.
 */
export async function parameterReport(ex: SqlExecutor, limit: number): Promise<ParameterReport> {
  const typeNames = (await ex.all<{ name: string }>(`SELECT name FROM parameter_types WHERE kind <> 'text'`)).map((r) => r.name)
  const rules = await rulesFor(ex, typeNames)
  const required = await _requiredByPath(ex)
  const rows = await ex.all<{ id: string; ipn: string; name: string; category: string | null; type: string | null; value: string | null; unit: string | null }>(
    `SELECT c.id, c.ipn, c.name, c.category, p.type, p.value, p.unit
     FROM components c LEFT JOIN component_parameters p ON p.component_id = c.id
     WHERE c.deleted_at IS NULL ORDER BY c.id, p.position`,
  )
  const nonConforming: NonConformingParameter[] = []
  let nonConformingTotal = 0
  const missing: MissingRequiredParameter[] = []
  let missingTotal = 0
  const finish = (component: { id: string; ipn: string; name: string; category: string | null }, types: { type: string }[]) => {
    const templates = component.category === null ? undefined : required.get(foldKey(component.category))
    if (!templates) return
    const lacks = missingRequired(templates, types)
    if (lacks.length === 0) return
    missingTotal++
    if (missing.length < limit) missing.push({ componentId: component.id, ipn: component.ipn, name: component.name, category: component.category!, missing: lacks })
  }
  let current: (typeof rows)[number] | undefined
  let types: { type: string }[] = []
  for (const r of rows) {
    if (current?.id !== r.id) {
      if (current) finish(current, types)
      current = r
      types = []
    }
    if (r.type === null || r.value === null) continue
    types.push({ type: r.type })
    const rule = rules.get(foldKey(r.type))
    if (!rule) continue
    const check = checkParameterValue(rule, r.value, r.unit)
    if (check.ok) continue
    nonConformingTotal++
    if (nonConforming.length < limit) nonConforming.push({ componentId: r.id, ipn: r.ipn, name: r.name, type: r.type, value: r.value, reason: check.message })
  }
  if (current) finish(current, types)
  return { nonConforming: { items: nonConforming, total: nonConformingTotal }, missingRequired: { items: missing, total: missingTotal } }
}

/** The required templates of every category that has some, by the folded path. */
async function _requiredByPath(ex: SqlExecutor): Promise<Map<string, CategoryTemplate[]>> {
  const out = new Map<string, CategoryTemplate[]>()
  if (!(await ex.get('SELECT 1 FROM category_templates WHERE required <> 0 LIMIT 1'))) return out
  const rows = await ex.all<{ id: string; name: string; parent_id: string | null }>('SELECT id, name, parent_id FROM categories')
  const byId = new Map(rows.map((r) => [r.id, r]))
  for (const r of rows) {
    const names: string[] = []
    for (let at: typeof r | undefined = r; at && names.length < 100; at = at.parent_id === null ? undefined : byId.get(at.parent_id)) names.unshift(at.name)
    const templates = (await templatesOf(ex, r.id)).filter((t) => t.required)
    if (templates.length > 0) out.set(foldKey(names.join('/')), templates)
  }
  return out
}
