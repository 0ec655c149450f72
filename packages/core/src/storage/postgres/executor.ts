import type { PoolClient } from 'pg'
import type { BytesRow, SqlExecutor, SqlParam } from '../_internal/sql-executor'
import { postgresDialect } from './dialect'
import { toPostgres } from './sql'
import type { StoredViews } from './views'

/**
 * The SqlExecutor of the PostgreSQL engine, on one pooled connection, inside
 * a transaction or not as the call's access says (PostgresDatabase.run). The
 * stores' SQL goes out as written, its `?` parameters numbered (sql.ts).
 * Connections are read only unless a write transaction says READ WRITE, so
 * PostgreSQL itself refuses a write handed to a read path (decision 0101).
 */
export class PgExecutor implements SqlExecutor {
  readonly dialect = postgresDialect
  private depth = 0
  /** Statements sent (or refused by `limit`) so far. */
  statements = 0

  /** With `limit`, a statement past it is not sent: it throws SnapshotNeeded (PostgresDatabase.run). */
  constructor(
    private readonly client: PoolClient,
    private readonly names: PreparedNames,
    private readonly views: StoredViews,
    private readonly limit = Number.POSITIVE_INFINITY,
  ) {}

  async storedViews(seqs: readonly number[]): Promise<Map<number, Uint8Array>> {
    return await this.views.read(this.client, seqs)
  }

  /** Runs one statement; with COMPLIB_DEBUG_SQL set, a failing one is printed with its rewritten SQL. */
  private async _query(sql: string, params: readonly SqlParam[], rowMode?: 'array') {
    if (++this.statements > this.limit) throw new SnapshotNeeded()
    const { text, name } = this.names.get(sql)
    try {
      const config = { text, name, values: _bind(params) }
      return rowMode ? await this.client.query({ ...config, rowMode }) : await this.client.query(config)
    } catch (error) {
      if (process.env.COMPLIB_DEBUG_SQL) console.error(`[sql] ${(error as Error).message}\n${text}`)
      throw error
    }
  }

  async run(sql: string, params: readonly SqlParam[] = []): Promise<{ changes: number }> {
    const result = await this._query(sql, params)
    return { changes: result.rowCount ?? 0 }
  }

  async all<T>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
    return (await this._query(sql, params)).rows as T[]
  }

  async get<T>(sql: string, params: readonly SqlParam[] = []): Promise<T | undefined> {
    return (await this._query(sql, params)).rows[0] as T | undefined
  }

  async bytesRow(sql: string, params: readonly SqlParam[] = []): Promise<BytesRow | undefined> {
    const row = (await this._query(sql, params, 'array')).rows[0] as unknown[] | undefined
    if (!row) return undefined
    return { bytes: _bytes(row[0]), numbers: row.slice(1).map(Number) }
  }

  /** Runs `fn` under a savepoint: if it throws, its writes are undone and the transaction goes on. */
  async atomic<T>(fn: () => T | Promise<T>): Promise<T> {
    const name = `step${++this.depth}`
    await this.client.query(`SAVEPOINT ${name}`)
    try {
      const result = await fn()
      await this.client.query(`RELEASE SAVEPOINT ${name}`)
      return result
    } catch (error) {
      await this.client.query(`ROLLBACK TO SAVEPOINT ${name}`)
      await this.client.query(`RELEASE SAVEPOINT ${name}`)
      throw error
    } finally {
      this.depth--
    }
  }
}

/** Thrown instead of sending a statement past an executor's limit. */
export class SnapshotNeeded extends Error {
  constructor() {
    super('[storage] this read needs more than one statement: it runs again in a snapshot transaction')
  }
}

/**
 * The stores' SQL with its parameters numbered (toPostgres), once per text,
 * and a name for each, so that every connection parses and plans a statement
 * once (node-postgres prepares a named statement on first use, per
 * connection). Texts are few (the stores' statements, and IN lists of up to
 * a chunk); past MAX_NAMED a text is sent unnamed, planned for each call,
 * so a connection's prepared statements stay bounded.
 */
export class PreparedNames {
  static readonly MAX_NAMED = 2000
  private readonly texts = new Map<string, { text: string; name: string | undefined }>()

  get(sql: string): { text: string; name: string | undefined } {
    let entry = this.texts.get(sql)
    if (!entry) {
      const text = toPostgres(sql)
      const cached = this.texts.size < PreparedNames.MAX_NAMED
      // A pattern's plan depends on its value (a generic plan cannot use the trigram or word
      // index for `LIKE $1`, and suggest read every row; decision 0308), and so does a range of
      // parameter values (a generic plan hashed every value of a type in range before a page:
      // 40 ms at 100,000 parts, against 5 planned for the values; decision 0321): those are
      // planned every time.
      const named = cached && !/\bI?LIKE\b|@@|\bnumeric\s*[<>]=?\s*\$\d/i.test(text)
      entry = { text, name: named ? `complib_${this.texts.size}` : undefined }
      if (cached) this.texts.set(sql, entry)
    }
    return entry
  }
}


/** pg sends booleans as `true`/`false`; the stores' SQL compares them with 0 and 1 as SQLite does. */
function _bind(params: readonly SqlParam[]): unknown[] {
  return params.map((p) => (p === undefined ? null : typeof p === 'boolean' ? (p ? 1 : 0) : p))
}

function _bytes(value: unknown): Uint8Array | null {
  if (value === null || value === undefined) return null
  if (value instanceof Uint8Array) return value
  return Buffer.from(String(value), 'utf8')
}
