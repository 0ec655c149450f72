import { Worker } from 'node:worker_threads'
import { sqliteDriver } from './driver'

/** How long a closing worker may take to finish before it is terminated. */
const CLOSE_GRACE_MS = 15_000

/**
 * Checkpoints the WAL on a worker thread with a connection of its own, so the
 * server's thread never copies pages into the database file or waits for its
 * fsync (SQLite's automatic checkpoint would do both inside a commit). A
 * PASSIVE checkpoint runs beside readers and writers; once it has copied
 * every frame, the next commit starts the WAL from its beginning again.
 */
export class Checkpointer {
  private readonly worker: Worker
  private readonly exited: Promise<void>
  private running: Promise<CheckpointResult> | null = null
  private nextId = 0
  private readonly waiting = new Map<number, { resolve: (r: CheckpointResult) => void; reject: (e: unknown) => void }>()

  constructor(file: string) {
    const module = sqliteDriver().modulePath
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, file } })
    this.worker.unref()
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()))
    this.worker.on('message', (message: { id: number; result?: CheckpointResult; error?: string }) => {
      const waiter = this.waiting.get(message.id)
      this.waiting.delete(message.id)
      if (message.error !== undefined) waiter?.reject(new Error(`[storage] checkpoint failed: ${message.error}`))
      else waiter?.resolve(message.result!)
    })
    this.worker.on('error', (error) => {
      for (const waiter of this.waiting.values()) waiter.reject(error)
      this.waiting.clear()
    })
  }

  /** Runs one checkpoint (or joins the one in flight). */
  checkpoint(mode: 'PASSIVE' | 'TRUNCATE' = 'PASSIVE'): Promise<CheckpointResult> {
    this.running ??= new Promise<CheckpointResult>((resolve, reject) => {
      const id = this.nextId++
      this.waiting.set(id, { resolve, reject })
      this.worker.postMessage({ id, mode })
    }).finally(() => {
      this.running = null
    })
    return this.running
  }

  /**
   * Asks the worker to close its connection and end, and waits until it has.
   * It is not terminated: with better-sqlite3 13 on Node 24, terminating a
   * thread inside the addon (loading it, opening the file, a pragma) aborts
   * the whole process (`FATAL ERROR: Error::New napi_get_last_error_info`).
   * The request is queued behind the worker's start and any checkpoint, so it
   * runs between native calls. Only a worker still busy after
   * CLOSE_GRACE_MS is terminated. The worker is held referenced meanwhile, so
   * the process does not exit (and end it mid-call) while it closes.
   */
  async close(): Promise<void> {
    await this.running?.catch(() => {})
    this.worker.ref()
    this.worker.postMessage({ close: true })
    const timer = setTimeout(() => void this.worker.terminate(), CLOSE_GRACE_MS)
    await this.exited
    clearTimeout(timer)
  }
}

export interface CheckpointResult {
  /** Frames in the WAL, and how many of them are now in the database file. */
  walFrames: number
  checkpointed: number
  /** Time the checkpoint took on the worker. */
  ms: number
}

const WORKER_SOURCE = /* js */ `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.module)
const db = new Database(workerData.file, { fileMustExist: true })
db.pragma('busy_timeout = 5000')
parentPort.on('message', ({ id, mode, close }) => {
  if (close) {
    db.close()
    parentPort.close()
    return
  }
  try {
    const started = performance.now()
    const [row] = db.pragma('wal_checkpoint(' + mode + ')')
    parentPort.postMessage({ id, result: { walFrames: row.log, checkpointed: row.checkpointed, ms: performance.now() - started } })
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) })
  }
})
`
