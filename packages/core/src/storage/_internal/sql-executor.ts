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
   * are stored, such as a response body. Parameters: no blobs.
   */
  bytesRow(sql: string, params?: readonly SqlParam[]): BytesRow | undefined
  /**
   * Column 0 of the first `max` rows joined into one JSON array in UTF-8
   * bytes, `[text1,text2,…]`, each text as it is stored (they must be JSON
   * texts; NULLs and empty texts are left out and counted). For a page of
   * stored records: see JsonArrayRows. Parameters: no blobs.
   */
  jsonArray(sql: string, params: readonly SqlParam[], max: number): JsonArrayRows
}

export interface BytesRow {
  bytes: Uint8Array | null
  numbers: number[]
}

export interface JsonArrayRows {
  json: Uint8Array
  /** Rows the query gave, counting at most `max + 1`: a query for `max + 1` rows tells whether more follow. */
  rows: number
  /** Rows among the first `max` whose column 0 was NULL or empty, so left out of `json`. */
  missing: number
  /** The other columns of row `max`, as texts (null for NULL); null with fewer rows. A next page's cursor is made of them. */
  atMax: Array<string | null> | null
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

  jsonArray(sql: string, params: readonly SqlParam[], max: number): JsonArrayRows {
    if (this.byteStatements) return this.byteStatements.jsonArray(sql, params, max)
    const stmt = this.prepare(sql)
    const texts: string[] = []
    let rows = 0
    let atMax: Array<string | null> | null = null
    try {
      stmt.bind(_normalize(params))
      while (stmt.step()) {
        if (++rows > max) break
        const [first, ...rest] = stmt.get()
        if (typeof first === 'string' && first !== '') texts.push(first)
        if (rows === max) atMax = rest.map((v) => (v === null ? null : String(v)))
      }
    } finally {
      stmt.reset()
    }
    return { json: Buffer.from(`[${texts.join(',')}]`, 'utf8'), rows, missing: Math.min(rows, max) - texts.length, atMax }
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
