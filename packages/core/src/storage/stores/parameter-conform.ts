import { ComplibError, type FieldError } from '../../errors'
import { foldKey } from '../../identifiers'
import { checkParameterValue, missingRequired, type ParameterRule } from '../../parameter-value'
import type { ParameterKind } from '../../schemas/parameter'
import type { SqlExecutor } from '../_internal/sql-executor'
import { templatesForPath } from './category-templates'

/**
 * The value check of every parameter write (decision 0441), run before the
 * write touches anything. A parameter whose type names no parameter type is
 * free-form, as parameters were before types had kinds.
 */

export interface ParameterDraft {
  type: string
  value: string
  unit?: string | null | undefined
}

/** The rules of the parameter types named by `types` (foldKey → rule). */
export async function rulesFor(ex: SqlExecutor, types: readonly string[]): Promise<Map<string, ParameterRule>> {
  const keys = [...new Set(types.map(foldKey))]
  const rules = new Map<string, ParameterRule>()
  if (keys.length === 0) return rules
  // A type kept from before foldKey holds no key (identifier-keys.ts): matched by its folded name.
  const rows = await ex.all<{ name: string; name_key: string | null; unit: string | null; kind: ParameterKind; choices: string | null; min_value: number | null; max_value: number | null }>(
    `SELECT name, name_key, unit, kind, choices, min_value, max_value FROM parameter_types WHERE name_key IN (${keys.map(() => '?').join(', ')}) OR name_key IS NULL`,
    keys,
  )
  for (const r of rows) {
    const key = r.name_key ?? foldKey(r.name)
    if (!keys.includes(key) || rules.has(key)) continue
    rules.set(key, {
      name: r.name,
      unit: r.unit,
      kind: r.kind,
      choices: r.choices === null ? null : (JSON.parse(r.choices) as string[]),
      min: r.min_value === null ? null : Number(r.min_value),
      max: r.max_value === null ? null : Number(r.max_value),
    })
  }
  return rules
}

/**
 * The problems of `parameters` against their types, each at `path(i)` (the
 * value's field as the write knows it). A parameter identical (type by foldKey
 * and value) to one in `held` passes as it is: values kept from before the type
 * had its rules stay writable (grandfathered).
 */
export async function parameterProblems(
  ex: SqlExecutor,
  parameters: readonly ParameterDraft[],
  path: (i: number) => string,
  held: readonly ParameterDraft[] = [],
): Promise<{ problems: FieldError[]; conformed: ParameterDraft[] }> {
  const rules = await rulesFor(ex, parameters.map((p) => p.type))
  const kept = new Set(held.map((p) => `${foldKey(p.type)}\u0000${p.value}`))
  const problems: FieldError[] = []
  const conformed = parameters.map((p, i) => {
    const rule = rules.get(foldKey(p.type))
    if (!rule) return p
    const check = checkParameterValue(rule, p.value, p.unit)
    if (check.ok) return { ...p, value: check.value, unit: check.unit }
    if (!kept.has(`${foldKey(p.type)}\u0000${p.value}`)) problems.push({ path: path(i), message: check.message })
    return p
  })
  return { problems, conformed }
}

/**
 * `parameters` as they are stored (a choice's spelling, a number's unit), or
 * VALIDATION_FAILED naming every value that does not conform.
 */
export async function conformParameters<P extends ParameterDraft>(
  ex: SqlExecutor,
  parameters: readonly P[],
  path: (i: number) => string,
  held: readonly ParameterDraft[] = [],
): Promise<P[]> {
  const { problems, conformed } = await parameterProblems(ex, parameters, path, held)
  if (problems.length > 0) throw _invalid(problems)
  return parameters.map((p, i) => {
    const c = conformed[i]!
    if (c.value === p.value && (c.unit ?? null) === (p.unit ?? null)) return p
    return { ...p, value: c.value, unit: c.unit ?? null }
  })
}

/** VALIDATION_FAILED at `path` when the category's effective templates require a type `parameters` lacks. */
export async function assertRequiredParameters(ex: SqlExecutor, category: string | null | undefined, parameters: readonly { type: string }[], path: string): Promise<void> {
  const message = await requiredProblem(ex, category, parameters)
  if (message) throw _invalid([{ path, message }])
}

/** What is missing (`Resistance is required in Passives/Resistors`), or null. */
export async function requiredProblem(ex: SqlExecutor, category: string | null | undefined, parameters: readonly { type: string }[]): Promise<string | null> {
  if (!category) return null
  const missing = missingRequired(await templatesForPath(ex, category), parameters)
  if (missing.length === 0) return null
  return `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required in ${category}`
}

function _invalid(problems: FieldError[]): ComplibError {
  return new ComplibError('VALIDATION_FAILED', problems.map((p) => `${p.path}: ${p.message}`).join('; '), { errors: problems })
}
