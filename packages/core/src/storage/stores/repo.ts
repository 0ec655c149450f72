import type { SqlExecutor } from '../_internal/sql-executor'

/**
 * The engine-neutral shape of a store: each method `(…args) => Promise<R>` of
 * the contract becomes `(ex, …args) => R | Promise<R>`, written against an
 * executor and bound to one by each engine (`bindSession`, _internal/session.ts).
 */
export type StoreRepo<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => Promise<infer R> ? (ex: SqlExecutor, ...args: A) => R | Promise<R> : never
}

/**
 * How a store method uses the database, declared beside the store (its
 * `…Access` map) so that the engine reads it instead of guessing:
 * - `write`: changes something; runs in a write transaction, under the write lock.
 * - `read`: only reads, in one statement on its usual path. PostgreSQL sends it
 *   alone, outside a transaction (one round trip); should a call need a second
 *   statement after all, it is run again inside a snapshot transaction.
 * - `snapshot`: only reads, in several statements that must see one snapshot
 *   (a count beside its page, a row beside its children).
 * - `free`: only reads, in several statements that need no common snapshot
 *   (suggestions: a ranked guess over tiers, where a component written between
 *   two tiers may show or not either way).
 * The embedded engine runs every kind the same way: one writer, one snapshot per call; the
 * reads that grow with the library on a reader thread (sqlite/storage.ts, OFF_THREAD_READS).
 */
export type Access = 'write' | 'read' | 'snapshot' | 'free'

/**
 * A store's declaration of every method's Access, keyed like its contract:
 * a method added to the contract without one does not compile.
 */
export type StoreAccess<S> = { readonly [K in keyof S]-?: Access }
