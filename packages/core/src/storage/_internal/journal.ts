import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, ftruncateSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import type { JournaledStatement, SqlParam } from './sql-executor'

/**
 * Append-only journal of committed transactions.
 *
 * A record is a 16-byte header and a JSON payload:
 *   u32 payload length | u32 CRC-32 of (seq bytes + payload) | u64 seq | payload
 * `seq` increases by one per transaction across all journal files. Files are
 * `journal-<generation>.log`; a snapshot starts a new generation, and files
 * of older generations are deleted once the snapshot is durable.
 *
 * Commits are grouped: every record appended while a write+fsync is in flight
 * goes out together in the next one, so many concurrent writers share one fsync.
 */
export class Journal {
  private handle: FileHandle | null = null
  private pending: Array<{ bytes: Buffer; resolve: () => void; reject: (e: unknown) => void }> = []
  private flushing: Promise<void> | null = null
  /** Bytes of the current file that are known to be durable. */
  private durableSize = 0
  bytesSinceRotation = 0
  /** Set by a failed write: appends are refused until the owner reloaded and called reset(). */
  private broken: unknown = null

  private constructor(
    private readonly dir: string,
    public generation: number,
    private readonly fsync: boolean,
  ) {}

  /** Opens (creating if needed) the journal file of `generation` for appending at `size`. */
  static async open(dir: string, generation: number, size: number, fsync: boolean): Promise<Journal> {
    const journal = new Journal(dir, generation, fsync)
    await journal._openFile(size)
    return journal
  }

  /** Appends one committed transaction; resolves once it is on disk. */
  append(seq: number, statements: JournaledStatement[]): Promise<void> {
    if (this.broken) return Promise.reject(this.broken)
    const bytes = encodeRecord(seq, statements)
    this.bytesSinceRotation += bytes.length
    return new Promise((resolve, reject) => {
      this.pending.push({ bytes, resolve, reject })
      if (!this.flushing) this.flushing = this._flushLoop()
    })
  }

  /** Waits until everything appended so far is durable (or failed). */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing.catch(() => {})
  }

  /** Starts a new generation: later appends go to a new file. Call after drain(). */
  async rotate(): Promise<number> {
    await this.drain()
    await this.handle?.close()
    this.generation += 1
    this.bytesSinceRotation = 0
    await this._openFile(0)
    _fsyncDir(this.dir, this.fsync)
    return this.generation
  }

  /** Accepts appends again, after a failure, once the database was reloaded from disk. */
  reset(): void {
    this.broken = null
  }

  async close(): Promise<void> {
    await this.drain()
    await this.handle?.close()
    this.handle = null
  }

  private async _openFile(size: number): Promise<void> {
    const path = journalPath(this.dir, this.generation)
    // 'a' would ignore positioned writes on Linux; open read-write and write at our own offset.
    this.handle = await open(path, size === 0 ? 'w' : 'r+')
    if (size > 0) await this.handle.truncate(size)
    this.durableSize = size
  }

  private async _flushLoop(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const group = this.pending
        this.pending = []
        const buffer = group.length === 1 ? group[0]!.bytes : Buffer.concat(group.map((g) => g.bytes))
        try {
          const handle = this.handle
          if (!handle) throw new Error('[storage] journal is closed')
          let written = 0
          while (written < buffer.length) {
            const { bytesWritten } = await handle.write(buffer, written, buffer.length - written, this.durableSize + written)
            written += bytesWritten
          }
          if (this.fsync) await handle.datasync()
          this.durableSize += buffer.length
        } catch (error) {
          // Whatever reached the file past durableSize is not acknowledged: cut it off,
          // and fail this group and everything queued behind it (it may depend on it).
          this.broken = error
          const rest = this.pending
          this.pending = []
          await this.handle?.truncate(this.durableSize).catch(() => {})
          for (const g of [...group, ...rest]) g.reject(error)
          continue
        }
        for (const g of group) g.resolve()
      }
    } finally {
      this.flushing = null
    }
  }
}

