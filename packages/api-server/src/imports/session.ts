import {
  ComplibError, ImportSession, emptyFieldSummary, mappingWarnings, presetSource, unknownColumns, type PresetId, rowOutcomes, toPlanView, type ImportPlan, type ImportProgress, type ImportRecord, type ImportResult, type ImportRow,
  type ImportRowOutcome, type ImportTarget, type ImportUndo, type PlanView, type StorageSession, type UpsertKey,
} from '@complib/core'
import type * as z from 'zod'
import type { FileShape } from './read-rows'

/** What an import session keeps in its document. */
export interface ImportData {
  format: 'csv' | 'json'
  fileName: string | null
  /** The file's rows, in sessions stored before rows were kept one per record (`stored`); empty otherwise. */
  rows: ImportRow[]
  /** The rows are in the import row store, with their outcomes (decision 0615). */
  stored?: true
  /** Rows of the file (always set for stored sessions; for older ones, set once committed, when `rows` is emptied). */
  rowCount?: number
  /** How the file was read (sessions stored before encodings were detected have none: UTF-8, `,`). */
  shape?: FileShape
  preset?: string
  /** Whose keys the key columns hold (decision 0640); sessions without one take their preset's. */
  source?: string | null
  columns: string[]
  mapping: Record<string, ImportTarget>
  upsertKey: UpsertKey
  /** What committing would do, as shown; a whole ImportPlan in sessions stored before a committed session dropped its rows (decision 0606). Without `parts` in stored sessions: their rows have their outcomes. */
  plan: PlanView | ImportPlan
  result: { created: number; updated: number; unchanged?: number } | null
  /** While a job plans or commits the file (decision 0616). */
  progress?: ImportProgress | null
  /** Why the last commit failed (status `failed`). */
  failure?: string | null
  /** Its rows were not all stored (the upload's job failed or its server stopped): it can only be deleted. */
  unstored?: true
  /** While a job holds the session: see ImportHeartbeat. */
  heartbeat?: ImportHeartbeat | null
}

/** Which server's job holds a session being planned or committed, and when it last said so (decision 0616). */
export interface ImportHeartbeat {
  server: string
  /** Milliseconds since the epoch, on that server's clock. */
  at: number
}

/** A row's outcome as stored: the API's, with how to undo the part it applied (on the part's first row, during a commit). */
export type StoredOutcome = ImportRowOutcome & { undo?: ImportUndo }

export function dataOf(record: ImportRecord): ImportData {
  return record.data as unknown as ImportData
}

export function rowCountOf(d: ImportData): number {
  return d.rowCount ?? d.rows.length
}

/** The session as the API answers it. */
export function sessionView(record: ImportRecord): z.infer<typeof ImportSession> {
  const d = dataOf(record)
  const plan = planOf(d)
  return {
    id: record.id,
    status: record.status as z.infer<typeof ImportSession>['status'],
    progress: d.progress ?? null,
    failure: d.failure ?? null,
    // The mapping's warnings, then the plan's (decision 0647).
    warnings: [...mappingWarnings(d.columns, d.mapping), ...(plan.warnings ?? [])],
    format: d.format,
    fileName: d.fileName,
    rowCount: rowCountOf(d),
    encoding: d.shape?.encoding ?? 'utf-8',
    delimiter: d.shape ? d.shape.delimiter : d.format === 'csv' ? ',' : null,
    preset: d.preset ?? 'spreadsheet',
    source: sourceOf(d),
    columns: d.columns,
    unknownColumns: unknownColumns(d.columns, (d.preset ?? 'spreadsheet') as PresetId),
    mapping: d.mapping,
    upsertKey: d.upsertKey,
    // Sessions stored before `unchanged` and the per-field summary counted every update as a change.
    summary: { ...plan.summary, unchanged: plan.summary.unchanged ?? 0 },
    fieldSummary: plan.fieldSummary ?? emptyFieldSummary(),
    preview: plan.preview,
    errors: plan.errors.map(({ row, path, message }) => ({ row, path, message })),
    result: d.result && { unchanged: 0, ...d.result },
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    version: record.version,
  }
}

/** Whose keys the session's key columns hold (decision 0640): the one given at upload, else its preset's. */
export function sourceOf(d: ImportData): string | null {
  return d.source !== undefined ? d.source : presetSource(d.preset ?? 'spreadsheet')
}

/** How the session's file is planned besides its mapping: its source and format. */
export function planOptionsOf(d: ImportData): { source: string | null; preset: string | undefined } {
  return { source: sourceOf(d), preset: d.preset }
}

/** The session's plan view; sessions stored before plan views kept the whole plan. */
export function planOf(d: ImportData): PlanView {
  return 'rows' in d.plan ? toPlanView({ ...d.plan, rows: d.plan.rows.map((r) => ({ ...r, rows: r.rows ?? [r.row], extras: r.extras ?? {} })) }, d.mapping) : d.plan
}

/** An empty plan: what a session shows while its file is still being planned. */
export function emptyPlan(): PlanView {
  return { summary: { create: 0, update: 0, unchanged: 0, invalid: 0 }, fieldSummary: emptyFieldSummary(), preview: [], errors: [] }
}

/** The rows of a session in file order: its own (older sessions), or read from the store a chunk at a time. */
export async function* rowsOf(storage: StorageSession, id: string, d: ImportData, chunk = 1000): AsyncGenerator<ImportRow> {
  if (!d.stored) {
    yield* d.rows
    return
  }
  let after = 0
  for (;;) {
    const page = await storage.importRows.read(id, { after, limit: chunk })
    for (const r of page) yield r.cells as ImportRow
    if (page.length < chunk) return
    after = page.at(-1)!.rowNo
  }
}

/** A plan as the session keeps it (no `parts`: its rows keep their outcomes), and each row's outcome. */
export function splitPlan(plan: ImportPlan, mapping: Record<string, ImportTarget>, rowCount: number, committed?: ImportResult['components']): { view: PlanView; outcomes: StoredOutcome[] } {
  const full = toPlanView(plan, mapping, committed)
  const { parts, ...view } = full
  return { view, outcomes: rowOutcomes({ ...full, parts: parts! }, rowCount) }
}

/** Writes row outcomes in the caller's session (a transaction, for a chunk). */
export async function saveOutcomes(tx: StorageSession, id: string, outcomes: readonly StoredOutcome[]): Promise<void> {
  await tx.importRows.setOutcomes(
    id,
    outcomes.map((o) => ({ rowNo: o.row, kind: o.outcome, outcome: o as unknown as Record<string, unknown> })),
  )
}

/** A 409 for a session that is not pending (or failed: it can be changed and committed again). */
export function notChangeable(record: ImportRecord): ComplibError {
  if (record.status === 'planning' || record.status === 'committing') return new ComplibError('CONFLICT', `import ${record.id} is ${record.status}; wait until it is done (GET /api/imports/${record.id})`)
  if (dataOf(record).unstored) return new ComplibError('CONFLICT', `import ${record.id} holds only part of its file; upload the file again`)
  return new ComplibError('CONFLICT', `import ${record.id} was already committed`)
}

export function isChangeable(record: ImportRecord): boolean {
  return record.status === 'pending' || (record.status === 'failed' && !dataOf(record).unstored)
}
