import { ComplibError } from '../errors'
import { ImportField, type ImportFieldSummary, type ImportOutcome, type ImportRowOutcome, type ImportTarget } from '../schemas/import'
import type { Page } from '../storage/types'
import type { FieldChange } from './changes'
import type { MappingWarning } from './warnings'
import type { ImportPlan, ImportRowError, ImportResult, PlannedRow } from './plan'

const PREVIEW_ROWS = 20

/** A planned part as a session keeps it: enough to list each of its rows. */
export interface PartView {
  rows: number[]
  outcome: Exclude<ImportOutcome, 'invalid'>
  componentId: string | null
  ipn: string | null
  name: string | null
  changes: FieldChange[]
}

/**
 * What a session keeps of its plan: the counts and what the answers show.
 * Not the whole plan: the session is read and written whole on every
 * request, and commit plans again anyway.
 */
export interface PlanView {
  summary: { create: number; update: number; unchanged: number; invalid: number }
  fieldSummary: ImportFieldSummary
  preview: Array<{ row: number; rows?: number[]; action: 'create' | 'update'; componentId: string | null; input: Record<string, unknown> }>
  errors: ImportRowError[]
  /** Every planned part, for `GET /api/imports/:id/rows`; absent in sessions stored before it. */
  parts?: PartView[]
  /** What the plan would do that looks wrong (decision 0647); absent in sessions stored before. */
  warnings?: MappingWarning[]
}

/**
 * A plan as the session keeps it. An update that changes nothing is
 * `unchanged`; every error carries the column it comes from when the error
 * names a mapped field. After a commit, `committed` gives created parts
 * their component.
 */
export function toPlanView(plan: ImportPlan, mapping: Record<string, ImportTarget>, committed?: ImportResult['components']): PlanView {
  const parts = plan.rows.map((p) => _partView(p, committed?.get(p.row)))
  // A company row that renames no part changes no component: it is listed as unchanged, with the company's name (decision 0646).
  const taken = new Set(plan.rows.flatMap((p) => p.rows))
  for (const r of plan.refs ?? []) if (!taken.has(r.row)) parts.push({ rows: [r.row], outcome: 'unchanged', componentId: null, ipn: null, name: r.target, changes: [] })
  return {
    summary: {
      create: parts.filter((p) => p.outcome === 'create').length,
      update: parts.filter((p) => p.outcome === 'update').length,
      unchanged: parts.filter((p) => p.outcome === 'unchanged').length,
      invalid: new Set(plan.errors.map((e) => e.row)).size,
    },
    fieldSummary: _fieldSummary(plan.rows),
    preview: plan.rows.slice(0, PREVIEW_ROWS).map((p) => ({ row: p.row, rows: p.rows, action: p.action, componentId: p.componentId, input: { ...p.input, ...p.extras } })),
    // Every error, not the first 100: a user fixes a file once, not in rounds (decision 0609).
    errors: plan.errors.map((e) => ({ ...e, column: e.column ?? _columnOf(e.path, mapping) ?? undefined })),
    parts,
    ...(plan.warnings?.length ? { warnings: plan.warnings } : {}),
  }
}

/** A per-field summary with every count at zero (sessions stored before it was kept). */
export function emptyFieldSummary(): ImportFieldSummary {
  return Object.fromEntries(ImportField.options.map((f) => [f, { create: 0, update: 0, unchanged: 0 }])) as ImportFieldSummary
}

/**
 * One page of a session's rows in file order, each with its outcome, its
 * errors and, for an update, its changes. The cursor is the last row number
 * given (opaque to clients), so a page never repeats or skips a row.
 */
export function pageRowOutcomes(view: PlanView & { parts: PartView[] }, rowCount: number, query: { limit: number; cursor?: string | undefined; outcome?: ImportOutcome | undefined }): Page<ImportRowOutcome> {
  const after = decodeRowCursor(query.cursor)
  const matching = rowOutcomes(view, rowCount).filter((r) => query.outcome === undefined || r.outcome === query.outcome)
  const rest = matching.filter((r) => r.row > after)
  const items = rest.slice(0, query.limit)
  return { items, total: matching.length, nextCursor: rest.length > items.length ? encodeRowCursor(items.at(-1)!.row) : null }
}

