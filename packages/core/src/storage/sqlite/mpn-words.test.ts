import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { recordStatements } from '../../../test/sqlite-statements'
import { openSqlite } from './engine/driver'
import { SCHEMA_VERSION_BEFORE_MPN_WORDS } from './schema'
import { createSqliteStorage, type SqliteStorage } from './storage'

// MPN suggestions match words of part numbers only. Asked of components_fts's
// `mpns` column, FTS5 read each word's list in every column: a word common in
// names and descriptions (`resistor`, the `r` of `R 10k`) read a quarter of
// a million parts at a million to find a few part numbers or none. The part
// numbers have their own word index (mpn_words) and list of words
// (mpn_terms, schema.ts).
const open: SqliteStorage[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function storageAt(dir?: string): Promise<SqliteStorage> {
  const storage = await createSqliteStorage(dir ? { dir } : {})
  open.push(storage)
  return storage
}

/** The statements `fn` prepares on the storage's connection. */
async function statementsOf(storage: SqliteStorage, fn: () => Promise<unknown>): Promise<string[]> {
  const log = recordStatements(storage.database.db)
  try {
    await fn()
  } finally {
    log.stop()
  }
  return log.statements
}

const documents = (storage: SqliteStorage) => (storage.database.db.prepare('SELECT rowid FROM mpn_words ORDER BY rowid').all() as { rowid: number }[]).map((r) => r.rowid)
const terms = (storage: SqliteStorage) => (storage.database.db.prepare('SELECT term FROM mpn_terms ORDER BY term').all() as { term: string }[]).map((r) => r.term)
const partNumbers = async (storage: SqliteStorage, q: string) => (await storage.search.suggest('mpns', q, 10)).map((s) => s.label).sort()

async function resistors(storage: SqliteStorage): Promise<void> {
  for (let i = 0; i < 30; i++) {
    await storage.components.create({ name: `R 10k 0603 #${i}`, description: 'Resistor 10k in 0603', mpns: [{ manufacturer: 'Yageo', partNumber: `RC0603-${i}K` }] })
  }
}

describe("the part numbers' words (mpn_words, mpn_terms)", () => {
  it('hold the words of part numbers as they are written, and no other text', async () => {
    const storage = await storageAt()
    await storage.components.create({ name: 'No part number' })
    const c = await storage.components.create({ name: 'Dual op amp', description: 'Résistant', mpns: [{ manufacturer: 'TI', partNumber: 'LM358-DR' }] })
    const { rowid } = storage.database.db.prepare('SELECT rowid FROM components WHERE id = ?').get(c.id) as { rowid: number }
    expect(documents(storage)).toEqual([rowid])
    expect(terms(storage)).toEqual(['dr', 'lm358'])
    expect(await partNumbers(storage, 'dual')).toEqual([])
    await storage.components.update(c.id, { mpns: [{ manufacturer: 'TI', partNumber: 'Ñ5532/P' }] })
    // Only added: the words no part number holds any more stay and match nothing.
    expect(terms(storage)).toEqual(['dr', 'lm358', 'n5532', 'p', 'ñ5532'])
    expect(await partNumbers(storage, 'lm358')).toEqual([])
    expect(await partNumbers(storage, 'ñ5532 p')).toEqual(['Ñ5532/P'])
    // A word of several tokens is its tokens, each a prefix; the ranking keeps the part numbers it starts.
    expect(await partNumbers(storage, 'ñ5532/')).toEqual(['Ñ5532/P'])
    await storage.components.update(c.id, { mpns: [] })
    expect(documents(storage)).toEqual([])
    await storage.components.update(c.id, { mpns: [{ manufacturer: 'TI', partNumber: 'TL072' }] })
    await storage.components.delete(c.id)
    await storage.components.purge(c.id)
    expect(documents(storage)).toEqual([])
  })

  it('keep a word found only outside the part numbers from reading the word index', async () => {
    const storage = await storageAt()
    await resistors(storage)
    const statements = await statementsOf(storage, async () => expect(await partNumbers(storage, 'resistor 0603')).toEqual([]))
    expect(statements.filter((sql) => /_fts MATCH|mpn_words MATCH/.test(sql))).toEqual([])
    // A short word too: one step of the list says no part number has a word starting with it.
    const short = await statementsOf(storage, async () => expect(await partNumbers(storage, 'res 10')).toEqual([]))
    expect(short.filter((sql) => /_fts MATCH|mpn_words MATCH/.test(sql))).toEqual([])
    // The part numbers' own words are found as word prefixes, in their own index only.
    const own = await statementsOf(storage, async () => {
      expect(await partNumbers(storage, 'rc0603 12')).toEqual(['RC0603-12K'])
      expect(await partNumbers(storage, 'rc 1')).toHaveLength(10)
    })
    expect(own.filter((sql) => /mpn_words MATCH/.test(sql))).toHaveLength(1)
    expect(own.filter((sql) => /components_fts MATCH/.test(sql))).toEqual([])
    // The components' words are not limited to the part numbers.
    expect((await storage.search.suggest('components', 'resistor 0603', 50))).toHaveLength(30)
  })

  it('are listed once when a library from before opens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'complib-mpn-terms-'))
    dirs.push(dir)
    const before = await storageAt(dir)
    await resistors(before)
    const listed = terms(before)
    await before.close()
    open.splice(0)

    const db = openSqlite(join(dir, 'complib.db'))
    db.exec('DROP TABLE mpn_terms')
    db.exec('DROP TABLE mpn_words')
    db.prepare(`UPDATE meta SET value = ? WHERE key = 'schema_version'`).run(String(SCHEMA_VERSION_BEFORE_MPN_WORDS))
    db.close()

    const after = await storageAt(dir)
    expect(terms(after)).toEqual(listed)
    expect(documents(after)).toHaveLength(30)
    expect(listed).toContain('rc0603')
    expect(listed).not.toContain('resistor')
    expect(await partNumbers(after, 'rc0603 7')).toEqual(['RC0603-7K'])
  })
})
