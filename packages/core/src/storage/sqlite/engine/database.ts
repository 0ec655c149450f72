import { sqliteDialect } from '../dialect'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { ComplibError } from '../../../errors'
import { Mutex } from '../../_internal/mutex'
import type { BytesRow, SqlParam, SyncSqlExecutor } from '../../_internal/sql-executor'
import { Checkpointer } from './checkpointer'
import { SqliteExecutor } from './executor'
import { convertLegacyFolder } from './legacy'
import { releaseLock, takeLock } from './lock'
import { type FlushFile, WalSync } from './wal-sync'
import { openSqlite } from './driver'

export interface SqliteDatabaseOptions {
  /** Data folder holding `complib.db`. Omit for a database in memory only (tests, dry runs). */
  dir?: string | undefined
  /** Creates or migrates the schema in one transaction at open; returns whether it changed anything. */
  migrate: (ex: SyncSqlExecutor) => boolean
  /** Flush the WAL before acknowledging a write (default true). Only benchmarks of the non-durable path turn it off. */
  fsync?: boolean | undefined
  /** Checkpoint once the WAL holds this many bytes (default 16 MiB). */
  checkpointAfterBytes?: number | undefined
  /** How the WAL is flushed: `fs.fdatasync` unless a test injects a failure. */
  flushFile?: FlushFile | undefined
  log?: ((message: string) => void) | undefined
  /** Called after each transaction that wrote is durable (the storage's background index merges start from it). */
  onCommit?: (() => void) | undefined
}

/** The database file in the data folder. */
export const DATABASE_FILE = 'complib.db'

/**
 * One SQLite database file opened with better-sqlite3 in WAL mode: the
 * embedded storage's engine. Durability is SQLite's own (core README,
 * "Durability"): a write resolves once its WAL frames are flushed to the
 * disk, by a group flush that never blocks the event loop (WalSync), and
 * checkpoints run on a worker thread (Checkpointer).
 *
 * Everything goes through `run(fn)`, one caller at a time: `fn`'s first write
 * begins a transaction, which commits when `fn` returns (a throw rolls it
 * back) and is durable when `run` resolves.
 */
export class SqliteDatabase {
  private readonly mutex = new Mutex()
  private closed = false
  private commitsSinceCheck = 0
  /** Milliseconds the transactions that committed in this turn of the event loop took (see run). */
  private turnMs = 0
  /** The checkpoints that let the WAL start over, while they run. */
  private restarting: Promise<void> | null = null
  /** The WAL file's size when the last checkpoint was started (see _afterCommit). */
  private walSizeAtCheck = 0
  /** Bytes a WAL frame takes: a page and its 24-byte header. */
  private readonly frameBytes: number
  /** Set once a flush or a checkpoint failed: every later write is refused with it (decision 0207). */
  private stopped: ComplibError | null = null

  private constructor(
    readonly db: BetterSqlite3.Database,
    private readonly executor: SqliteExecutor,
    private readonly options: SqliteDatabaseOptions,
    private readonly wal: WalSync | null,
    private readonly checkpointer: Checkpointer | null,
  ) {
    this.frameBytes = Number(db.pragma('page_size', { simple: true })) + 24
  }

  /** Opens (or creates) the database in `options.dir`, converting a folder of the sql.js release first. */
  static open(options: SqliteDatabaseOptions): SqliteDatabase {
    const dir = options.dir
    if (!dir) {
      const db = openSqlite(':memory:')
      _configure(db, false)
      const self = new SqliteDatabase(db, new SqliteExecutor(db), options, null, null)
      self._migrate()
      return self
    }
    mkdirSync(dir, { recursive: true })
    takeLock(dir)
    try {
      const file = join(dir, DATABASE_FILE)
      if (!existsSync(file)) convertLegacyFolder(dir, file, options.log)
      const db = openSqlite(file)
      _configure(db, true, WAL_CAP_FACTOR * (options.checkpointAfterBytes ?? DEFAULT_CHECKPOINT_AFTER_BYTES))
      const executor = new SqliteExecutor(db)
      // A read makes SQLite open (and create) the WAL file, which WalSync flushes.
      db.prepare('SELECT count(*) FROM sqlite_master').get()
      const fsync = options.fsync ?? true
      const self = new SqliteDatabase(db, executor, options, fsync ? new WalSync(`${file}-wal`, options.flushFile) : null, new Checkpointer(file))
      self._migrate()
      return self
    } catch (error) {
      releaseLock(dir)
      throw _openError(error, dir)
    }
  }

