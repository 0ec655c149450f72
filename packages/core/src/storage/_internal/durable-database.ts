import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import { open, rename, rm } from 'node:fs/promises'
import type { Database, SqlJsStatic } from 'sql.js'
import { ComplibError } from '../../errors'
import { fsyncDir, Journal, journalPath, listJournalGenerations, readJournal, truncateJournal } from './journal'
import { Mutex } from './mutex'
import { StatementCache, type BytesRow, type JournaledStatement, type JsonArrayRows, type SqlExecutor, type SqlParam } from './sql-executor'
import { ByteStatements, loadSqlEngine, type SqlEngine } from './sqlite-bytes'

export interface DurableDatabaseOptions {
  /** Folder of the snapshot and journal files. Omit for a database that lives in memory only (tests). */
  dir?: string | undefined
  /**
   * Creates or migrates the schema, after the journal is replayed; returns
   * whether it changed anything (a snapshot then records the new schema).
   */
  migrate: (ex: SqlExecutor) => boolean
  /** Take a snapshot once the journal has grown this much (default 32 MiB). */
  snapshotAfterBytes?: number | undefined
  /** fsync journal and snapshot (default true). Only benchmarks of the non-durable path turn this off. */
  fsync?: boolean | undefined
  /** Called with messages worth a log line (torn tail dropped, snapshot taken). */
  log?: ((message: string) => void) | undefined
}

const SNAPSHOT = 'complib.sqlite'
const SNAPSHOT_SUM = 'complib.sqlite.sum'
const LOCK = 'complib.lock'

/** sql.js, loaded once per process (see sqlite-bytes.ts). */
let engine: SqlEngine | undefined

/**
 * One sql.js database made durable by a journal of committed transactions and
 * periodic snapshots (see the core README, "Durability").
 *
 * Everything goes through `run(fn)`: `fn` gets an executor; its first write
 * opens a transaction, whose statements are journaled at commit, and `run`
 * resolves only after that record is fsync'd. Reads never touch the disk.
 */
export class DurableDatabase {
  private readonly mutex = new Mutex()
  private journal: Journal | null = null
  private seq = 0
  private snapshotSeq = 0
  private snapshotting: Promise<void> | null = null
  private closed = false
  private lockFd: number | null = null
  private needsSnapshot = false
  private recovering: Promise<void> | null = null

  private constructor(
    private db: Database,
    private cache: StatementCache,
    private readonly options: DurableDatabaseOptions,
  ) {}

  /** Opens (or creates) the database in `options.dir`. */
  static async open(options: DurableDatabaseOptions): Promise<DurableDatabase> {
    engine ??= await loadSqlEngine()
    const SQL = engine.SQL
    const dir = options.dir
    if (!dir) {
      const db = new SQL.Database()
      const self = new DurableDatabase(db, new StatementCache(db), options)
      self._configure()
      self._inTransaction(() => void options.migrate(self.cache))
      return self
    }
    mkdirSync(dir, { recursive: true })
    const lockFd = _takeLock(dir)
    try {
      const self = DurableDatabase._load(SQL, dir, options)
      self.lockFd = lockFd
      const generations = listJournalGenerations(dir)
      const generation = generations.at(-1) ?? 1
      const size = generations.length ? readJournal(journalPath(dir, generation)).validSize : 0
      self.journal = await Journal.open(dir, generation, size, options.fsync ?? true)
      if (self.needsSnapshot) await self._snapshot(true)
      return self
    } catch (error) {
      closeSync(lockFd)
      rmSync(join(dir, LOCK), { force: true })
      throw error
    }
  }

  /**
   * Runs `fn` with exclusive access. Its writes commit atomically (a throw
   * rolls them all back) and are durable when the returned promise resolves.
   */
  async run<T>(fn: (ex: AtomicExecutor) => T | Promise<T>): Promise<T> {
    const wait = this.mutex.acquire()
    if (wait) await wait
    let result: T
    let statements: JournaledStatement[] | null = null
    let seq = 0
    try {
      if (this.closed) throw new ComplibError('SERVICE_UNAVAILABLE', 'the storage is closed')
      const recorder = new _Recorder(this.cache, this.db)
      try {
        result = await fn(recorder)
      } catch (error) {
        if (recorder.began) this.db.run('ROLLBACK')
        throw error
      }
      if (recorder.began) {
        this.db.run('COMMIT')
        if (recorder.statements.length > 0) {
          statements = recorder.statements
          seq = ++this.seq
        }
      }
    } finally {
      this.mutex.release()
    }
    if (statements && this.journal) {
      try {
        await this.journal.append(seq, statements)
      } catch (error) {
        await this._recover(error)
        throw _storageError(error)
      }
      if (this.journal.bytesSinceRotation >= (this.options.snapshotAfterBytes ?? 32 * 1024 * 1024)) {
        void this.snapshot().catch((e) => this.options.log?.(`[storage] snapshot failed: ${String(e)}`))
      }
    }
    return result
  }

