import type { SqlExecutor } from '../_internal/sql-executor'

/**
 * The synchronous shape of a store: each async method `(…args) => Promise<R>`
 * becomes `(ex, …args) => R`. The stores are written this way and
 * bound to an executor by `createSqliteStorage`.
 */
export type SyncRepo<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => Promise<infer R> ? (ex: SqlExecutor, ...args: A) => R : never
}