/** Every row of the file in order, with its outcome, errors and changes: what a stored import keeps per row (decision 0615). */
export function rowOutcomes(view: PlanView & { parts: PartView[] }, rowCount: number): ImportRowOutcome[] {
  const byRow = new Map<number, ImportRowOutcome>()
  for (const part of view.parts) {
    for (const row of part.rows) byRow.set(row, { row, outcome: part.outcome, rows: part.rows, componentId: part.componentId, ipn: part.ipn, name: part.name, errors: [], changes: part.changes })
  }
  for (const e of view.errors) {
    let entry = byRow.get(e.row)
    if (!entry) byRow.set(e.row, (entry = { row: e.row, outcome: 'invalid', rows: [e.row], componentId: null, ipn: null, name: null, errors: [], changes: [] }))
    entry.errors.push({ field: e.path, column: e.column ?? null, message: e.message })
  }
  // Every row of the file is listed; one that no part took and no error named would be a bug, and shows as invalid rather than vanish.
  for (let row = 2; row < rowCount + 2; row++) if (!byRow.has(row)) byRow.set(row, { row, outcome: 'invalid', rows: [row], componentId: null, ipn: null, name: null, errors: [], changes: [] })
  return [...byRow.values()].sort((a, b) => a.row - b.row)
}

function _partView(p: PlannedRow, committed: { id: string; ipn: string } | undefined): PartView {
  const given = { ipn: typeof p.input.ipn === 'string' ? p.input.ipn : null, name: typeof p.input.name === 'string' ? p.input.name : null }
  if (p.action === 'create') return { rows: p.rows, outcome: 'create', componentId: committed?.id ?? null, ipn: committed?.ipn ?? given.ipn, name: given.name, changes: [] }
  const changes = p.changes ?? []
  return {
    rows: p.rows,
    // A plan stored before changes were found has none: its updates stay updates.
    outcome: p.changes && p.changes.length === 0 ? 'unchanged' : 'update',
    componentId: p.componentId,
    ipn: committed?.ipn ?? given.ipn ?? p.current?.ipn ?? null,
    name: given.name ?? p.current?.name ?? null,
    changes,
  }
}

function _fieldSummary(rows: PlannedRow[]): ImportFieldSummary {
  const summary = emptyFieldSummary()
  for (const p of rows) {
    if (p.action === 'create') {
      const carried: Record<string, unknown> = { ...p.input, ...p.extras }
      for (const field of ImportField.options) if (_hasValue(carried[field])) summary[field].create++
      continue
    }
    const changed = new Set(p.changes ? p.changes.map((c) => c.field) : ImportField.options.filter((f) => _hasValue({ ...p.input, ...p.extras }[f])))
    for (const field of ImportField.options) summary[field][changed.has(field) ? 'update' : 'unchanged']++
  }
  return summary
}

function _hasValue(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)
}

/** The first column mapped to the field an error names (`parameters.0.value` → a parameters or parameter column). */
function _columnOf(path: string, mapping: Record<string, ImportTarget>): string | null {
  const field = path.split('.')[0]!
  const targets: readonly ImportTarget[] =
    field === 'parameters' ? ['parameters', 'parameter'] : field === 'mpns' ? ['mpns', 'partNumber', 'manufacturer'] : field === 'stock' ? ['stock', 'quantity', 'location'] : field === 'attachments' ? ['attachments', 'datasheet'] : ImportField.safeParse(field).success ? [field as ImportTarget] : []
  for (const target of targets) {
    const column = Object.keys(mapping).find((c) => mapping[c] === target)
    if (column !== undefined) return column
  }
  return null
}

/** The cursor of a page of rows that ends at `row` (opaque to clients). */
export function encodeRowCursor(row: number): string {
  return Buffer.from(JSON.stringify(['row', row]), 'utf8').toString('base64url')
}

/** The row a cursor of encodeRowCursor ends at (0 without one); a 400 naming `query.cursor` for any other text. */
export function decodeRowCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown
    if (Array.isArray(value) && value.length === 2 && value[0] === 'row' && Number.isInteger(value[1])) return value[1] as number
  } catch {
    // fall through to the 400
  }
  throw new ComplibError('VALIDATION_FAILED', 'query.cursor: not a cursor this server issued', { errors: [{ path: 'query.cursor', message: 'not a cursor this server issued' }] })
}
