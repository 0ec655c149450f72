import { ComplibError } from '../../errors'
import { foldKey } from '../../identifiers'
import { createId } from '../../ids'
import { parameterTypeProblems } from '../../parameter-value'
import type { Parameter, ParameterType } from '../../schemas/parameter'
import { parseSiNumber } from '../../si-number'
import type { SqlExecutor } from '../_internal/sql-executor'
import type { ParameterStore, ParameterTypeStore } from '../types'
import { checkVersion, conflict, likeEscape, notFound, now, pageByName } from './_shared'
import { insertParameter, setParameters } from './component-children'
import { requireComponentRow, touchComponent } from './component-core'
import { assertRequiredParameters, conformParameters, parameterProblems, requiredProblem } from './parameter-conform'
import { assertTypeUnused, templatesForPath } from './category-templates'
import { parameterReport } from './parameter-report'
import type { StoreAccess, StoreRepo } from './repo'

const PARAMETER_COLUMNS = 'id, component_id, type, value, unit, numeric, created_at, updated_at, version'

export const parameters = {
  async listForComponent(ex, componentId) {
    await requireComponentRow(ex, componentId)
    return await _forComponent(ex, componentId)
  },

  async add(ex, componentId, input) {
    await requireComponentRow(ex, componentId)
    input = (await conformParameters(ex, [input], () => 'body.value'))[0]!
    const at = now()
    const position = (await ex.get<{ next: number }>('SELECT coalesce(max(position) + 1, 0) AS next FROM component_parameters WHERE component_id = ?', [componentId]))!.next
    const id = await insertParameter(ex, componentId, input, position, at)
    await touchComponent(ex, componentId, 'update', ['parameters'], at)
    return await _get(ex, id)
  },

  async replace(ex, componentId, inputs) {
    const row = await requireComponentRow(ex, componentId)
    // A value the component holds already passes as it is (decision 0441); its category's required parameters stay (decision 0440).
    inputs = await conformParameters(ex, inputs, (i) => `body[${i}].value`, await _forComponent(ex, componentId))
    await assertRequiredParameters(ex, row.category, inputs, 'body')
    const at = now()
    await setParameters(ex, componentId, inputs, at)
    await touchComponent(ex, componentId, 'update', ['parameters'], at)
    return await _forComponent(ex, componentId)
  },

  get: async (ex, id) => await _get(ex, id),

  async update(ex, id, patch, options) {
    const current = await _get(ex, id)
    checkVersion('parameter', id, current.version, options?.ifVersion)
    let next = {
      type: patch.type ?? current.type,
      value: patch.value ?? current.value,
      unit: patch.unit === undefined ? current.unit : patch.unit,
    }
    if (next.type === current.type && next.value === current.value && next.unit === current.unit) return current
    // The value as it is (same type, same value) passes, as a replace keeps it (decision 0441).
    const [conformed] = await conformParameters(ex, [next], () => (patch.value === undefined && patch.type !== undefined ? 'body.type' : 'body.value'), [current])
    next = { ...next, value: conformed!.value, unit: conformed!.unit ?? null }
    if (foldKey(next.type) !== foldKey(current.type)) {
      // A new type must not take away one the category requires (decision 0440).
      const siblings = (await _forComponent(ex, current.componentId)).map((p) => (p.id === id ? next : p))
      await assertRequiredParameters(ex, (await requireComponentRow(ex, current.componentId)).category, siblings, 'body.type')
    }
    if (next.type === current.type && next.value === current.value && next.unit === current.unit) return current
    const at = now()
    await ex.run('UPDATE component_parameters SET type = ?, value = ?, unit = ?, numeric = ?, updated_at = ?, version = version + 1 WHERE id = ?', [
      next.type,
      next.value,
      next.unit,
      parseSiNumber(next.value),
      at,
      id,
    ])
    await touchComponent(ex, current.componentId, 'update', ['parameters'], at)
    return await _get(ex, id)
  },

  async delete(ex, id) {
    const current = await _get(ex, id)
    // A parameter the component's category requires stays (decision 0440).
    const { category } = await requireComponentRow(ex, current.componentId)
    const key = foldKey(current.type)
    const required = category ? (await templatesForPath(ex, category)).find((t) => t.required && foldKey(t.parameterType) === key) : undefined
    if (required && !(await _forComponent(ex, current.componentId)).some((p) => p.id !== id && foldKey(p.type) === key)) {
      throw new ComplibError('CONFLICT', `${required.parameterType} is required in ${category}: the parameter cannot be removed`)
    }
    await ex.run('DELETE FROM component_parameters WHERE id = ?', [id])
    await touchComponent(ex, current.componentId, 'update', ['parameters'])
  },
} satisfies StoreRepo<ParameterStore>

