import { sqliteDialect } from '../dialect'
import type Database from 'better-sqlite3'
import type { BytesRow, SyncSqlExecutor, SqlParam } from '../../_internal/sql-executor'

type Statement = Database.Statement<unknown[], unknown>

/** A prepared statement, and for SQL with numbered parameters (`?1`, `?2`) which given parameter each `?` takes. */
interface Prepared {
  stmt: Statement
  order: number[] | null
}

/**
 * The SyncSqlExecutor of the embedded engine: better-sqlite3 statements, prepared
 * once per SQL text. `all`, `get` and `bytesRow` only read: a
 * statement SQLite does not report as read-only (`stmt.readonly`, from
 * `sqlite3_stmt_readonly`) is refused before it runs, so a write can never
 * slip through a read path (it would then escape the transaction it belongs to).
 */
export class SqliteExecutor implements SyncSqlExecutor {
  readonly dialect = sqliteDialect
  private readonly statements = new Map<string, Prepared>()
  private readonly rawStatements = new Map<string, Prepared>()

  constructor(readonly db: Database.Database) {}

  run(sql: string, params: readonly SqlParam[] = []): { changes: number } {
    const { stmt, order } = this._prepare(sql)
    return { changes: stmt.run(...bindParams(params, order)).changes }
  }

  all<T>(sql: string, params: readonly SqlParam[] = []): T[] {
    const { stmt, order } = this._reader(sql)
    return stmt.all(...bindParams(params, order)) as T[]
  }

  get<T>(sql: string, params: readonly SqlParam[] = []): T | undefined {
    const { stmt, order } = this._reader(sql)
    return stmt.get(...bindParams(params, order)) as T | undefined
  }

  bytesRow(sql: string, params: readonly SqlParam[] = []): BytesRow | undefined {
    const { stmt, order } = this._rawReader(sql)
    const row = stmt.get(...bindParams(params, order)) as unknown[] | undefined
    if (!row) return undefined
    return { bytes: _bytes(row[0]), numbers: row.slice(1).map(Number) }
  }

  /** Whether a SQL text only reads (for callers that take SQL from elsewhere). */
  isReadOnly(sql: string): boolean {
    return this._prepare(sql).stmt.readonly
  }

  private _prepare(sql: string): Prepared {
    let prepared = this.statements.get(sql)
    if (!prepared) {
      prepared = _prepare(this.db, sql)
      this.statements.set(sql, prepared)
    }
    return prepared
  }

  private _reader(sql: string): Prepared {
    const prepared = this._prepare(sql)
    if (!prepared.stmt.readonly) throw new Error(`[storage] a read method was handed a statement that writes: ${sql.slice(0, 80)}`)
    return prepared
  }

  private _rawReader(sql: string): Prepared {
    let prepared = this.rawStatements.get(sql)
    if (!prepared) {
      prepared = _prepare(this.db, sql)
      if (!prepared.stmt.readonly) throw new Error(`[storage] a read method was handed a statement that writes: ${sql.slice(0, 80)}`)
      prepared.stmt.raw(true)
      this.rawStatements.set(sql, prepared)
    }
    return prepared
  }
}

/**
 * better-sqlite3 binds an array to anonymous `?` only; SQL written with
 * numbered parameters (`?1`, reused in several places) is rewritten to `?`
 * with the matching parameter repeated. Placeholders inside string literals
 * are not touched.
 */
function _prepare(db: Database.Database, given: string): Prepared {
  const { sql, order } = compileSql(given)
  return { stmt: db.prepare(sql), order }
}

/** The SQL text better-sqlite3 prepares for `given` (see _prepare), and which given parameter each `?` takes (null: in order). */
export function compileSql(given: string): { sql: string; order: number[] | null } {
  const sql = _runtimeLimits(given)
  if (!/\?\d/.test(sql)) return { sql, order: null }
  const order: number[] = []
  const rewritten = sql.replace(/'(?:[^']|'')*'|\?(\d+)/g, (match, n: string | undefined) => {
    if (n === undefined) return match
    order.push(Number(n) - 1)
    return '?'
  })
  return { sql: rewritten, order }
}

/**
 * `LIMIT ?` and `OFFSET ?` become `LIMIT (? + 0)`: since SQLite 3.47 the planner reads a
 * bound LIMIT's value, and to keep its plan honest marks the statement to be compiled
 * again whenever that parameter is bound, which is every run, and a page spent much of
 * its time in that recompilation. An expression is evaluated when the statement runs,
 * as before 3.47 (decision 0206; measured by `npm run bench -- --only=reads`).
 */
function _runtimeLimits(sql: string): string {
  return sql.replace(/\b(LIMIT|OFFSET) (\?\d*)(?![\d\w])/g, '$1 ($2 + 0)')
}

/** A column as bytes: a BLOB as it came, a TEXT encoded as UTF-8; null for NULL. */
function _bytes(value: unknown): Uint8Array | null {
  if (value === null || value === undefined) return null
  if (value instanceof Uint8Array) return value
  return Buffer.from(String(value), 'utf8')
}

/** better-sqlite3 binds numbers, strings, bigints, Buffers and null: booleans become 1/0, undefined null. */
export function bindParams(given: readonly SqlParam[], order: number[] | null): unknown[] {
  const params = order ? order.map((i) => given[i]) : given
  const out = new Array<unknown>(params.length)
  for (let i = 0; i < params.length; i++) {
    const p = params[i]
    out[i] = p === undefined ? null : typeof p === 'boolean' ? (p ? 1 : 0) : p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p
  }
  return out
}
