import { ComplibError } from '../../errors'
import { foldKey } from '../../identifiers'
import type { CategoryTemplate } from '../../schemas/category'
import type { ParameterKind } from '../../schemas/parameter'
import type { SqlExecutor } from '../_internal/sql-executor'
import { notFound } from './_shared'

/**
 * A category's parameter templates (decision 0440): the types its parts carry,
 * defined per category and inherited down the tree. The effective list of a
 * category is its ancestors' entries then its own, each by position; a nearer
 * category's entry for the same type replaces the farther one (and takes the
 * nearer category's place in the order).
 */

/** One entry as setTemplates takes it (CategoryTemplateInput after parsing). */
export interface TemplateInput {
  parameterType: string
  required?: boolean | undefined
  isValue?: boolean | undefined
}

/** The effective templates of the category `id`; NOT_FOUND for an unknown one. */
export async function templatesOf(ex: SqlExecutor, id: string): Promise<CategoryTemplate[]> {
  const rows = await ex.all<{ id: string; parent_id: string | null }>('SELECT id, parent_id FROM categories')
  const parents = new Map(rows.map((r) => [r.id, r.parent_id]))
  if (!parents.has(id)) throw notFound('category', id)
  const chain: string[] = []
  for (let at: string | null | undefined = id; at != null && !chain.includes(at); at = parents.get(at)) chain.unshift(at)
  return await _effective(ex, chain)
}

/**
 * The effective templates for a component's category path (names joined by
 * `/`, compared by foldKey as ensureCategoryPath does): [] for none. Names
 * not made yet add nothing: the write makes them below those that exist, so
 * they inherit those categories' templates (none when the root is new).
 */
export async function templatesForPath(ex: SqlExecutor, path: string | null | undefined): Promise<CategoryTemplate[]> {
  // Most libraries have no templates: every component write asks, so that answer costs one probe.
  if (!path || !(await ex.get('SELECT 1 FROM category_templates LIMIT 1'))) return []
  const rows = await ex.all<{ id: string; name: string; parent_id: string | null }>('SELECT id, name, parent_id FROM categories ORDER BY id')
  const chain: string[] = []
  let parentId: string | null = null
  for (const name of path.split('/')) {
    const key = foldKey(name)
    const found = rows.find((r) => (r.parent_id ?? null) === parentId && foldKey(r.name) === key)
    if (!found) break
    chain.push(found.id)
    parentId = found.id
  }
  return await _effective(ex, chain)
}

/** Replaces the category's own templates; answers its effective ones. */
export async function setTemplates(ex: SqlExecutor, id: string, inputs: readonly TemplateInput[]): Promise<CategoryTemplate[]> {
  if (!(await ex.get('SELECT 1 FROM categories WHERE id = ?', [id]))) throw notFound('category', id)
  const types = await ex.all<{ id: string; name: string; name_key: string | null }>('SELECT id, name, name_key FROM parameter_types')
  const chosen: string[] = []
  let valueAt = -1
  for (const [i, input] of inputs.entries()) {
    const key = foldKey(input.parameterType)
    const type = types.find((t) => t.id === input.parameterType) ?? types.find((t) => (t.name_key ?? foldKey(t.name)) === key)
    if (!type) throw _invalid(`body.templates[${i}].parameterType`, `no parameter type named ${JSON.stringify(input.parameterType)}; create it first`)
    const twice = chosen.indexOf(type.id)
    if (twice >= 0) throw _invalid(`body.templates[${i}].parameterType`, `${type.name} is listed twice (also at body.templates[${twice}])`)
    chosen.push(type.id)
    if (input.isValue) {
      if (valueAt >= 0) throw _invalid(`body.templates[${i}].isValue`, `only one template is the value (body.templates[${valueAt}] is)`)
      valueAt = i
    }
  }
  await ex.run('DELETE FROM category_templates WHERE category_id = ?', [id])
  for (const [i, input] of inputs.entries()) {
    await ex.run('INSERT INTO category_templates (category_id, parameter_type_id, position, required, is_value) VALUES (?, ?, ?, ?, ?)', [
      id,
      chosen[i]!,
      i,
      input.required ? 1 : 0,
      input.isValue ? 1 : 0,
    ])
  }
  return await templatesOf(ex, id)
}

/** CONFLICT when a category's template uses the parameter type (a delete would leave it dangling). */
export async function assertTypeUnused(ex: SqlExecutor, typeId: string, typeName: string): Promise<void> {
  const used = await ex.all<{ category_id: string }>('SELECT category_id FROM category_templates WHERE parameter_type_id = ? ORDER BY category_id', [typeId])
  if (used.length === 0) return
  const rows = await ex.all<{ id: string; name: string; parent_id: string | null }>('SELECT id, name, parent_id FROM categories')
  const byId = new Map(rows.map((r) => [r.id, r]))
  const pathOf = (cid: string): string => {
    const names: string[] = []
    for (let at = byId.get(cid); at && names.length < 100; at = at.parent_id === null ? undefined : byId.get(at.parent_id)) names.unshift(at.name)
    return names.join('/')
  }
  const paths = used.map((u) => pathOf(u.category_id)).sort()
  throw new ComplibError('CONFLICT', `parameter type ${typeName} is used by the templates of ${paths.join(', ')}; remove it there first`)
}

/** Removes the category's own templates (its delete). */
export async function deleteTemplates(ex: SqlExecutor, categoryId: string): Promise<void> {
  await ex.run('DELETE FROM category_templates WHERE category_id = ?', [categoryId])
}

interface _Row {
  category_id: string
  parameter_type_id: string
  position: number
  required: number | boolean
  is_value: number | boolean
  name: string
  unit: string | null
  kind: ParameterKind
  choices: string | null
}

/** Merges the templates of `chain` (root first). */
async function _effective(ex: SqlExecutor, chain: readonly string[]): Promise<CategoryTemplate[]> {
  if (chain.length === 0) return []
  const rows = await ex.all<_Row>(
    `SELECT t.category_id, t.parameter_type_id, t.position, t.required, t.is_value, p.name, p.unit, p.kind, p.choices
     FROM category_templates t JOIN parameter_types p ON p.id = t.parameter_type_id
     WHERE t.category_id IN (${chain.map(() => '?').join(', ')})`,
    [...chain],
  )
  const depth = new Map(chain.map((c, i) => [c, i]))
  rows.sort((a, b) => depth.get(a.category_id)! - depth.get(b.category_id)! || a.position - b.position)
  const byType = new Map<string, CategoryTemplate>()
  for (const r of rows) {
    // Deleted first, so the nearer entry takes its own place in the order.
    byType.delete(r.parameter_type_id)
    byType.set(r.parameter_type_id, {
      categoryId: r.category_id,
      parameterTypeId: r.parameter_type_id,
      parameterType: r.name,
      unit: r.unit,
      kind: r.kind,
      choices: r.choices === null ? null : (JSON.parse(r.choices) as string[]),
      required: Boolean(Number(r.required)),
      isValue: Boolean(Number(r.is_value)),
    })
  }
  const merged = [...byType.values()]
  // At most one value parameter: the nearest category's.
  const value = merged.findLast((t) => t.isValue)
  return merged.map((t) => (t.isValue && t !== value ? { ...t, isValue: false } : t))
}

function _invalid(path: string, message: string): ComplibError {
  return new ComplibError('VALIDATION_FAILED', `${path}: ${message}`, { errors: [{ path, message }] })
}
