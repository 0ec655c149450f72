import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import type { SqlExecutor } from './_internal/sql-executor'
import { defineStorage } from './define'
import { SqliteDatabase } from './sqlite/engine/database'
import { attachments } from './sqlite/attachment-store'
import { components } from './sqlite/component-store'
import { connectors } from './sqlite/connector-store'
import { documents } from './sqlite/document-store'
import { libraryItems } from './sqlite/library-item-store'
import { locations } from './sqlite/location-store'
import { manufacturers } from './sqlite/manufacturers'
import { mpns } from './sqlite/mpns'
import { parameters, parameterTypes } from './sqlite/parameters'
import { runs } from './sqlite/run-store'
import { migrate } from './sqlite/schema'
import { search } from './sqlite/search-store'
import { stats } from './sqlite/library-stats'
import { tags } from './sqlite/tags'
import type { Storage, StorageSession } from './types'

export const NAME = 'sqlite'

export interface SqliteStorageOptions {
  /** Data folder of the database file (`complib.db`). Omit for a throw-away in-memory library (tests, dry runs). */
  dir?: string | undefined
  /** Flush the WAL to the disk before a write is acknowledged (default true). */
  fsync?: boolean | undefined
  /** Checkpoint once the WAL holds this many bytes (default 16 MiB). */
  checkpointAfterBytes?: number | undefined
  log?: ((message: string) => void) | undefined
}

export interface SqliteStorage extends Storage {
  /** The engine underneath: checkpoints on demand, for tests and the bench. */
  readonly database: SqliteDatabase
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
 * The embedded storage: one SQLite file (`complib.db`, WAL mode) in `dir`,
 * through better-sqlite3. Durability is SQLite's (core README, "Durability").
 *
 * @example
 * const storage = await createSqliteStorage({ dir: './data' })
 * const part = await storage.components.create({ name: 'R 10k 0603' })
 * await storage.close()
 */
export default async function createSqliteStorage(options: SqliteStorageOptions = {}): Promise<SqliteStorage> {
  const db = SqliteDatabase.open({ ...options, migrate: (ex) => migrate(ex, options.log) })
  const root = _bindSession((fn) => db.run(fn))
  return defineStorage<SqliteStorage>({
    name: NAME,
    database: db,
    ...root,
    transaction<T>(fn: (tx: StorageSession) => Promise<T>): Promise<T> {
      return db.run(async (ex) => {
        let open = true
        // Calls run one after another on this transaction's executor (a store
        // call spans several awaits, and its savepoint must not interleave with
        // another's). A call that was not awaited still lands inside the
        // transaction; one made after it ended fails loudly instead of writing
        // outside it.
        let tail: Promise<unknown> = Promise.resolve()
        const session = _bindSession((f) => {
          if (!open) return Promise.reject(new Error('[storage] the transaction has already ended'))
            // A failed call undoes its own writes; the transaction can go on.
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
      })
    },
    async backup() {
      const folder = mkdtempSync(join(options.dir ?? tmpdir(), '.backup-'))
      const file = join(folder, 'complib-backup.sqlite')
      try {
        await db.backup(file, BACKUP_REDACTIONS)
      } catch (error) {
        rmSync(folder, { recursive: true, force: true })
        throw error
      }
      const stream = createReadStream(file)
      // The copy is removed once it has been read, or the reader gave up.
      stream.once('close', () => rmSync(folder, { recursive: true, force: true }))
      return {
        fileName: 'complib-backup.sqlite',
        contentType: 'application/vnd.sqlite3',
        size: statSync(file).size,
        body: Readable.toWeb(stream) as ReadableStream<Uint8Array>,
      }
    },
    close: async () => await db.close(),
  })
}

export { createSqliteStorage }

// Connector signing secrets never leave the server whole (SPEC), not even in a backup: after a
// restore, set each connector's secret again (POST /api/connectors/:id/secret/rotate).
const BACKUP_REDACTIONS = ['UPDATE connectors SET secret = NULL, previous_secret = NULL, previous_secret_expires_at = NULL']

type Runner = <T>(fn: (ex: SqlExecutor) => T | Promise<T>) => Promise<T>

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
