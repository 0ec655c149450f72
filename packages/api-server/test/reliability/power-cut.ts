import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'

/**
 * The other half of fixtures/power-cut.c: reads the log of a process killed
 * with -9 and takes back from its files what no completed flush covered, as a
 * power cut would (decision 0208).
 */

type Record =
  | { type: 'W'; seq: number; path: string; offset: number; length: number; sizeBefore: number; old: Buffer; data: Buffer }
  | { type: 'T'; seq: number; path: string; size: number; sizeBefore: number; tail: Buffer }
  | { type: 'B' | 'D'; seq: number; path: string; id: number }

/** What a cut does with the writes no flush covered: drop them all, or keep a random subset of their 512-byte sectors. */
export type CutMode = 'drop' | 'tear'

export interface CutReport {
  /** Writes (and truncates) no completed flush covered, over every file. */
  unflushed: number
  /** Bytes of theirs the cut took back. */
  bytesLost: number
}

/** Parses the recorder's log. */
export function readCutLog(file: string): Record[] {
  if (!existsSync(file)) return []
  const buf = readFileSync(file)
  const out: Record[] = []
  let at = 0
  const u64 = () => {
    const v = Number(buf.readBigUInt64LE(at))
    at += 8
    return v
  }
  const bytes = () => {
    const len = u64()
    const b = buf.subarray(at, at + len)
    at += len
    return b
  }
  for (let seq = 0; at < buf.length; seq++) {
    // The kill may have cut the last record short: what it describes was then not done either.
    if (!_whole(buf, at)) break
    const type = String.fromCharCode(buf[at]!)
    const plen = buf.readUInt32LE(at + 1)
    const path = buf.toString('utf8', at + 5, at + 5 + plen)
    at += 5 + plen
    const [a, b, c] = [u64(), u64(), u64()]
    const x = bytes()
    const y = bytes()
    if (type === 'W') out.push({ type, seq, path, offset: a, length: b, sizeBefore: c, old: x, data: y })
    else if (type === 'T') out.push({ type, seq, path, size: a, sizeBefore: b, tail: x })
    else if (type === 'B' || type === 'D') out.push({ type, seq, path, id: a })
    else throw new Error(`power-cut log ${file}: unknown record "${type}" at byte ${at}`)
  }
  return out
}

/**
 * Applies a power cut to the files the log names: every write or truncate
 * that no completed flush of its file began after is taken back (in reverse
 * order, to the bytes and size the file had), then, in `tear` mode, a random
 * subset of their sectors is written again in order, as a disk that wrote
 * some of them before the power went would. Removes SQLite's -shm index, which
 * a power cut leaves stale (SQLite rebuilds it).
 */
export function applyPowerCut(log: Record[], mode: CutMode, random: () => number): CutReport {
  const report: CutReport = { unflushed: 0, bytesLost: 0 }
  const paths = new Set(log.map((r) => r.path))
  for (const path of paths) {
    const records = log.filter((r) => r.path === path)
    const done = new Set(records.filter((r) => r.type === 'D').map((r) => (r as { id: number }).id))
    let flushedThrough = -1
    for (const r of records) if (r.type === 'B' && done.has(r.id)) flushedThrough = Math.max(flushedThrough, r.seq)
    const lost = records.filter((r) => (r.type === 'W' || r.type === 'T') && r.seq > flushedThrough) as Array<Extract<Record, { type: 'W' | 'T' }>>
    if (!lost.length || !existsSync(path)) continue
    report.unflushed += lost.length
    const fd = openSync(path, 'r+')
    try {
      for (const r of [...lost].reverse()) {
        if (r.type === 'W') {
          if (r.old.length) writeSync(fd, r.old, 0, r.old.length, r.offset)
          if (fstatSync(fd).size > r.sizeBefore) ftruncateSync(fd, r.sizeBefore)
        } else if (r.sizeBefore > r.size) {
          writeSync(fd, r.tail, 0, r.tail.length, r.size)
        } else {
          ftruncateSync(fd, r.sizeBefore)
        }
      }
      for (const r of lost) {
        if (r.type === 'T') {
          if (mode === 'tear' && random() < 0.5) ftruncateSync(fd, r.size)
          continue
        }
        for (let s = 0; s < r.length; s += SECTOR) {
          const end = Math.min(r.length, s + SECTOR)
          if (mode === 'tear' && random() < 0.5) writeSync(fd, r.data, s, end - s, r.offset + s)
          else report.bytesLost += end - s
        }
      }
    } finally {
      closeSync(fd)
    }
  }
  for (const path of paths) {
    const db = path.endsWith('-wal') ? path.slice(0, -'-wal'.length) : path
    rmSync(`${db}-shm`, { force: true })
  }
  return report
}

const SECTOR = 512

/** Whether the record at `at` is all there. */
function _whole(buf: Buffer, at: number): boolean {
  if (at + 5 > buf.length) return false
  let end = at + 5 + buf.readUInt32LE(at + 1) + 24
  for (let i = 0; i < 2; i++) {
    if (end + 8 > buf.length) return false
    end += 8 + Number(buf.readBigUInt64LE(end))
  }
  return end <= buf.length
}
