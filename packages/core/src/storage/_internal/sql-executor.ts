import type { Database, SqlValue, Statement } from 'sql.js'
import type { ByteStatements } from './sqlite-bytes'

export type SqlParam = string | number | null | Uint8Array | boolean | undefined
export type SqlRow = Record<string, SqlValue>

/**
 * The synchronous SQL surface the sql.js repositories are written against.
 * `run` is for statements that write; `all`/`get` only read (a write through
 * them throws, because only `run` is journaled).
 */
export interface SqlExecutor {
  run(sql: string, params?: readonly SqlParam[]): { changes: number }
  all<T = SqlRow>(sql: string, params?: readonly SqlParam[]): T[]
  get<T = SqlRow>(sql: string, params?: readonly SqlParam[]): T | undefined
  /**
   * The first row (undefined without one): column 0 as its UTF-8 bytes (null
   * for NULL), the other columns as numbers. For texts that go out as they
   * are stored, such as a response body. Parameters are strings or numbers.
   */
  bytesRow(sql: string, params?: readonly SqlParam[]): BytesRow | undefined
}

export interface BytesRow {
  bytes: Uint8Array | null
  numbers: number[]
}

/** A statement as journaled: SQL text and its bound parameters. */
export type JournaledStatement = [sql: string, params: SqlParam[]]

/**
 * Executes against one sql.js database with a cache of prepared statements.
 * The cache must be cleared whenever sql.js reopens the database (export does).
 */
export class StatementCache {
  private readonly statements = new Map<string, Statement>()
  /** `byteStatements`: the fast path of `bytes` (null: sql.js's getters, then an encode). */
  constructor(
    public db: Database,
    private readonly byteStatements: ByteStatements | null = null,
  ) {}

  prepare(sql: string): Statement {
    let stmt = this.statements.get(sql)
    if (!stmt) {
      stmt = this.db.prepare(sql)
      this.statements.set(sql, stmt)
    }
    return stmt
  }

  /** Forgets every cached statement (freeing them when the database is still open). */
  clear(free: boolean): void {
    if (free) for (const stmt of this.statements.values()) stmt.free()
    if (free) this.byteStatements?.clear()
    this.statements.clear()
    this.columns = new WeakMap()
  }

  // A prepared statement's column names never change: read them once, not on every row
  // (sql.js's getAsObject decodes each name out of wasm memory for every row).
  private columns = new WeakMap<Statement, string[]>()
  private _names(stmt: Statement): string[] {
    let names = this.columns.get(stmt)
    if (!names) {
      names = stmt.getColumnNames()
      this.columns.set(stmt, names)
    }
    return names
  }

  run(sql: string, params: readonly SqlParam[] = []): { changes: number } {
    const stmt = this.prepare(sql)
    try {
      stmt.bind(_normalize(params))
      while (stmt.step()) {
        // drain: a write statement yields no rows
      }
    } finally {
      stmt.reset()
    }
    return { changes: this.db.getRowsModified() }
  }

  all<T>(sql: string, params: readonly SqlParam[] = []): T[] {
    const stmt = this.prepare(sql)
    const rows: T[] = []
    try {
      stmt.bind(_normalize(params))
      const names = this._names(stmt)
      while (stmt.step()) rows.push(_row(names, stmt.get()) as T)
    } finally {
      stmt.reset()
    }
    return rows
  }

  get<T>(sql: string, params: readonly SqlParam[] = []): T | undefined {
    const stmt = this.prepare(sql)
    try {
      stmt.bind(_normalize(params))
      return stmt.step() ? (_row(this._names(stmt), stmt.get()) as T) : undefined
    } finally {
      stmt.reset()
    }
  }

  bytesRow(sql: string, params: readonly SqlParam[] = []): BytesRow | undefined {
    if (this.byteStatements) return this.byteStatements.firstRow(sql, params)
    const stmt = this.prepare(sql)
    try {
      stmt.bind(_normalize(params))
      if (!stmt.step()) return undefined
      const [first, ...rest] = stmt.get()
      const bytes = first === null || first === undefined ? null : typeof first === 'string' ? Buffer.from(first, 'utf8') : Buffer.from(first as Uint8Array)
      return { bytes, numbers: rest.map(Number) }
    } finally {
      stmt.reset()
    }
  }
}

function _row(names: readonly string[], values: readonly SqlValue[]): Record<string, SqlValue> {
  const row: Record<string, SqlValue> = {}
  for (let i = 0; i < names.length; i++) row[names[i]!] = values[i]!
  return row
}

function _normalize(params: readonly SqlParam[]): SqlValue[] {
  return params.map((p) => (p === undefined ? null : typeof p === 'boolean' ? (p ? 1 : 0) : p))
}
