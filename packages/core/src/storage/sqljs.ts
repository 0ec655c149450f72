import { DurableDatabase } from './_internal/durable-database'
import type { SqlExecutor } from './_internal/sql-executor'
import { defineStorage } from './define'
import { attachments } from './sqljs/attachment-store'
import { components } from './sqljs/component-store'
import { connectors } from './sqljs/connector-store'
import { documents } from './sqljs/document-store'
import { libraryItems } from './sqljs/library-item-store'
import { locations } from './sqljs/location-store'
import { manufacturers } from './sqljs/manufacturers'
import { mpns } from './sqljs/mpns'
import { parameters, parameterTypes } from './sqljs/parameters'
import { runs } from './sqljs/run-store'
import { migrate } from './sqljs/schema'
import { search } from './sqljs/search-store'
import { stats } from './sqljs/library-stats'
import { tags } from './sqljs/tags'
import type { Storage, StorageSession } from './types'

export const NAME = 'sqljs'

export interface SqlJsStorageOptions {
  /** Data folder for the snapshot and journal. Omit for a throw-away in-memory library (tests, dry runs). */
  dir?: string | undefined
  /** fsync every commit group (default true). */
  fsync?: boolean | undefined
  /** Journal size that triggers a snapshot (default 32 MiB). */
  snapshotAfterBytes?: number | undefined
  log?: ((message: string) => void) | undefined
}

export interface SqlJsStorage extends Storage {
  /** Writes a snapshot now and drops the journal it makes redundant. */
  snapshot(): Promise<void>
  /** A consistent copy of the whole database file (SQLite format), for backups. */
  exportBytes(): Promise<Uint8Array>
}

const REPOS = {
  components,
  symbols: libraryItems('symbol'),
  footprints: libraryItems('footprint'),
  attachments,
  manufacturers,
  mpns,
  parameterTypes,
  parameters,
  tags,
  locations,
  search,
  connectors,
  runs,
  jobs: documents('jobs'),
  imports: documents('imports'),
}

/**
 * The embedded storage: sql.js in memory, made durable by a journal and
 * snapshots in `dir` (see the core README, "Durability").
 *
 * @example
 * const storage = await createSqlJsStorage({ dir: './data' })
 * const part = await storage.components.create({ name: 'R 10k 0603' })
 * await storage.close()
 */
export default async function createSqlJsStorage(options: SqlJsStorageOptions = {}): Promise<SqlJsStorage> {
  const db = await DurableDatabase.open({ ...options, migrate: (ex) => migrate(ex, options.log) })
  const root = _bindSession((fn) => db.run(fn))
  return defineStorage<SqlJsStorage>({
    name: NAME,
    ...root,
    transaction<T>(fn: (tx: StorageSession) => Promise<T>): Promise<T> {
      return db.run(async (ex) => {
        let open = true
        // Calls run at once, on this transaction's executor: a call that was
        // not awaited still lands inside the transaction, and one made after
        // it ended fails loudly instead of writing outside the journal.
        const session = _bindSession((f) => {
          if (!open) return Promise.reject(new Error('[storage] the transaction has already ended'))
          try {
            // A failed call undoes its own writes; the transaction can go on.
            return Promise.resolve(ex.atomic(() => f(ex)))
          } catch (error) {
            return Promise.reject(error)
          }
        })
        try {
          return await fn(session)
        } finally {
          open = false
        }
      })
    },
    snapshot: () => db.snapshot(),
    exportBytes: () => db.exportBytes(),
    backup: async () => ({ fileName: 'complib-backup.sqlite', contentType: 'application/vnd.sqlite3', bytes: await db.exportCopy(BACKUP_REDACTIONS) }),
    close: () => db.close(),
  })
}

export { createSqlJsStorage }

// Connector signing secrets never leave the server whole (SPEC), not even in a backup: after a
// restore, set each connector's secret again (POST /api/connectors/:id/secret/rotate).
const BACKUP_REDACTIONS = ['UPDATE connectors SET secret = NULL, previous_secret = NULL, previous_secret_expires_at = NULL']

type Runner = <T>(fn: (ex: SqlExecutor) => T) => Promise<T>

function _bindSession(run: Runner): StorageSession {
  const session: Record<string, unknown> = { stats: () => run((ex) => stats(ex)) }
  for (const [group, repo] of Object.entries(REPOS)) {
    const bound: Record<string, unknown> = {}
    for (const [method, fn] of Object.entries(repo as Record<string, (ex: SqlExecutor, ...args: unknown[]) => unknown>)) {
      bound[method] = (...args: unknown[]) => run((ex) => fn(ex, ...args))
    }
    session[group] = bound
  }
  return session as unknown as StorageSession
}
