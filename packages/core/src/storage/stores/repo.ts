import type { SqlExecutor } from '../_internal/sql-executor'

/**
 * The engine-neutral shape of a store: each method `(…args) => Promise<R>` of
 * the contract becomes `(ex, …args) => R | Promise<R>`, written against an
 * executor and bound to one by the engine (`createSqliteStorage`).
 */
export type StoreRepo<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => Promise<infer R> ? (ex: SqlExecutor, ...args: A) => R | Promise<R> : never
}
