import { Worker } from 'node:worker_threads'
import { sqliteDriver } from './driver'

/**
 * Checkpoints the WAL on a worker thread with a connection of its own, so the
 * server's thread never copies pages into the database file or waits for its
 * fsync (SQLite's automatic checkpoint would do both inside a commit). A
 * PASSIVE checkpoint runs beside readers and writers; once it has copied
 * every frame, the next commit starts the WAL from its beginning again.
 */
export class Checkpointer {
  private readonly worker: Worker
  private running: Promise<CheckpointResult> | null = null
  private nextId = 0
  private readonly waiting = new Map<number, { resolve: (r: CheckpointResult) => void; reject: (e: unknown) => void }>()

  constructor(file: string) {
    const module = sqliteDriver().modulePath
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, file } })
    this.worker.unref()
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

  async close(): Promise<void> {
    await this.running?.catch(() => {})
    await this.worker.terminate()
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
parentPort.on('message', ({ id, mode }) => {
  try {
    const started = performance.now()
    const [row] = db.pragma('wal_checkpoint(' + mode + ')')
    parentPort.postMessage({ id, result: { walFrames: row.log, checkpointed: row.checkpointed, ms: performance.now() - started } })
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) })
  }
})
`