  /**
   * Writes the whole database to the snapshot file (temporary file, fsync,
   * atomic rename) and drops the journal files it makes redundant.
   */
  snapshot(): Promise<void> {
    this.snapshotting ??= this._snapshot().finally(() => {
      this.snapshotting = null
    })
    return this.snapshotting
  }

  /** Takes a last snapshot, closes the journal and releases the data folder. */
  async close(): Promise<void> {
    if (this.closed) return
    if (this.options.dir && this.journal) {
      // A snapshot in flight covers only the writes before it: wait for it, then take the last one.
      await this.snapshotting?.catch(() => {})
      // The journal holds every write: a last snapshot that fails (a full disk) only means the
      // next start replays more, so the stop goes on and releases the folder.
      await this.snapshot().catch((error) => this.options.log?.(`[storage] last snapshot skipped (${String(error)}); the journal keeps every write`))
    }
    const wait = this.mutex.acquire()
    if (wait) await wait
    this.closed = true
    this.mutex.release()
    await this.journal?.close()
    this.cache.clear(true)
    this.db.close()
    if (this.lockFd !== null && this.options.dir) {
      closeSync(this.lockFd)
      rmSync(join(this.options.dir, LOCK), { force: true })
    }
  }

  /** The database file as bytes (a consistent copy, e.g. for a backup download). */
  async exportBytes(): Promise<Uint8Array> {
    const wait = this.mutex.acquire()
    if (wait) await wait
    try {
      return this._export()
    } finally {
      this.mutex.release()
    }
  }

  /**
   * A consistent copy of the database file with `statements` applied to the
   * copy only (the live database is untouched), e.g. to leave secrets out of
   * a backup. The copy is vacuumed, so what the statements overwrote does not
   * linger in free pages of the file. It is made in a sql.js instance of its
   * own: WebAssembly memory never shrinks, and a copy (plus VACUUM's scratch)
   * in the shared instance would keep twice the library's size resident for good.
   */
  async exportCopy(statements: readonly string[]): Promise<Uint8Array> {
    const bytes = await this.exportBytes()
    const { SQL } = await loadSqlEngine()
    const copy = new SQL.Database(bytes)
    try {
      for (const sql of statements) copy.run(sql)
      copy.run('VACUUM')
      return copy.export()
    } finally {
      copy.close()
    }
  }

  private async _snapshot(force = false): Promise<void> {
    const dir = this.options.dir
    if (!dir || !this.journal) return
    const wait = this.mutex.acquire()
    if (wait) await wait
    let bytes: Uint8Array
    let oldGenerations: number[]
    const seq = this.seq
    try {
      if (!force && seq === this.snapshotSeq && this.journal.bytesSinceRotation === 0) return
      this.db.run(`INSERT OR REPLACE INTO meta (key, value) VALUES ('journal_seq', ?)`, [String(seq)])
      bytes = this._export()
      oldGenerations = listJournalGenerations(dir)
      await this.journal.rotate()
    } finally {
      this.mutex.release()
    }
    // Written asynchronously: a snapshot of a large library is hundreds of MB, and the
    // event loop keeps serving (and journaling) meanwhile.
    await _writeFileDurably(join(dir, SNAPSHOT), bytes, this.options.fsync ?? true)
    // Its checksum, so the next start can trust the file without reading every page (see _openSnapshot).
    await _writeFileDurably(join(dir, SNAPSHOT_SUM), new TextEncoder().encode(_checksum(bytes)), this.options.fsync ?? true)
    this.snapshotSeq = seq
    for (const generation of oldGenerations) rmSync(journalPath(dir, generation), { force: true })
    this.options.log?.(`[storage] snapshot at seq ${seq} (${(bytes.length / 1048576).toFixed(1)} MiB)`)
  }

  /** sql.js closes and reopens the database to export it: prepared statements and pragmas go. */
  private _export(): Uint8Array {
    this.cache.clear(true)
    const bytes = this.db.export()
    this._configure()
    return bytes
  }

  /**
   * A journal write failed (disk full, I/O error): the in-memory database holds
   * transactions that are not durable. Rebuild it from the files, so memory and
   * disk agree again and nothing unacknowledged stays visible.
   */
  private _recover(cause: unknown): Promise<void> {
    this.recovering ??= this._reload(cause).finally(() => {
      this.recovering = null
    })
    return this.recovering
  }

