import { closeSync, fdatasync, fstatSync, openSync } from 'node:fs'

/** Flushes a file descriptor's data to the disk, as `fs.fdatasync` does (tests inject failures). */
export type FlushFile = (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => void

/**
 * Group commit for the write-ahead log. SQLite runs with `synchronous=NORMAL`:
 * a commit appends its frames to the WAL file (a write(2), into the page
 * cache) and returns without an fsync, so the event loop is never held for a
 * disk flush. Before a write is acknowledged, `sync()` flushes the WAL to the
 * disk with an `fdatasync` on a thread of libuv's pool; every commit made while
 * one flush is in flight shares the next one, so sixteen concurrent writers
 * cost one or two flushes, not sixteen.
 *
 * Why this is durable (core README, "Durability"): fsync applies to the file,
 * whichever descriptor wrote it, so a flush that starts after a commit
 * returned covers that commit's frames; SQLite only truncates or rewrites the
 * WAL at a checkpoint, which copies the frames into the database file and
 * fsyncs it first; and a frame is valid after a crash only if its checksum
 * chain is whole, so a torn tail is ignored, never half applied.
 *
 * A failed flush is final (decision 0207): after an `fdatasync` error the
 * kernel may have dropped the dirty pages and marked them clean, so a later
 * flush that succeeds proves nothing about them. Every later `sync()` rejects
 * with the first failure; only reopening the file (a restart) starts over.
 */
export class WalSync {
  private fd: number | null
  /** The flush in flight, and whether commits arrived after it started. */
  private flushing: Promise<void> | null = null
  private queued: Promise<void> | null = null
  /** The first flush that failed; set, every later sync fails with it. */
  private failure: Error | null = null

  constructor(
    walPath: string,
    private readonly flushFile: FlushFile = fdatasync,
  ) {
    this.fd = openSync(walPath, 'r')
  }

  /** Resolves once every commit made before this call is on the disk. */
  sync(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure)
    if (!this.flushing) {
      this.flushing = this._flush().finally(() => {
        this.flushing = null
      })
      return this.flushing
    }
    // A flush is in flight and may have started before this commit: wait for the next one.
    this.queued ??= this.flushing
      .catch(() => {})
      .then(() => {
        this.queued = null
        return this.sync()
      })
    return this.queued
  }

  /** Bytes the WAL file takes now: its high-water mark (SQLite reuses it from the start after a restart). */
  size(): number {
    return this.fd === null ? 0 : fstatSync(this.fd).size
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd)
    this.fd = null
  }

  private _flush(): Promise<void> {
    const fd = this.fd
    if (fd === null) return Promise.reject(new Error('[storage] the database is closed'))
    return new Promise((resolve, reject) =>
      this.flushFile(fd, (error) => {
        if (!error) return resolve()
        this.failure ??= error
        reject(error)
      }),
    )
  }
}
