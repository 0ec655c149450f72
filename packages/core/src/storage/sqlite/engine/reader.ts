import { Worker } from 'node:worker_threads'
import { ComplibError } from '../../../errors'
import { Mutex } from '../../_internal/mutex'
import type { BytesRow, SqlExecutor, SqlParam } from '../../_internal/sql-executor'
import { sqliteDialect } from '../dialect'
import { sqliteDriver } from './driver'
import { bindParams, compileSql } from './executor'

/** How long a closing worker may take to finish before it is terminated (as the Checkpointer's). */
const CLOSE_GRACE_MS = 15_000

/**
 * Runs reads on a worker thread with a connection of its own (WAL lets it
 * read beside the writer), so that a read whose cost grows with the library
 * (a filtered page, a suggestion) no longer holds the event loop that every
 * request shares (decision 0210). The store's code runs here as usual; only
 * its statements go to the worker, each call's inside one read transaction,
 * so they see one snapshot. One call at a time, in the order they came.
 */
export class Reader {
  private readonly worker: Worker
  private readonly exited: Promise<void>
  private readonly mutex = new Mutex()
  private readonly compiled = new Map<string, { sql: string; order: number[] | null }>()
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>()
  private nextId = 0
  private closed = false
  /** Calls run on the worker so far (tests). */
  calls = 0
  private failure: Error | null = null
  private readonly executor: SqlExecutor

  constructor(file: string) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module: sqliteDriver().modulePath, file } })
    this.worker.unref()
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()))
    this.worker.on('message', (message: { id: number; result?: unknown; error?: string; code?: string }) => {
      const waiter = this.waiting.get(message.id)
      this.waiting.delete(message.id)
      if (message.error === undefined) waiter?.resolve(message.result)
      else waiter?.reject(Object.assign(new Error(message.error), message.code ? { code: message.code } : {}))
    })
    this.worker.on('error', (error) => this._fail(error))
    this.worker.once('exit', () => this._fail(new Error('[storage] the reader thread ended')))
    this.executor = {
      dialect: sqliteDialect,
      run: () => {
        throw new Error('[storage] a read on the reader thread was handed a statement that writes')
      },
      all: async <T>(sql: string, params?: readonly SqlParam[]) => _buffers((await this._send('all', sql, params)) as T[]),
      get: async <T>(sql: string, params?: readonly SqlParam[]) => {
        const row = (await this._send('get', sql, params)) as T | undefined
        return row === undefined ? undefined : _buffers([row])[0]
      },
      bytesRow: async (sql: string, params?: readonly SqlParam[]) => (await this._send('bytesRow', sql, params)) as BytesRow | undefined,
    }
  }

  /** False once the worker failed or ended: the caller runs its reads on its own thread instead. */
  get usable(): boolean {
    return !this.failure && !this.closed
  }

  /** Runs `fn`'s statements on the worker, in one read transaction. */
  async run<T>(fn: (ex: SqlExecutor) => T | Promise<T>): Promise<T> {
    const wait = this.mutex.acquire()
    if (wait) await wait
    try {
      if (this.closed) throw new ComplibError('SERVICE_UNAVAILABLE', 'the storage is closed')
      this.calls++
      await this._call({ op: 'begin' })
      try {
        return await fn(this.executor)
      } finally {
        await this._call({ op: 'end' })
      }
    } finally {
      this.mutex.release()
    }
  }

  /** Closes the worker's connection and waits for the worker to end (see Checkpointer.close for why it is asked, not terminated). */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    const wait = this.mutex.acquire()
    if (wait) await wait
    this.worker.ref()
    this.worker.postMessage({ close: true })
    const timer = setTimeout(() => void this.worker.terminate(), CLOSE_GRACE_MS)
    await this.exited
    clearTimeout(timer)
    this.mutex.release()
  }

  private _send(op: 'all' | 'get' | 'bytesRow', given: string, params: readonly SqlParam[] = []): Promise<unknown> {
    let compiled = this.compiled.get(given)
    if (!compiled) {
      compiled = compileSql(given)
      this.compiled.set(given, compiled)
    }
    return this._call({ op, sql: compiled.sql, params: bindParams(params, compiled.order) })
  }

  private _call(message: { op: string; sql?: string; params?: unknown[] }): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure)
    return new Promise((resolve, reject) => {
      const id = this.nextId++
      this.waiting.set(id, { resolve, reject })
      this.worker.postMessage({ id, ...message })
    })
  }

  private _fail(error: Error): void {
    this.failure ??= error
    for (const waiter of this.waiting.values()) waiter.reject(error)
    this.waiting.clear()
  }
}

/** Blobs come back from the worker as Uint8Array: made Buffers again, as the connection on this thread answers them. */
function _buffers<T>(rows: T[]): T[] {
  for (const row of rows) {
    for (const [key, value] of Object.entries(row as Record<string, unknown>)) {
      if (value instanceof Uint8Array && !Buffer.isBuffer(value)) (row as Record<string, unknown>)[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    }
  }
  return rows
}

const WORKER_SOURCE = /* js */ `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.module)
const db = new Database(workerData.file, { fileMustExist: true })
db.pragma('busy_timeout = 5000')
db.pragma('cache_size = -16384')
// Nothing on this connection may write: the writer is the server thread's.
db.pragma('query_only = ON')
const statements = new Map()
const rawStatements = new Map()
function prepare(sql, raw) {
  const cache = raw ? rawStatements : statements
  let stmt = cache.get(sql)
  if (!stmt) {
    stmt = db.prepare(sql)
    if (!stmt.readonly) throw new Error('[storage] a read method was handed a statement that writes: ' + sql.slice(0, 80))
    if (raw) stmt.raw(true)
    cache.set(sql, stmt)
  }
  return stmt
}
function bind(params) {
  return (params || []).map((p) => (p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p))
}
parentPort.on('message', ({ id, op, sql, params, close }) => {
  if (close) {
    if (db.inTransaction) db.exec('COMMIT')
    db.close()
    parentPort.close()
    return
  }
  try {
    let result
    if (op === 'begin') result = void db.exec('BEGIN')
    else if (op === 'end') result = void (db.inTransaction && db.exec('COMMIT'))
    else if (op === 'all') result = prepare(sql, false).all(...bind(params))
    else if (op === 'get') result = prepare(sql, false).get(...bind(params))
    else if (op === 'bytesRow') {
      const row = prepare(sql, true).get(...bind(params))
      result = row && { bytes: row[0] == null ? null : row[0] instanceof Uint8Array ? row[0] : Buffer.from(String(row[0]), 'utf8'), numbers: row.slice(1).map(Number) }
    }
    parentPort.postMessage({ id, result })
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error), code: error && error.code })
  }
})
`