/** How each method uses the database (Access). */
export const parameterAccess = { listForComponent: 'snapshot', get: 'read', add: 'write', replace: 'write', update: 'write', delete: 'write' } as const satisfies StoreAccess<ParameterStore>

export const parameterTypes = {
  async list(ex, query) {
    const page = await pageByName<_TypeRow>(ex, {
      select: '*',
      from: 'parameter_types',
      where: query.q ? [`name ${ex.dialect.ilike} ? ESCAPE '\\'`] : [],
      params: query.q ? [`%${likeEscape(query.q)}%`] : [],
      limit: query.limit,
      cursor: query.cursor,
    })
    return { ...page, items: page.items.map(_typeView) }
  },

  get: async (ex, id) => await _getType(ex, id),

  async create(ex, input) {
    const rules = { kind: input.kind, choices: input.choices ?? null, min: input.min ?? null, max: input.max ?? null }
    _assertRules(rules)
    await _assertTypeNameFree(ex, input.name, null)
    const at = now()
    const id = createId('parameterType')
    await ex.run(
      'INSERT INTO parameter_types (id, name, name_key, unit, kind, choices, min_value, max_value, description, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)',
      [id, input.name, foldKey(input.name), input.unit ?? null, input.kind, _choicesText(rules.choices), rules.min, rules.max, input.description ?? null, at, at],
    )
    return await _getType(ex, id)
  },

  async update(ex, id, patch, options) {
    const current = await _getType(ex, id)
    checkVersion('parameter type', id, current.version, options?.ifVersion)
    const next = {
      name: patch.name ?? current.name,
      unit: patch.unit === undefined ? current.unit : patch.unit,
      kind: patch.kind ?? current.kind,
      choices: patch.choices === undefined ? current.choices : patch.choices,
      min: patch.min === undefined ? current.min : patch.min,
      max: patch.max === undefined ? current.max : patch.max,
      description: patch.description === undefined ? current.description : patch.description,
    }
    _assertRules(next)
    const renamed = next.name !== current.name
    if (renamed) await _assertTypeNameFree(ex, next.name, id)
    const same =
      !renamed &&
      next.unit === current.unit &&
      next.kind === current.kind &&
      JSON.stringify(next.choices) === JSON.stringify(current.choices) &&
      next.min === current.min &&
      next.max === current.max &&
      next.description === current.description
    if (same) return current
    // The key is written on a rename only: a type kept from before foldKey holds none (identifier-keys.ts).
    // Values written before a change of kind, choices or limits stay as they are: the report lists them (decision 0442).
    await ex.run(
      'UPDATE parameter_types SET name = ?, name_key = coalesce(?, name_key), unit = ?, kind = ?, choices = ?, min_value = ?, max_value = ?, description = ?, updated_at = ?, version = version + 1 WHERE id = ?',
      [next.name, renamed ? foldKey(next.name) : null, next.unit, next.kind, _choicesText(next.choices), next.min, next.max, next.description, now(), id],
    )
    return await _getType(ex, id)
  },

  async delete(ex, id) {
    const current = await _getType(ex, id)
    // A category's template holds the type by id (decision 0440): it must go from there first.
    await assertTypeUnused(ex, id, current.name)
    // Parameters hold their type as text, so removing the vocabulary entry loses no
    // component data; the type simply stops being suggested (and checked).
    await ex.run('DELETE FROM parameter_types WHERE id = ?', [id])
  },

  async check(ex, parameters, options) {
    const { problems } = await parameterProblems(ex, parameters, (i) => `parameters[${i}].value`, options?.held)
    const missing = await requiredProblem(ex, options?.category, parameters)
    return missing ? [...problems, { path: 'parameters', message: missing }] : problems
  },

  report: async (ex, query) => await parameterReport(ex, query.limit),
} satisfies StoreRepo<ParameterTypeStore>

