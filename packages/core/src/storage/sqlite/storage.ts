import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { defineStorage } from '../define'
import { DATABASE_FILE, SqliteDatabase } from './engine/database'
import { Reader } from './engine/reader'
import { IndexMerger } from './index-merge'
import type { FlushFile } from './engine/wal-sync'
import { migrate } from './schema'
import { currentChange } from '../../change-context'
import { ComponentFilters } from '../../schemas/component'
import { bindSession, inTransaction } from '../_internal/session'
import type { Storage, StorageSession } from '../types'

export const NAME = 'sqlite'

export interface SqliteStorageOptions {
  /** Data folder of the database file (`complib.db`). Omit for a throw-away in-memory library (tests, dry runs). */
  dir?: string | undefined
  /** Flush the WAL to the disk before a write is acknowledged (default true). */
  fsync?: boolean | undefined
  /** Checkpoint once the WAL holds this many bytes (default 16 MiB). */
  checkpointAfterBytes?: number | undefined
  /** How the WAL is flushed: `fs.fdatasync`, unless a test injects a failure (decision 0207). */
  flushFile?: FlushFile | undefined
  log?: ((message: string) => void) | undefined
  /** Run the reads whose cost grows with the library on a thread of their own (default true; see OFF_THREAD_READS). */
  readerThread?: boolean | undefined
  /** How long after a burst of writes begins its FTS5 segments are merged (default 2 s; index-merge.ts). */
  indexMergeDelayMs?: number | undefined
}

/**
 * The reads run on the reader thread (engine/reader.ts) when the library is a
 * file: those whose cost grows with the library, so that one user's filtered
 * page or suggestion never holds every other request (decision 0210). A list
 * or its ids goes there only when filtered: an unfiltered page walks an index
 * at the same cost at any size. The rest answer in microseconds on the
 * server's thread, where a round trip to another thread would cost more than
 * the read.
 */
export const OFF_THREAD_READS: ReadonlySet<string> = new Set(['components.listIds', 'components.listJson', 'search.suggest', 'search.search', 'search.parametric'])

/** Whether a store call goes to the reader thread (OFF_THREAD_READS). */
export function readsOffThread(name: string, args: readonly unknown[]): boolean {
  if (!OFF_THREAD_READS.has(name)) return false
  if (name !== 'components.listIds' && name !== 'components.listJson') return true
  const query = (args[0] ?? {}) as Record<string, unknown>
  return FILTER_KEYS.some((key) => query[key] !== undefined) || query.deleted === 'include' || query.includeDeleted === true
}
const FILTER_KEYS = Object.keys(ComponentFilters.shape).filter((key) => key !== 'deleted' && key !== 'includeDeleted')

export interface SqliteStorage extends Storage {
  /** The engine underneath: checkpoints on demand, for tests and the bench. */
  readonly database: SqliteDatabase
  /** The reader thread (null for a library in memory, or with `readerThread: false`): how many calls it ran, for tests. */
  readonly reader: Pick<Reader, 'calls'> | null
  /** The background merges of the word indexes: tests and the bench wait for them to settle. */
  readonly indexMerges: Pick<IndexMerger, 'settled' | 'pending'>
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
export async function createSqliteStorage(options: SqliteStorageOptions = {}): Promise<SqliteStorage> {
  let merger: IndexMerger | undefined
  const db = SqliteDatabase.open({ ...options, migrate: (ex) => migrate(ex, options.log), onCommit: () => merger?.committed() })
  merger = new IndexMerger(db, options.indexMergeDelayMs)
  // A library closed before its last writes were merged is merged once it is opened.
  if (merger.pending()) merger.schedule()
  // An in-memory library has no file another connection could open: everything runs here.
  const reader = options.dir && options.readerThread !== false ? new Reader(join(options.dir, DATABASE_FILE)) : null
  const root = bindSession((fn, _access, name, args) => (reader?.usable && readsOffThread(name, args) ? reader.run(fn) : db.run(fn)))
  return defineStorage<SqliteStorage>({
    name: NAME,
    database: db,
    reader,
    indexMerges: merger,
    ...root,
    transaction<T>(fn: (tx: StorageSession) => Promise<T>): Promise<T> {
      const change = currentChange()
      return db.run((ex) => inTransaction(ex, fn, change))
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
    writesStopped: () => db.writesStopped,
    close: async () => {
      await merger.stop()
      await reader?.close()
      await db.close()
    },
  })
}


// Connector signing secrets never leave the server whole, not even in a backup (decisions 0722
// and 0107): after a restore, set each connector's secret again
// (POST /api/connectors/:id/secret/rotate). Nor do sign-in sessions, though only their ids'
// hashes are kept: a session belongs to the server that opened it, and after a restore people sign in again.
const BACKUP_REDACTIONS = [
  'UPDATE connectors SET secret = NULL, previous_secret = NULL, previous_secret_expires_at = NULL',
  // A source's credentials likewise (decision 1604): set them again after a restore (PATCH /api/sources/:id).
  `UPDATE sources SET secrets = '{}'`,
  'DELETE FROM auth_sessions',
]