  /**
   * Runs `fn` with exclusive access. Its writes commit atomically (a throw
   * rolls them all back) and are on the disk when the returned promise resolves.
   */
  async run<T>(fn: (ex: AtomicExecutor) => T | Promise<T>): Promise<T> {
    const wait = this.mutex.acquire()
    if (wait) await wait
    // Writes get a budget per turn of the event loop. A turn runs the handlers of every request
    // whose bytes arrived together, and with each one's transaction run to its end there, timers
    // and other requests waited for all of them. Once this turn's commits took TURN_BUDGET_MS,
    // the next caller waits for the next turn, keeping its place in the queue. One write per
    // turn cost more CPU per write, a larger budget let tail latency grow (decision 0205;
    // measured by `npm run bench -- --only=writes`).
    if (this.turnMs >= TURN_BUDGET_MS) await new Promise<void>((resolve) => setImmediate(resolve))
    const started = performance.now()
    let result: T
    let wrote = false
    try {
      if (this.closed) throw new ComplibError('SERVICE_UNAVAILABLE', 'the storage is closed')
      const tx = new _Transaction(this.executor, this.stopped)
      try {
        result = await fn(tx)
        if (tx.began) {
          this.db.exec('COMMIT')
          wrote = true
          if (this.turnMs === 0) {
            setImmediate(() => {
              this.turnMs = 0
            })
          }
          this.turnMs += Math.max(performance.now() - started, 0.001)
        }
      } catch (error) {
        if (tx.began && this.db.inTransaction) this.db.exec('ROLLBACK')
        throw _storageError(error)
      }
    } finally {
      this.mutex.release()
    }
    if (wrote) {
      if (this.wal) {
        try {
          await this.wal.sync()
        } catch (error) {
          this._stopWrites('flushing the write-ahead log to the disk', error)
          throw new ComplibError('SERVICE_UNAVAILABLE', `the write was committed but could not be made durable, so it may be lost (${_describe(error)}); ${this.stopped!.message}`, { cause: error })
        }
      }
      await this._afterCommit()
      this.options.onCommit?.()
    }
    return result
  }

  /**
   * Starts the checkpoints every 64 commits, or sooner once the WAL file grew
   * by `checkpointAfterBytes` since they last started: a bulk load commits
   * megabytes at a time, and 64 of its commits let the WAL reach 1.14 GB at a
   * million components. While it is over WAL_CAP_FACTOR times that and the
   * checkpoints run, a writer's answer waits for them (the lock is not held:
   * reads and other writers go on), so a client that loads chunk after chunk
   * cannot outrun them and the WAL stays bounded (decision 0204).
   */
  private async _afterCommit(): Promise<void> {
    const threshold = this.options.checkpointAfterBytes ?? DEFAULT_CHECKPOINT_AFTER_BYTES
    const size = this.wal?.size() ?? 0
    // A restart cut the file back (journal_size_limit is the cap): growth counts from there.
    if (size < this.walSizeAtCheck) this.walSizeAtCheck = size
    const over = size > WAL_CAP_FACTOR * threshold
    if (++this.commitsSinceCheck >= 64 || over || size >= this.walSizeAtCheck + threshold) {
      this.walSizeAtCheck = size
      this._maybeCheckpoint()
    }
    if (over && this.restarting) await this.restarting
  }

  /**
   * A consistent copy of the database (SQLite's online backup: writes go on
   * meanwhile), with `statements` applied to the copy only (e.g. leaving
   * secrets out) and vacuumed, so what they overwrote does not linger in free pages.
   */
  async backup(path: string, statements: readonly string[] = []): Promise<void> {
    if (this.closed) throw new ComplibError('SERVICE_UNAVAILABLE', 'the storage is closed')
    await this.db.backup(path)
    const copy = openSqlite(path)
    try {
      for (const sql of statements) copy.exec(sql)
      copy.pragma('journal_mode = DELETE')
      copy.exec('VACUUM')
    } finally {
      copy.close()
    }
  }

