import type { SqlExecutor } from '../_internal/sql-executor'
import type { ImportRowStore, StoredImportOutcome, StoredImportRow } from '../types'
import { conflict } from './_shared'
import type { StoreAccess, StoreRepo } from './repo'

/**
 * Rows per INSERT: 4 parameters each keeps a statement far below either
 * engine's parameter limit (decision 0206), and a chunk of an import (1,000
 * rows) is ten statements rather than a thousand round trips.
 */
const ROWS_PER_STATEMENT = 100

/** The rows of import sessions, one record each (decision 0615). */
export const importRows: StoreRepo<ImportRowStore> = {
  async append(ex, importId, rows) {
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      const slice = rows.slice(i, i + ROWS_PER_STATEMENT)
      const taken = await ex.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM import_rows WHERE import_id = ? AND row_no IN (${slice.map(() => '?').join(', ')})`,
        [importId, ...slice.map((r) => r.rowNo)],
      )
      if (Number(taken?.n ?? 0) > 0) throw conflict('rowNo', `import ${importId} already has some of rows ${slice[0]!.rowNo}–${slice.at(-1)!.rowNo}`)
      await ex.run(
        `INSERT INTO import_rows (import_id, row_no, cells, outcome, outcome_kind) VALUES ${slice.map(() => '(?, ?, ?, NULL, NULL)').join(', ')}`,
        slice.flatMap((r) => [importId, r.rowNo, JSON.stringify(r.cells)]),
      )
    }
  },
  async read(ex, importId, { after, limit }) {
    const rows = await ex.all<{ row_no: number; cells: string }>('SELECT row_no, cells FROM import_rows WHERE import_id = ? AND row_no > ? ORDER BY row_no LIMIT ?', [importId, after, limit])
    // Rows are read into objects without a prototype: a column may be named `__proto__` (decision 0608).
    return rows.map((r): StoredImportRow => ({ rowNo: Number(r.row_no), cells: Object.assign(Object.create(null) as Record<string, unknown>, JSON.parse(r.cells) as Record<string, unknown>) }))
  },
  async setOutcomes(ex, importId, outcomes) {
    for (const o of outcomes) await ex.run('UPDATE import_rows SET outcome = ?, outcome_kind = ? WHERE import_id = ? AND row_no = ?', [JSON.stringify(o.outcome), o.kind, importId, o.rowNo])
  },
  async listOutcomes(ex, importId, { after, limit, kind }) {
    const filter = kind === undefined ? '' : ' AND outcome_kind = ?'
    const args = kind === undefined ? [] : [kind]
    const total = await ex.get<{ n: number }>(`SELECT COUNT(*) AS n FROM import_rows WHERE import_id = ? AND outcome IS NOT NULL${filter}`, [importId, ...args])
    const rows = await ex.all<{ row_no: number; outcome: string; outcome_kind: string }>(
      `SELECT row_no, outcome, outcome_kind FROM import_rows WHERE import_id = ? AND outcome IS NOT NULL${filter} AND row_no > ? ORDER BY row_no LIMIT ?`,
      [importId, ...args, after, limit],
    )
    return { items: rows.map((r): StoredImportOutcome => ({ rowNo: Number(r.row_no), kind: r.outcome_kind, outcome: JSON.parse(r.outcome) as Record<string, unknown> })), total: Number(total?.n ?? 0) }
  },
  async count(ex, importId) {
    return Number((await ex.get<{ n: number }>('SELECT COUNT(*) AS n FROM import_rows WHERE import_id = ?', [importId]))?.n ?? 0)
  },
  async deleteAll(ex, importId) {
    await ex.run('DELETE FROM import_rows WHERE import_id = ?', [importId])
  },
  async sessionsIn(ex, statuses) {
    if (statuses.length === 0) return []
    const rows = await ex.all<{ id: string }>(`SELECT id FROM documents WHERE collection = 'imports' AND status IN (${statuses.map(() => '?').join(', ')}) ORDER BY created_at, id`, [...statuses])
    return rows.map((r) => r.id)
  },
}

/** How each method uses the database (Access). */
export const importRowAccess = {
  append: 'write',
  read: 'read',
  setOutcomes: 'write',
  listOutcomes: 'snapshot',
  count: 'read',
  deleteAll: 'write',
  sessionsIn: 'read',
} as const satisfies StoreAccess<ImportRowStore>