  private async _reload(cause: unknown): Promise<void> {
    const dir = this.options.dir
    if (!dir) return
    const wait = this.mutex.acquire()
    if (wait) await wait
    try {
      const { SQL } = await loadSqlEngine()
      await this.journal?.drain()
      const fresh = DurableDatabase._load(SQL, dir, this.options)
      this.cache.clear(true)
      this.db.close()
      this.db = fresh.db
      this.cache = fresh.cache
      this.seq = fresh.seq
      this.snapshotSeq = fresh.snapshotSeq
      this.journal?.reset()
      this.options.log?.(`[storage] journal write failed (${String(cause)}); reloaded the last durable state at seq ${this.seq}`)
    } finally {
      this.mutex.release()
    }
  }

  private _configure(): void {
    this.cache = new StatementCache(this.db, engine ? ByteStatements.create(engine, this.db) : null)
    // The rollback journal only has to support ROLLBACK; durability is ours.
    this.db.run('PRAGMA journal_mode = MEMORY')
    this.db.run('PRAGMA synchronous = OFF')
    this.db.run('PRAGMA foreign_keys = ON')
    // One connection owns the database: keeping the lock spares every statement
    // sqlite's hot-journal check (file-system lookups in sql.js's MEMFS).
    this.db.run('PRAGMA locking_mode = EXCLUSIVE')
  }

  private _inTransaction(fn: () => void): void {
    this.db.run('BEGIN')
    try {
      fn()
      this.db.run('COMMIT')
    } catch (error) {
      this.db.run('ROLLBACK')
      throw error
    }
  }

  private static _load(SQL: SqlJsStatic, dir: string, options: DurableDatabaseOptions): DurableDatabase {
    const snapshotPath = join(dir, SNAPSHOT)
    const generations = listJournalGenerations(dir)
    let db: Database
    if (existsSync(snapshotPath)) {
      db = _openSnapshot(SQL, snapshotPath, options.log)
    } else {
      if (generations.length > 0) {
        throw new Error(`[storage] ${snapshotPath} is missing but journal files are present in ${dir}; restore the snapshot from a backup (nothing was changed)`)
      }
      db = new SQL.Database()
    }
    const self = new DurableDatabase(db, new StatementCache(db), options)
    self._configure()
    const fresh = !existsSync(snapshotPath)
    if (!fresh) {
      const row = self.cache.get<{ value: string }>(`SELECT value FROM meta WHERE key = 'journal_seq'`)
      self.snapshotSeq = self.seq = row ? Number(row.value) : 0
      self._replay(dir, generations)
    }
    let changed = false
    self._inTransaction(() => {
      changed = options.migrate(self.cache)
    })
    self.needsSnapshot = fresh || changed
    return self
  }

  private _replay(dir: string, generations: number[]): void {
    for (const [i, generation] of generations.entries()) {
      const path = journalPath(dir, generation)
      const { records, validSize, discarded } = readJournal(path)
      for (const record of records) {
        if (record.seq <= this.seq) continue
        if (record.seq !== this.seq + 1) {
          throw new Error(`[storage] ${path}: record ${record.seq} follows ${this.seq}; a journal file is missing (nothing was changed)`)
        }
        try {
          this._inTransaction(() => {
            for (const [sql, params] of record.statements) this.cache.run(sql, params)
          })
        } catch (error) {
          throw new Error(`[storage] ${path}: record ${record.seq} failed to replay: ${String(error)}`, { cause: error })
        }
        this.seq = record.seq
      }
      if (discarded > 0) {
        if (i < generations.length - 1) {
          throw new Error(`[storage] ${path} is corrupt at byte ${validSize} and newer journal files follow it; refusing to skip records (nothing was changed)`)
        }
        // A torn tail: the crash happened mid-append, so that record was never acknowledged.
        truncateJournal(path, validSize)
        this.options.log?.(`[storage] ${path}: dropped a torn tail of ${discarded} bytes after record ${this.seq}`)
      }
    }
  }
}

/** An executor that can also run a step atomically inside the surrounding transaction. */
export interface AtomicExecutor extends SqlExecutor {
  /** Runs `fn` under a savepoint: if it throws, its writes (and their journal entries) are undone, the rest stays. */
  atomic<T>(fn: () => T): T
}

/** Records the write statements of one `run`, opening the transaction at the first one. */
class _Recorder implements AtomicExecutor {
  began = false
  readonly statements: JournaledStatement[] = []
  private depth = 0
  constructor(
    private readonly cache: StatementCache,
    private readonly db: Database,
  ) {}

  run(sql: string, params: readonly SqlParam[] = []): { changes: number } {
    if (!this.began) {
      this.db.run('BEGIN')
      this.began = true
    }
    const result = this.cache.run(sql, params)
    this.statements.push([sql, [...params]])
    return result
  }