  /**
   * Why writes are refused, once a flush or a checkpoint failed; null while
   * they are not. Reads go on: what the server reads is what SQLite holds.
   */
  get writesStopped(): string | null {
    return this.stopped?.message ?? null
  }

  /**
   * Refuses every later write, and says so once, loudly. After a failed
   * fsync the kernel may have dropped the pages it could not write and marked
   * them clean: a later flush that succeeds proves nothing, and a checkpoint
   * could then copy into the database file what the disk no longer holds.
   * Only a restart, which re-reads the database from the disk, recovers.
   */
  private _stopWrites(what: string, error: unknown): void {
    if (this.stopped) return
    this.stopped = new ComplibError(
      'SERVICE_UNAVAILABLE',
      `writes are stopped since ${new Date().toISOString()}: ${what} failed (${_describe(error)}), so the disk may not hold what this server saved. Reads go on. Check the disk and the system log, then restart the server: it reads the database again from the disk`,
    )
    this.options.log?.(`[storage] WRITES STOPPED: ${this.stopped.message}`)
  }

  /** Runs a checkpoint now (tests and the bench measure it); resolves with what it did. */
  checkpoint(mode: 'PASSIVE' | 'TRUNCATE' = 'PASSIVE') {
    return this.checkpointer?.checkpoint(mode)
  }

  /** Stops the checkpointer, checkpoints what the WAL holds, closes the file and releases the data folder. */
  async close(): Promise<void> {
    if (this.closed) return
    const wait = this.mutex.acquire()
    if (wait) await wait
    this.closed = true
    this.mutex.release()
    await this.checkpointer?.close()
    this.wal?.close()
    // Closing the last connection checkpoints the WAL and removes it (a clean folder is one file).
    this.db.close()
    if (this.options.dir) releaseLock(this.options.dir)
  }

  private _migrate(): void {
    this.db.exec('BEGIN IMMEDIATE')
    try {
      this.options.migrate(this.executor)
      this.db.exec('COMMIT')
    } catch (error) {
      this.db.exec('ROLLBACK')
      throw error
    }
  }

  /** Every 64 commits: a checkpoint on the worker, and once the WAL has grown past the threshold, the checkpoints that let it start over. */
  private _maybeCheckpoint(): void {
    this.commitsSinceCheck = 0
    if (!this.checkpointer || this.restarting) return
    this.restarting = this._checkpointToRestart(this.checkpointer)
      // A checkpoint that failed may have failed to fsync the database file (decision 0207).
      .catch((error) => this._stopWrites('a checkpoint of the write-ahead log into the database file', error))
      .finally(() => {
        this.restarting = null
      })
  }

  /**
   * Checkpoints, and once the WAL holds more than `checkpointAfterBytes`,
   * until it can start over. The WAL restarts from its beginning only at a
   * commit that finds every frame copied; under steady writes a checkpoint
   * beside them never catches up (it copies the frames there were when it
   * began), so the WAL grew by every commit, without bound, and appending
   * to a growing file cost the kernel new blocks and zeroed pages for each
   * commit's frames, much of the server's CPU under many writers (decision 0204).
   * So: passes beside the writes while each still leaves many frames, then
   * one pass with the queue held (writes and reads wait, asynchronously),
   * short since it copies only what the previous pass left. The next commit
   * then rewrites the WAL's first pages, which the file already has
   * (`journal_size_limit` cuts it back after a burst). The event loop is
   * never held: the passes run on the worker.
   */
  private async _checkpointToRestart(checkpointer: Checkpointer): Promise<void> {
    let done = await checkpointer.checkpoint()
    if (done.walFrames * this.frameBytes < (this.options.checkpointAfterBytes ?? DEFAULT_CHECKPOINT_AFTER_BYTES)) return
    for (let pass = 1; pass < 8 && done.walFrames - done.checkpointed > HELD_PASS_FRAMES; pass++) done = await checkpointer.checkpoint()
    // Writes that outpace the copying: the WAL grows, and the next check tries again.
    if (done.walFrames - done.checkpointed > HELD_PASS_FRAMES) return
    const wait = this.mutex.acquire()
    if (wait) await wait
    try {
      if (!this.closed) await checkpointer.checkpoint()
    } finally {
      this.mutex.release()
    }
  }
}

/** The WAL holds this much before the checkpoints that let it start over run (options.checkpointAfterBytes). */
const DEFAULT_CHECKPOINT_AFTER_BYTES = 16 * 1024 * 1024

