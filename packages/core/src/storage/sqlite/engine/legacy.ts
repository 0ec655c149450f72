import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import type BetterSqlite3 from 'better-sqlite3'
import type { SqlParam } from '../../_internal/sql-executor'
import { SqliteExecutor } from './executor'
import { openSqlite } from './driver'

/** The files of the sql.js release: a snapshot of the database, its checksum, and journals of the writes since. */
const SNAPSHOT = 'complib.sqlite'
const JOURNAL = /^journal-(\d{8})\.log$/
/** Where those files are kept after the conversion, until the user deletes them. */
export const LEGACY_FOLDER = 'sqljs-release-files'

/**
 * Converts a data folder written by the sql.js release (before 1.0.0-beta.5)
 * into one SQLite file: the snapshot is already a SQLite database, so it is
 * copied, and every journal record newer than the snapshot (acknowledged
 * writes) is replayed into the copy, one transaction per record, as the old
 * engine did at start-up. The copy becomes `file` by an atomic rename only
 * once it is whole and on the disk; the old files then move into
 * `sqljs-release-files/`, kept until the user deletes them. A folder without
 * a snapshot is left alone (a new library).
 */
export function convertLegacyFolder(dir: string, file: string, log?: (message: string) => void): void {
  const snapshot = join(dir, SNAPSHOT)
  const journals = readdirSync(dir)
    .filter((name) => JOURNAL.test(name))
    .sort()
  if (!existsSync(snapshot)) {
    if (journals.length > 0) throw new Error(`[storage] ${snapshot} is missing but journal files are present in ${dir}; restore the snapshot from a backup (nothing was changed)`)
    return
  }
  const started = performance.now()
  const tmp = `${file}.converting`
  rmSync(tmp, { force: true })
  copyFileSync(snapshot, tmp)
  let replayed = 0
  let seq = 0
  const db = openSqlite(tmp)
  try {
    _checkSnapshot(db, snapshot)
    const ex = new SqliteExecutor(db)
    seq = Number(ex.get<{ value: string }>(`SELECT value FROM meta WHERE key = 'journal_seq'`)?.value ?? 0)
    for (const [i, name] of journals.entries()) {
      const { records, torn } = _readJournal(join(dir, name))
      for (const record of records) {
        if (record.seq <= seq) continue
        if (record.seq !== seq + 1) throw new Error(`[storage] ${name}: record ${record.seq} follows ${seq}; a journal file is missing (nothing was changed)`)
        db.transaction(() => {
          for (const [sql, params] of record.statements) ex.run(sql, params)
        })()
        seq = record.seq
        replayed++
      }
      // A torn tail is a write cut short by a crash: it was never acknowledged. Anywhere else it is damage.
      if (torn && i < journals.length - 1) throw new Error(`[storage] ${name} is corrupt and newer journal files follow it; refusing to skip records (nothing was changed)`)
    }
    ex.run(`INSERT OR REPLACE INTO meta (key, value) VALUES ('journal_seq', ?)`, [String(seq)])
  } catch (error) {
    db.close()
    rmSync(tmp, { force: true })
    throw error
  }
  db.close()
  _fsync(tmp)
  renameSync(tmp, file)
  const aside = join(dir, LEGACY_FOLDER)
  mkdirSync(aside, { recursive: true })
  for (const name of [SNAPSHOT, `${SNAPSHOT}.sum`, ...journals]) {
    if (existsSync(join(dir, name))) renameSync(join(dir, name), join(aside, name))
  }
  _fsync(dir)
  log?.(
    `[storage] converted the sql.js library in ${dir} to ${file} (snapshot plus ${replayed} journaled writes, up to seq ${seq}, in ${Math.round(performance.now() - started)} ms); ` +
      `the old files are kept in ${aside}: delete that folder once you are satisfied`,
  )
}

function _checkSnapshot(db: BetterSqlite3.Database, path: string): void {
  const sumPath = `${path}.sum`
  const bytes = readFileSync(path)
  const trusted = existsSync(sumPath) && readFileSync(sumPath, 'utf8') === `${bytes.length} ${crc32(bytes).toString(16).padStart(8, '0')}\n`
  if (trusted) return
  const check = (db.pragma('quick_check') as Array<{ quick_check: string }>)[0]?.quick_check
  if (check !== 'ok') throw new Error(`[storage] ${path} is corrupt (${check}); restore it from a backup (nothing was changed)`)
}

interface _Record {
  seq: number
  statements: Array<[string, SqlParam[]]>
}

/**
 * The valid records of a journal file of the sql.js release: each is a
 * 16-byte header (u32 payload length, u32 CRC-32 of seq and payload, u64 seq)
 * and a JSON payload of `[sql, params]` pairs, byte parameters as `{"$b64": …}`.
 * Reading stops at a record cut short or failing its checksum (`torn`).
 */
function _readJournal(path: string): { records: _Record[]; torn: boolean } {
  const data = readFileSync(path)
  const records: _Record[] = []
  let offset = 0
  while (offset + HEADER <= data.length) {
    const length = data.readUInt32LE(offset)
    const end = offset + HEADER + length
    if (end > data.length || crc32(data.subarray(offset + 8, end)) !== data.readUInt32LE(offset + 4)) break
    let statements: Array<[string, SqlParam[]]>
    try {
      statements = JSON.parse(data.subarray(offset + HEADER, end).toString('utf8')) as Array<[string, SqlParam[]]>
    } catch {
      break
    }
    for (const [, params] of statements) {
      for (let i = 0; i < params.length; i++) {
        const p = params[i] as unknown
        if (p && typeof p === 'object' && typeof (p as { $b64?: unknown }).$b64 === 'string') params[i] = Buffer.from((p as { $b64: string }).$b64, 'base64')
      }
    }
    records.push({ seq: Number(data.readBigUInt64LE(offset + 8)), statements })
    offset = end
  }
  return { records, torn: offset < data.length }
}

const HEADER = 16

function _fsync(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
