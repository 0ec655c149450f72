import type { FieldError } from './errors'
import { foldKey } from './identifiers'
import type { ParameterKind } from './schemas/parameter'
import { parseSiNumber } from './si-number'

/**
 * What a parameter type asks of its values (decision 0441), and the checks
 * every parameter write runs. Pure: the stores find the type, these decide.
 */
export interface ParameterRule {
  name: string
  unit: string | null
  kind: ParameterKind
  choices: readonly string[] | null
  min: number | null
  max: number | null
}

/** A value as it is stored once it conforms: a choice in its listed spelling, a number with the type's unit when it named none. */
export type ValueCheck = { ok: true; value: string; unit: string | null } | { ok: false; message: string }

/**
 * Whether `value` (with its own `unit`, if any) is one the type takes:
 * `number` reads with parseSiNumber and lies within min..max; `choice` is one
 * of the choices compared by foldKey; `text` takes anything.
 */
export function checkParameterValue(rule: ParameterRule, value: string, unit: string | null | undefined): ValueCheck {
  const ownUnit = unit == null || unit === '' ? null : unit
  if (rule.kind === 'number') {
    const n = parseSiNumber(value)
    if (n === null) return { ok: false, message: `not a number: ${JSON.stringify(value)} (${rule.name} takes a number such as 10k or 4.7u)` }
    if (rule.min !== null && n < rule.min) return { ok: false, message: `${value} is below the least ${rule.name}, ${rule.min}` }
    if (rule.max !== null && n > rule.max) return { ok: false, message: `${value} is above the greatest ${rule.name}, ${rule.max}` }
    return { ok: true, value, unit: ownUnit ?? rule.unit }
  }
  if (rule.kind === 'choice') {
    const key = foldKey(value.trim())
    const choice = (rule.choices ?? []).find((c) => foldKey(c) === key)
    if (choice === undefined) return { ok: false, message: `${JSON.stringify(value)} is not one of the choices of ${rule.name}: ${(rule.choices ?? []).join(', ')}` }
    return { ok: true, value: choice, unit: ownUnit }
  }
  return { ok: true, value, unit: ownUnit }
}

/**
 * The problems of a parameter type as it would be after a create or a patch:
 * `choices` only and required with kind `choice` (distinct by foldKey),
 * `min`/`max` only with kind `number`, and `min` ≤ `max`. Paths name the body's fields.
 */
export function parameterTypeProblems(t: Pick<ParameterRule, 'kind' | 'choices' | 'min' | 'max'>): FieldError[] {
  const problems: FieldError[] = []
  if (t.kind === 'choice') {
    if (!t.choices || t.choices.length === 0) problems.push({ path: 'body.choices', message: 'a choice parameter type lists its choices' })
    else {
      const seen = new Map<string, number>()
      for (const [i, c] of t.choices.entries()) {
        const at = seen.get(foldKey(c))
        if (at !== undefined) problems.push({ path: `body.choices[${i}]`, message: `${JSON.stringify(c)} reads the same as choices[${at}]` })
        else seen.set(foldKey(c), i)
      }
    }
  } else if (t.choices) problems.push({ path: 'body.choices', message: `only a choice parameter type lists choices (this one is ${t.kind})` })
  if (t.kind !== 'number') {
    if (t.min !== null) problems.push({ path: 'body.min', message: `only a number parameter type has limits (this one is ${t.kind})` })
    if (t.max !== null) problems.push({ path: 'body.max', message: `only a number parameter type has limits (this one is ${t.kind})` })
  } else if (t.min !== null && t.max !== null && t.min > t.max) problems.push({ path: 'body.min', message: `min ${t.min} is above max ${t.max}` })
  return problems
}

/**
 * The names of the required templates `parameters` lacks (types compared by foldKey).
 * `templates` are a category's effective ones.
 */
export function missingRequired(templates: readonly { parameterType: string; required: boolean }[], parameters: readonly { type: string }[]): string[] {
  const held = new Set(parameters.map((p) => foldKey(p.type)))
  return templates.filter((t) => t.required && !held.has(foldKey(t.parameterType))).map((t) => t.parameterType)
}