/** Writers wait for those checkpoints while the WAL file is over this many times that. */
const WAL_CAP_FACTOR = 4

/** Transactions that commit in one turn of the event loop take at most about this long together. */
const TURN_BUDGET_MS = 1

/** A checkpoint pass that holds the queue copies at most this many frames (4 MiB of pages). */
const HELD_PASS_FRAMES = 1000

/** An executor that can also run a step atomically inside the surrounding transaction. */
export interface AtomicExecutor extends SyncSqlExecutor {
  /** Runs `fn` under a savepoint: if it throws, its writes are undone, the rest stays. Calls must not overlap. */
  atomic<T>(fn: () => T | Promise<T>): Promise<T>
}

/** One `run`: begins the transaction at its first write. */
class _Transaction implements AtomicExecutor {
  readonly dialect = sqliteDialect
  began = false
  private depth = 0
  constructor(
    private readonly ex: SqliteExecutor,
    /** Set: writes are stopped, and the first write of this transaction throws it. */
    private readonly stopped: ComplibError | null,
  ) {}

  run(sql: string, params?: readonly SqlParam[]): { changes: number } {
    this._begin()
    return this.ex.run(sql, params)
  }

  async atomic<T>(fn: () => T | Promise<T>): Promise<T> {
    this._begin()
    const name = `step${++this.depth}`
    const db = this.ex.db
    db.exec(`SAVEPOINT ${name}`)
    try {
      const result = await fn()
      db.exec(`RELEASE ${name}`)
      return result
    } catch (error) {
      db.exec(`ROLLBACK TO ${name}`)
      db.exec(`RELEASE ${name}`)
      throw error
    } finally {
      this.depth--
    }
  }

  all<T>(sql: string, params?: readonly SqlParam[]): T[] {
    return this.ex.all<T>(sql, params)
  }

  get<T>(sql: string, params?: readonly SqlParam[]): T | undefined {
    return this.ex.get<T>(sql, params)
  }

  bytesRow(sql: string, params?: readonly SqlParam[]): BytesRow | undefined {
    return this.ex.bytesRow(sql, params)
  }

  private _begin(): void {
    if (this.began) return
    if (this.stopped) throw this.stopped
    this.ex.db.exec('BEGIN IMMEDIATE')
    this.began = true
  }
}

function _configure(db: BetterSqlite3.Database, onDisk: boolean, walCapBytes = 0): void {
  if (onDisk) {
    db.pragma('journal_mode = WAL')
    // Commits write the WAL without an fsync; WalSync flushes it before a write is acknowledged.
    db.pragma('synchronous = NORMAL')
    // Checkpoints are the Checkpointer's, off this thread.
    db.pragma('wal_autocheckpoint = 0')
    // A WAL that grew during a burst is cut back to the size writers wait at (see _afterCommit) when it restarts.
    db.pragma(`journal_size_limit = ${walCapBytes}`)
    // The checkpointer's connection may hold the write lock for a moment.
    db.pragma('busy_timeout = 5000')
  }
  db.pragma('foreign_keys = ON')
  // 16 MiB of page cache: enough for the hot b-tree pages; the OS caches the rest of the file.
  db.pragma('cache_size = -16384')
}

/** A full disk at commit is the client's 507; other I/O failures a 503 (the transaction rolled back: nothing was acknowledged). */
function _storageError(error: unknown): unknown {
  const code = String((error as { code?: unknown })?.code ?? '')
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') {
    return new ComplibError('INSUFFICIENT_STORAGE', 'the data folder is full; the write was not saved', { cause: error })
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') {
    return new ComplibError('SERVICE_UNAVAILABLE', 'the write could not be made durable', { cause: error })
  }
  return error
}

/** An I/O error in a few words: its code and message. */
function _describe(error: unknown): string {
  const code = (error as { code?: unknown })?.code
  const message = error instanceof Error ? error.message : String(error)
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message
}

function _openError(error: unknown, dir: string): unknown {
  const code = String((error as { code?: unknown })?.code ?? '')
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new Error(`[storage] ${join(dir, DATABASE_FILE)} is not a readable SQLite database (${(error as Error).message}); restore it from a backup (nothing was changed)`, { cause: error })
  }
  return error
}
