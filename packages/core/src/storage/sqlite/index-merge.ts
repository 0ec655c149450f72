import type { SqliteDatabase } from './engine/database'

/**
 * Merges the segments of the FTS5 tables in the background, a little at a
 * time (decision 0213).
 *
 * Every transaction that writes an FTS5 table adds a segment to it, and FTS5's
 * own merging (`automerge`, run inside those writes) lets up to three wait on
 * each level: a library written part by part keeps 8 to 14. A page of a list
 * filtered by a common word tests each part it reads against every one of them
 * (search.ts), so it took three to four times as long as over one segment.
 *
 * So, a moment after the first write of a burst, the tables are merged
 * in steps of MERGE_PAGES pages, each its own short transaction queued like any
 * write, until a step finds nothing left to merge. The tables merge as soon as
 * two segments share a level (`usermerge=2`, set by the schema), which leaves
 * one segment per level: a few, whatever the library's size, for work in
 * proportion to what was written. (A full `optimize` would rewrite the whole
 * index after every edit.)
 */
export class IndexMerger {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<void> | null = null
  /** The steps' own commits not yet told (committed): they do not call for another pass. */
  private ownCommits = 0
  /** A write committed since the last pass began. */
  private due = false
  private stopped = false

  constructor(
    private readonly db: SqliteDatabase,
    private readonly delayMs: number = MERGE_DELAY_MS,
  ) {}

  /** A transaction committed: merge a moment from now (unless it was a step's own). */
  committed(): void {
    if (this.ownCommits > 0) {
      this.ownCommits--
      return
    }
    this.schedule()
  }

  /** A pass a moment from now, unless one is due already; another after it if one is running. */
  schedule(): void {
    if (this.stopped) return
    this.due = true
    if (!this.timer && !this.running) this._arm()
  }

  private _arm(): void {
    this.timer = setTimeout(() => {
      this.timer = null
      this.due = false
      this.running = this._pass().finally(() => {
        this.running = null
        // Writes during the pass: another, a moment later.
        if (this.due && !this.stopped) this._arm()
      })
    }, this.delayMs)
    // A merge never keeps a process alive: what is left is merged after the next write.
    this.timer.unref()
  }

  /** Resolves once no pass is due or running (tests and the bench wait for it). */
  async settled(): Promise<void> {
    while (this.timer || this.running) {
      if (this.running) await this.running
      else await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }

  /** No later pass; the step under way, if any, ends. */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.running
  }

  /** Whether some table has segments to merge: a read, so a pass with nothing to do writes nothing. */
  pending(): boolean {
    return MERGED_TABLES.some((table) => _hasWork(this._structure(table)))
  }

  /** The table's structure record: its segments, level by level (ftsLevels). */
  private _structure(table: string): { block: Uint8Array } | undefined {
    return this.db.db.prepare(`SELECT block FROM ${table}_data WHERE id = 10`).get() as { block: Uint8Array } | undefined
  }

  private async _pass(): Promise<void> {
    for (const table of MERGED_TABLES) {
      for (let step = 0; step < MAX_STEPS && !this.stopped; step++) {
        if (!_hasWork(this._structure(table))) break
        let merged: boolean
        let counted = false
        try {
          merged = await this.db.run((ex) => {
            this.ownCommits++
            counted = true
            const before = ex.get<{ n: number }>('SELECT total_changes() AS n')!.n
            ex.run(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ?)`, [MERGE_PAGES])
            // FTS5's rule: a step that merged something changed at least two rows.
            return ex.get<{ n: number }>('SELECT total_changes() AS n')!.n - before >= 2
          })
        } catch {
          // A step that did not commit is not told.
          if (counted) this.ownCommits--
          // Closed, or writes stopped (the storage says why to every writer): nothing to merge into.
          return
        }
        if (!merged) break
      }
    }
  }
}

/**
 * The segments on each level of an FTS5 table, and how many of them a merge
 * under way takes, from its structure record (row 10 of `<table>_data`; the
 * layout is described in SQLite's ext/fts5/fts5_index.c). Undefined when the
 * record is not one this code reads.
 */
export function ftsLevels(block: Uint8Array): Array<{ segments: number; merging: number }> | undefined {
  // A 4-byte configuration cookie; the record's second version (tables that delete without their text) follows it with a marker, and has five more numbers per segment.
  let at = 4
  const v2 = block[4] === 0xff && block[5] === 0 && block[6] === 0 && block[7] === 1
  if (v2) at += 4
  const varint = (): number => {
    let value = 0
    for (let k = 0; k < 9; k++) {
      const byte = block[at++] ?? 0
      if (k === 8) return value * 256 + byte
      value = value * 128 + (byte & 0x7f)
      if (!(byte & 0x80)) break
    }
    return value
  }
  const count = varint()
  varint() // segments in all
  varint() // the write counter
  const levels: Array<{ segments: number; merging: number }> = []
  for (let level = 0; level < count && at <= block.length; level++) {
    const merging = varint()
    const segments = varint()
    levels.push({ segments, merging })
    for (let n = 0; n < segments * (v2 ? 8 : 3) && at <= block.length; n++) varint()
  }
  return at === block.length ? levels : undefined
}

/** A level with two segments, or a merge under way; or a record this code cannot read (the steps then find out). */
function _hasWork(row: { block: Uint8Array } | undefined): boolean {
  if (!row) return false
  const levels = ftsLevels(row.block)
  return !levels || levels.some((level) => level.segments >= 2 || level.merging > 0)
}

/** The FTS5 tables (schema.ts), each merged by the same rule. */
const MERGED_TABLES = ['components_fts', 'components_grams', 'mpn_grams', 'mpn_words'] as const

/**
 * Pages a step writes, about: 16 kept each step under 10 ms over a library of
 * 100,000 parts written ten at a time (64 took up to 18 ms, all the while
 * other requests wait).
 */
const MERGE_PAGES = 16

/**
 * A burst of writes is merged this long after it began: a few steps for a
 * burst of a few writes, and a test that makes the next flush fail knows
 * which write meets it.
 */
const MERGE_DELAY_MS = 2000

/** A pass ends after this many steps of one table; the next write starts another. */
const MAX_STEPS = 10_000
