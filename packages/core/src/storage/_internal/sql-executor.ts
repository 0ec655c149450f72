import type { Dialect } from './dialect'

export type SqlParam = string | number | null | Uint8Array | boolean | undefined
export type SqlValue = string | number | bigint | null | Uint8Array
export type SqlRow = Record<string, SqlValue>

/** A value, or a promise of it: what an engine-neutral store awaits. */
export type Awaitable<T> = T | Promise<T>

/**
 * The SQL surface the stores are written against, shared by the engines: the
 * embedded one answers at once (better-sqlite3 is synchronous: SyncSqlExecutor),
 * a client/server one answers with promises, and stores `await` every call.
 * `run` is for statements that write; `all`, `get` and `bytesRow` only read: a
 * statement that writes is refused there before it runs, since a write belongs
 * to the transaction that `run` begins.
 */
export interface SqlExecutor {
  /**
   * What this engine says its own way. Stores write the SQL every engine
   * runs and ask the dialect for the rest (dialect.ts); the PostgreSQL
   * executor only numbers the `?` parameters on the way (postgres/sql.ts).
   */
  readonly dialect: Dialect
  run(sql: string, params?: readonly SqlParam[]): Awaitable<{ changes: number }>
  all<T = SqlRow>(sql: string, params?: readonly SqlParam[]): Awaitable<T[]>
  get<T = SqlRow>(sql: string, params?: readonly SqlParam[]): Awaitable<T | undefined>
  /**
   * The first row (undefined without one): column 0 as its UTF-8 bytes (null
   * for NULL), the other columns as numbers. For texts that go out as they
   * are stored, such as a response body. Parameters: no blobs.
   */
  bytesRow(sql: string, params?: readonly SqlParam[]): Awaitable<BytesRow | undefined>
  /**
   * PostgreSQL only: the stored component views of these history seqs, as
   * UTF-8 bytes, from the server's own copies where it has them (postgres/
   * views.ts). Views of events never change, so this read needs no snapshot
   * and does not count as a statement of the read it serves.
   */
  storedViews?(seqs: readonly number[]): Promise<Map<number, Uint8Array>>
}

/** The embedded engine's executor: every call answers at once (migrations rely on it). */
export interface SyncSqlExecutor extends SqlExecutor {
  run(sql: string, params?: readonly SqlParam[]): { changes: number }
  all<T = SqlRow>(sql: string, params?: readonly SqlParam[]): T[]
  get<T = SqlRow>(sql: string, params?: readonly SqlParam[]): T | undefined
  bytesRow(sql: string, params?: readonly SqlParam[]): BytesRow | undefined
}

export interface BytesRow {
  bytes: Uint8Array | null
  numbers: number[]
}