export function journalPath(dir: string, generation: number): string {
  return join(dir, `journal-${String(generation).padStart(8, '0')}.log`)
}

/** Journal generations present in `dir`, oldest first. */
export function listJournalGenerations(dir: string): number[] {
  return readdirSync(dir)
    .map((name) => /^journal-(\d{8})\.log$/.exec(name)?.[1])
    .filter((g): g is string => g !== undefined)
    .map(Number)
    .sort((a, b) => a - b)
}

export interface ReadRecord {
  seq: number
  statements: JournaledStatement[]
}

export interface ReadResult {
  records: ReadRecord[]
  /** Bytes of whole, valid records. */
  validSize: number
  /** Bytes after the last valid record (a torn or corrupt tail); they are not replayed. */
  discarded: number
}

/**
 * Reads the valid prefix of a journal file. Reading stops at the first record
 * that is cut short, fails its checksum, or breaks the sequence.
 */
export function readJournal(path: string, expectSeq?: number): ReadResult {
  const data = readFileSync(path)
  const records: ReadRecord[] = []
  let offset = 0
  let next = expectSeq
  while (offset + HEADER <= data.length) {
    const length = data.readUInt32LE(offset)
    const checksum = data.readUInt32LE(offset + 4)
    const end = offset + HEADER + length
    if (end > data.length) break
    if (crc32(data.subarray(offset + 8, end)) !== checksum) break
    const seq = Number(data.readBigUInt64LE(offset + 8))
    if (next !== undefined && seq !== next) break
    let statements: JournaledStatement[]
    try {
      statements = _reviveBytes(JSON.parse(data.subarray(offset + HEADER, end).toString('utf8')) as JournaledStatement[])
    } catch {
      break
    }
    records.push({ seq, statements })
    next = seq + 1
    offset = end
  }
  return { records, validSize: offset, discarded: data.length - offset }
}

/** Cuts a journal file back to `size` bytes (drops a torn tail), durably. */
export function truncateJournal(path: string, size: number): void {
  const fd = openSync(path, 'r+')
  try {
    ftruncateSync(fd, size)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

export function encodeRecord(seq: number, statements: JournaledStatement[]): Buffer {
  const payload = Buffer.from(JSON.stringify(_replaceBytes(statements)), 'utf8')
  const record = Buffer.allocUnsafe(HEADER + payload.length)
  record.writeUInt32LE(payload.length, 0)
  record.writeBigUInt64LE(BigInt(seq), 8)
  payload.copy(record, HEADER)
  record.writeUInt32LE(crc32(record.subarray(8)), 4)
  return record
}

const HEADER = 16

function _fsyncDir(dir: string, fsync: boolean): void {
  if (!fsync) return
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
export { _fsyncDir as fsyncDir }

// Uint8Array parameters (attachment bodies, batch bytes) travel as {"$b64": "…"}.
// Mapped before JSON.stringify rather than with a replacer: a replacer takes
// every record off V8's fast path, and a Buffer's toJSON would first expand
// its bytes into an array of numbers.
function _replaceBytes(statements: JournaledStatement[]): unknown[] {
  return statements.map((s) => (s[1].some(_isBytes) ? [s[0], s[1].map((p) => (_isBytes(p) ? { $b64: Buffer.from(p.buffer, p.byteOffset, p.byteLength).toString('base64') } : p))] : s))
}
function _reviveBytes(statements: JournaledStatement[]): JournaledStatement[] {
  for (const s of statements) {
    const params = s[1] as unknown[]
    for (let i = 0; i < params.length; i++) {
      const p = params[i]
      if (p && typeof p === 'object' && typeof (p as { $b64?: unknown }).$b64 === 'string') params[i] = new Uint8Array(Buffer.from((p as { $b64: string }).$b64, 'base64'))
    }
  }
  return statements
}
function _isBytes(p: SqlParam): p is Uint8Array {
  return p instanceof Uint8Array
}
