import type { SqlExecutor } from './sql-executor'
import { attachments } from '../stores/attachment-store'
import { categories } from '../stores/category-store'
import { components } from '../stores/component-store'
import { connectors } from '../stores/connector-store'
import { documents } from '../stores/document-store'
import { libraryItems } from '../stores/library-item-store'
import { locations } from '../stores/location-store'
import { manufacturers } from '../stores/manufacturer-store'
import { mpns } from '../stores/mpn-store'
import { parameters, parameterTypes } from '../stores/parameter-store'
import { runs } from '../stores/run-store'
import { search } from '../stores/search-store'
import { stats } from '../stores/stats-store'
import { tags } from '../stores/tag-store'
import type { StorageSession } from '../types'

/**
 * The stores, written once against SqlExecutor; each engine binds them to its
 * own runner (bindSession).
 */
export const REPOS = {
  components,
  symbols: libraryItems('symbol'),
  footprints: libraryItems('footprint'),
  attachments,
  manufacturers,
  mpns,
  parameterTypes,
  parameters,
  tags,
  categories,
  locations,
  search,
  connectors,
  runs,
  jobs: documents('jobs'),
  imports: documents('imports'),
}

/**
 * The methods that only read. An engine may run them without taking the
 * write lock and in a read-only transaction (PostgreSQL does both).
 */
const READS = new Set([
  'list', 'listIds', 'listJson', 'get', 'getJson', 'getByIpn', 'getMany', 'getManyJson', 'readForDelivery', 'rereadForDelivery',
  'nextIpn', 'history', 'changes', 'categories', 'liveIds', 'getFile', 'components', 'listForComponent', 'resolve', 'tree',
  'stockForComponent', 'suggest', 'search', 'parametric', 'listActive', 'getBatchPayload', 'stats',
])

/**
 * Reads whose statements need not see one snapshot: suggestions (`suggest`,
 * and `search`, which suggests in every group) are a ranked guess over tiers
 * of candidates, and a component written between two tiers may show or not
 * either way. An engine may run their statements one by one,
 * outside a transaction (PostgreSQL: no BEGIN and COMMIT round trips).
 */
export const SNAPSHOT_FREE_READS: ReadonlySet<string> = new Set(['search.suggest', 'search.search'])

/**
 * Runs one store call; `write` is false for the methods that only read, and
 * `name` (`group.method`) tells an engine which call it is (PostgreSQL learns
 * which reads are one statement).
 */
export type Runner = <T>(fn: (ex: SqlExecutor) => T | Promise<T>, write: boolean, name: string) => Promise<T>

/** A StorageSession whose every method runs its store function through `run`. */
export function bindSession(run: Runner): StorageSession {
  const session: Record<string, unknown> = { stats: () => run((ex) => stats(ex), false, 'stats') }
  for (const [group, repo] of Object.entries(REPOS)) {
    const bound: Record<string, unknown> = {}
    for (const [method, fn] of Object.entries(repo as Record<string, (ex: SqlExecutor, ...args: unknown[]) => unknown>)) {
      const write = !READS.has(method)
      const name = `${group}.${method}`
      bound[method] = (...args: unknown[]) => run((ex) => fn(ex, ...args), write, name)
    }
    session[group] = bound
  }
  return session as unknown as StorageSession
}

/** An executor inside a transaction that can undo one step of it (a savepoint). */
export interface AtomicSqlExecutor extends SqlExecutor {
  atomic<T>(fn: () => T | Promise<T>): Promise<T>
}

/**
 * Runs `fn` with a session bound to one transaction's executor. Calls run one
 * after another (a store call spans several awaits, and its savepoint must not
 * interleave with another's); a failed call undoes its own writes and the
 * transaction can go on. A call that was not awaited still lands inside the
 * transaction; one made after it ended fails loudly instead of writing outside it.
 */
export async function inTransaction<T>(ex: AtomicSqlExecutor, fn: (tx: StorageSession) => Promise<T>): Promise<T> {
  let open = true
  let tail: Promise<unknown> = Promise.resolve()
  const session = bindSession((f) => {
    if (!open) return Promise.reject(new Error('[storage] the transaction has already ended'))
    const call = tail.then(() => ex.atomic(() => f(ex)))
    tail = call.catch(() => {})
    return call
  })
  try {
    const result = await fn(session)
    await tail
    return result
  } finally {
    open = false
  }
}
