import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ComponentListQuery } from '../../schemas/component'
import { ftsLevels } from './index-merge'
import { createSqliteStorage, type SqliteStorage } from './storage'

// The word indexes merged in the background (index-merge.ts, decision 0213):
// a library written part by part keeps one FTS5 segment per level, and what
// it finds does not change.

const open: SqliteStorage[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** How many segments each level of an FTS5 table holds. */
function levels(storage: SqliteStorage, table: string): number[] {
  const { block } = storage.database.db.prepare(`SELECT block FROM ${table}_data WHERE id = 10`).get() as { block: Buffer }
  const read = ftsLevels(block)
  expect(read, `${table}: the structure record read to its end`).toBeDefined()
  return read!.map((level) => level.segments)
}

async function writePartByPart(storage: SqliteStorage, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await storage.components.create({ name: `Resistor ${i} 0603`, description: `thick film resistor number ${i}`, mpns: [{ manufacturer: 'Yageo', partNumber: `RC0603-${i}` }] })
  }
}

describe('word indexes merged in the background', () => {
  it('leaves at most one segment per level of each table, and finds the same parts', async () => {
    const storage = await createSqliteStorage({ indexMergeDelayMs: 10 })
    open.push(storage)
    await writePartByPart(storage, 400)
    await storage.indexMerges.settled()
    for (const table of ['components_fts', 'components_grams', 'mpn_grams', 'mpn_words']) {
      const perLevel = levels(storage, table)
      expect(Math.max(...perLevel), `${table}: ${perLevel.join(' ')}`).toBeLessThanOrEqual(1)
    }
    expect(storage.indexMerges.pending()).toBe(false)
    const page = await storage.components.listIds(ComponentListQuery.parse({ q: 'resistor 12', limit: '100' }))
    expect(page.total).toBe(11) // 12, 120–129
    expect((await storage.search.suggest('mpns', '0603-39', 20)).length).toBe(11) // 39, 390–399
  })

  it('without it, FTS5 leaves several segments on a level (what the merges are for)', async () => {
    // The merges a moment after the writes, here never in the test's time.
    const storage = await createSqliteStorage({ indexMergeDelayMs: 60_000 })
    open.push(storage)
    await writePartByPart(storage, 400)
    expect(Math.max(...levels(storage, 'components_fts'))).toBeGreaterThan(2)
  })

  it('merges a library closed before its writes were merged once it is opened again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'complib-merge-'))
    dirs.push(dir)
    const before = await createSqliteStorage({ dir, indexMergeDelayMs: 60_000 })
    await writePartByPart(before, 300)
    await before.close()
    const after = await createSqliteStorage({ dir, indexMergeDelayMs: 10 })
    open.push(after)
    expect(after.indexMerges.pending()).toBe(true)
    await after.indexMerges.settled()
    expect(Math.max(...levels(after, 'components_fts'))).toBeLessThanOrEqual(1)
  })

  it('stops with the storage: a pass due is dropped, and closing waits for none', async () => {
    const storage = await createSqliteStorage({ indexMergeDelayMs: 60_000 })
    await writePartByPart(storage, 20)
    const started = performance.now()
    await storage.close()
    expect(performance.now() - started).toBeLessThan(5_000)
  })
})