  atomic<T>(fn: () => T): T {
    if (!this.began) {
      this.db.run('BEGIN')
      this.began = true
    }
    const name = `step${++this.depth}`
    const mark = this.statements.length
    this.db.run(`SAVEPOINT ${name}`)
    try {
      const result = fn()
      this.db.run(`RELEASE ${name}`)
      return result
    } catch (error) {
      this.db.run(`ROLLBACK TO ${name}`)
      this.db.run(`RELEASE ${name}`)
      this.statements.length = mark
      throw error
    } finally {
      this.depth--
    }
  }

  all<T>(sql: string, params?: readonly SqlParam[]): T[] {
    const rows = this.cache.all<T>(sql, params)
    this._assertRead(sql)
    return rows
  }

  get<T>(sql: string, params?: readonly SqlParam[]): T | undefined {
    const row = this.cache.get<T>(sql, params)
    this._assertRead(sql)
    return row
  }

  bytesRow(sql: string, params?: readonly SqlParam[]): BytesRow | undefined {
    const row = this.cache.bytesRow(sql, params)
    this._assertRead(sql)
    return row
  }

  jsonArray(sql: string, params: readonly SqlParam[], max: number): JsonArrayRows {
    const rows = this.cache.jsonArray(sql, params, max)
    this._assertRead(sql)
    return rows
  }

  private _assertRead(sql: string): void {
    // getRowsModified() counts the last statement only; a SELECT leaves it at 0.
    if (/^\s*(insert|update|delete|replace|create|drop|alter)\b/i.test(sql)) {
      throw new Error(`[storage] write through a read method would escape the journal: ${sql.slice(0, 80)}`)
    }
  }
}

/**
 * Opens the snapshot. A file whose length and CRC-32 match the checksum
 * written with it is whole; otherwise (no checksum yet, or a crash between
 * writing the two files) SQLite's quick_check reads every page: about 1.3 s
 * at 100,000 components, against 70 ms for the CRC.
 */
function _openSnapshot(SQL: SqlJsStatic, path: string, log?: (message: string) => void): Database {
  const bytes = readFileSync(path)
  const header = bytes.subarray(0, 16).toString('latin1')
  if (header !== 'SQLite format 3\u0000') {
    throw new Error(`[storage] ${path} is not a SQLite database (bad header); restore it from a backup (nothing was changed)`)
  }
  const sumPath = `${path}.sum`
  const trusted = existsSync(sumPath) && readFileSync(sumPath, 'utf8') === _checksum(bytes)
  let db: Database
  try {
    db = new SQL.Database(bytes)
    if (!trusted) {
      const started = performance.now()
      const check = db.exec('PRAGMA quick_check')[0]?.values[0]?.[0]
      if (check !== 'ok') throw new Error(String(check))
      log?.(`[storage] ${path} has no matching checksum; checked every page instead (${Math.round(performance.now() - started)} ms)`)
    }
  } catch (error) {
    throw new Error(`[storage] ${path} is corrupt (${String(error instanceof Error ? error.message : error)}); restore it from a backup (nothing was changed)`, { cause: error })
  }
  return db
}

/** `<length> <crc32>` of a snapshot's bytes, as its .sum file holds it. */
function _checksum(bytes: Uint8Array): string {
  return `${bytes.length} ${crc32(bytes).toString(16).padStart(8, '0')}\n`
}

async function _writeFileDurably(path: string, bytes: Uint8Array, fsync: boolean): Promise<void> {
  const tmp = `${path}.tmp`
  try {
    const handle = await open(tmp, 'w')
    try {
      await handle.writeFile(bytes)
      if (fsync) await handle.sync()
    } finally {
      await handle.close()
    }
  } catch (error) {
    // A partial snapshot would hold on to the space a full disk needs back.
    await rm(tmp, { force: true }).catch(() => {})
    throw error
  }
  await rename(tmp, path)
  fsyncDir(join(path, '..'), fsync)
}

/** One process per data folder: a second `complib serve` on it would corrupt the journal. */
function _takeLock(dir: string): number {
  const path = join(dir, LOCK)
  try {
    const fd = openSync(path, 'wx')
    writeSync(fd, String(process.pid))
    return fd
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const pid = Number(readFileSync(path, 'utf8').trim())
    if (pid && pid !== process.pid && _alive(pid)) {
      throw new Error(`[storage] the data folder ${dir} is in use by process ${pid}`)
    }
    // A stale lock left by a crash: take it over.
    rmSync(path, { force: true })
    return _takeLock(dir)
  }
}

function _alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function _storageError(error: unknown): ComplibError {
  const code = (error as NodeJS.ErrnoException)?.code
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new ComplibError('INSUFFICIENT_STORAGE', 'the data folder is full; the write was not saved', { cause: error })
  }
  return new ComplibError('SERVICE_UNAVAILABLE', 'the write could not be made durable and was not saved', { cause: error })
}
