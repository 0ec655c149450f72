import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recordStatements } from '../../../test/sqlite-statements'
import { mpnMatch, textMatch } from './search'
import { createSqliteStorage, type SqliteStorage } from './storage'

// Suggest's word tier asks FTS5 for the query's words as whole words first,
// when a word is one the library holds and others start with it: FTS5 reads
// one list for a whole word, where a prefix reads the lists of every word it
// stands for (`0603` and the hundred IPN numbers that start with it in the
// bench's library). Whole words rank first (search-rank.ts), so when they fill
// the suggestions no prefix is read.
let storage: SqliteStorage
beforeEach(async () => {
  storage = await createSqliteStorage()
  await storage.transaction(async (tx) => {
    for (let i = 0; i < 40; i++) await tx.components.create({ name: `A${i}`, ipn: `RES-0603${String(i).padStart(2, '0')}`, description: 'Resistor' })
    for (let i = 0; i < 5; i++) await tx.components.create({ name: `Resistor B${i}`, description: 'Resistor in 0603' })
  })
})
afterEach(async () => await storage.close())

/** The FTS5 queries `fn` runs against the word index. */
async function matchesOf(fn: () => Promise<unknown>): Promise<string[]> {
  const log = recordStatements(storage.database.db)
  try {
    await fn()
  } finally {
    log.stop()
  }
  return log.runs.filter((r) => /components_fts MATCH/.test(r.sql)).map((r) => String(r.params[0]))
}

describe("suggest's word tier", () => {
  it('reads the whole words alone when they fill the suggestions', async () => {
    const matches = await matchesOf(async () => expect((await storage.search.suggest('components', 'resistor 0603', 5)).map((s) => s.label)).toEqual(['Resistor B0', 'Resistor B1', 'Resistor B2', 'Resistor B3', 'Resistor B4']))
    expect(matches).toEqual(['"resistor" AND "0603"'])
  })

  it('goes on to the prefixes when the whole words are too few, each part once', async () => {
    const matches = await matchesOf(async () => {
      const hits = await storage.search.suggest('components', 'resistor 0603', 8)
      expect(hits.map((s) => s.label)).toEqual(['Resistor B0', 'Resistor B1', 'Resistor B2', 'Resistor B3', 'Resistor B4', 'A0', 'A1', 'A2'])
    })
    expect(matches).toHaveLength(2)
    expect(matches[0]).toBe('"resistor" AND "0603"')
    expect(matches[1]).toMatch(/^\("resistor"\) AND \("0603" OR "060300" OR /)
  })

  it('has no whole-word query when a word is not one the library holds, or starts no other', async () => {
    await storage.database.run(async (ex) => {
      expect((await textMatch(ex, 'resistor 0603'))?.whole).toBe('"resistor" AND "0603"')
      expect((await textMatch(ex, 'resistor 060'))?.whole).toBeUndefined()
      expect((await textMatch(ex, 'resistor'))?.whole).toBeUndefined()
      expect(await mpnMatch(ex, 'resistor 0603')).toBe('none')
      // A short word is one list of the index either way.
      expect((await textMatch(ex, 'a 1'))?.whole).toBeUndefined()
    })
  })
})