/** How each method uses the database (Access). */
export const parameterTypeAccess = {
  list: 'snapshot',
  get: 'read',
  create: 'write',
  update: 'write',
  delete: 'write',
  check: 'snapshot',
  report: 'snapshot',
} as const satisfies StoreAccess<ParameterTypeStore>

interface _Row {
  id: string
  component_id: string
  type: string
  value: string
  unit: string | null
  numeric: number | null
  created_at: string
  updated_at: string
  version: number
}

interface _TypeRow {
  id: string
  name: string
  unit: string | null
  kind: ParameterType['kind']
  choices: string | null
  min_value: number | null
  max_value: number | null
  description: string | null
  created_at: string
  updated_at: string
  version: number
}

async function _forComponent(ex: SqlExecutor, componentId: string): Promise<Parameter[]> {
  return (await ex.all<_Row>(`SELECT ${PARAMETER_COLUMNS} FROM component_parameters WHERE component_id = ? ORDER BY position`, [componentId])).map(_view)
}

/** A parameter of a live component; those of a deleted component are hidden like the component. */
async function _get(ex: SqlExecutor, id: string): Promise<Parameter> {
  const row = await ex.get<_Row>(
    `SELECT ${PARAMETER_COLUMNS} FROM component_parameters p WHERE id = ? AND EXISTS (SELECT 1 FROM components c WHERE c.id = p.component_id AND c.deleted_at IS NULL)`,
    [id],
  )
  if (!row) throw notFound('parameter', id)
  return _view(row)
}

function _view(r: _Row): Parameter {
  return {
    id: r.id,
    componentId: r.component_id,
    type: r.type,
    value: r.value,
    unit: r.unit,
    numeric: r.numeric,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
  }
}

async function _getType(ex: SqlExecutor, id: string): Promise<ParameterType> {
  const row = await ex.get<_TypeRow>('SELECT * FROM parameter_types WHERE id = ?', [id])
  if (!row) throw notFound('parameter type', id)
  return _typeView(row)
}

function _typeView(r: _TypeRow): ParameterType {
  return {
    id: r.id,
    name: r.name,
    unit: r.unit,
    kind: r.kind,
    choices: r.choices === null ? null : (JSON.parse(r.choices) as string[]),
    min: r.min_value,
    max: r.max_value,
    description: r.description,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
  }
}

/** VALIDATION_FAILED naming each field of a type whose kind, choices and limits do not fit together. */
function _assertRules(t: Pick<ParameterType, 'kind' | 'choices' | 'min' | 'max'>): void {
  const problems = parameterTypeProblems(t)
  if (problems.length > 0) throw new ComplibError('VALIDATION_FAILED', problems.map((p) => `${p.path}: ${p.message}`).join('; '), { errors: problems })
}

function _choicesText(choices: readonly string[] | null): string | null {
  return choices === null ? null : JSON.stringify(choices)
}

async function _assertTypeNameFree(ex: SqlExecutor, name: string, exceptId: string | null): Promise<void> {
  const row = await ex.get<{ id: string; name: string }>('SELECT id, name FROM parameter_types WHERE name_key = ? AND id IS DISTINCT FROM ?', [foldKey(name), exceptId])
  if (row) throw conflict('body.name', `a parameter type named ${row.name} exists (${row.id})`)
}
