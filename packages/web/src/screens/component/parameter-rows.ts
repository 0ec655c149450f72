import { describeError } from '../../api'
import type { CategoryTemplate } from '../../queries/templates'
import type { Draft } from './draft'

type Row = Draft['parameters'][number]

/** Parameter type names compare as the server compares them: case and surrounding space aside. */
export function sameType(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase()
}

/**
 * Which row of the draft each template edits: the first row of its type.
 * Every other row is a free parameter, edited in the rows below the
 * template fields (decision 1416).
 */
export function bindTemplates(rows: Row[], templates: CategoryTemplate[]): Map<string, number> {
  const bound = new Map<string, number>()
  for (const t of templates) {
    const i = rows.findIndex((r, j) => sameType(r.type, t.parameterType) && ![...bound.values()].includes(j))
    if (i >= 0) bound.set(t.parameterTypeId, i)
  }
  return bound
}

/**
 * The server's errors for single parameters (`body.parameters[2].value`) by
 * row of the draft. The index counts the parameters sent, and a save leaves
 * blank rows out (toFields), so it is mapped back past them.
 */
export function parameterErrors(error: unknown, rows: Row[]): Map<number, string> {
  const out = new Map<number, string>()
  if (!error) return out
  const sent = rows.flatMap((p, i) => (p.type.trim() || p.value.trim() ? [i] : []))
  for (const f of describeError(error).fields) {
    const m = /^body\.parameters\[(\d+)\]/.exec(f.path)
    const row = m ? sent[Number(m[1])] : undefined
    if (row !== undefined && !out.has(row)) out.set(row, f.message)
  }
  return out
}

/** The error for the parameters as a whole (a required one missing), not one row's. */
export function parametersError(error: unknown): string | undefined {
  return error ? describeError(error).fields.find((f) => f.path === 'body.parameters')?.message : undefined
}

/** The rows with one template's value set: its row changed, added, or removed when emptied (an empty value is no parameter). */
export function setTemplateValue(rows: Row[], template: CategoryTemplate, at: number | undefined, value: string): Row[] {
  if (at === undefined) return value.trim() ? [...rows, { type: template.parameterType, value, unit: '' }] : rows
  if (!value.trim()) return rows.filter((_, i) => i !== at)
  return rows.map((r, i) => (i === at ? { ...r, value } : r))
}

/**
 * The rows edited as free parameters: those no template binds, and those
 * typed there. A row whose name becomes a template's while it is typed
 * stays where it is (with a note that it fills the template's field)
 * rather than jumping into the field and taking the typing's focus with it.
 */
export function freeRowIndexes(rows: Row[], bound: ReadonlyMap<string, number>): number[] {
  const boundRows = new Set(bound.values())
  return rows.flatMap((r, i) => (!boundRows.has(i) || r.typed ? [i] : []))
}

/**
 * The rows after the free rows' editor changed them (`next`, for the rows at
 * `free`): each in its place, a removed one left out, new ones at the end.
 * Rows edited or added are marked `typed`, so they stay among the free rows.
 */
export function applyFreeRows(rows: Row[], free: number[], next: Row[]): Row[] {
  if (next.length < free.length) {
    // The editor removes a row by filtering: the others are the same objects.
    const k = free.findIndex((row, j) => next[j] !== rows[row])
    const gone = free[k === -1 ? free.length - 1 : k]
    return rows.filter((_, i) => i !== gone)
  }
  const out = rows.map((r, i) => {
    const k = free.indexOf(i)
    return k === -1 || next[k] === r ? r : { ...next[k]!, typed: true }
  })
  return [...out, ...next.slice(free.length).map((r) => ({ ...r, typed: true }))]
}
