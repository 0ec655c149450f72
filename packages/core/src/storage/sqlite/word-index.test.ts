import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ComponentListQuery } from '../../schemas/component'
import { searchWords } from '../stores/component-query'
import { openSqlite } from './engine/driver'
import { SCHEMA_VERSION_BEFORE_FTS5, SCHEMA_VERSION_BEFORE_WINDOWS_WITHOUT_TEXT } from './schema'
import { createSqliteStorage, type SqliteStorage } from './storage'

// The list's text filter on SQLite (decision 0213): a long word prefix is
// turned into the words of the library it stands for (components_terms), a
// prefix standing for more than 64 words or a word outside ASCII is matched as
// a prefix, and a filter many parts match is tested part by part. Whichever
// way a query goes, it must find what "every word a prefix of a word of the
// part" finds.

const dirs: string[] = []
const open: SqliteStorage[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
const tokens = (s: string) => fold(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean)

interface Part {
  id: string
  name: string
  text: string
}

/**
 * What the filter must find: every word of `q` the prefix of a word of the
 * part; a word of several tokens (`rc3-3`) a phrase whose last token is a prefix.
 */
function expected(parts: Part[], q: string): string[] {
  const words = searchWords(q).map(tokens)
  const holds = (doc: string[], word: string[]) =>
    doc.some((_, j) => word.every((t, k) => (k === word.length - 1 ? doc[j + k]?.startsWith(t) : doc[j + k] === t)))
  return parts.filter((p) => words.every((w) => holds(tokens(p.text), w))).map((p) => p.id)
}

/** A part's 3-character windows as search.ts writes them: each text lower-cased (ASCII, as SQLite's lower()) and ended by two \x01 characters, each window's UTF-8 in hex. */
function windows(texts: string[]): string {
  const all = new Set<string>()
  for (const text of texts) {
    const chars = [...`${text.replace(/[A-Z]/g, (c) => c.toLowerCase())}\x01\x01`]
    for (let i = 0; i + 3 <= chars.length; i++) all.add(Buffer.from(chars.slice(i, i + 3).join(''), 'utf8').toString('hex'))
  }
  return [...all].join(',')
}

/** Makes the window tables anew with their text kept (`using`, e.g. FTS4's or FTS5's), as the steps before the last held them. */
function windowTablesWithText(db: ReturnType<typeof openSqlite>, using: string, key: 'docid' | 'rowid'): void {
  const rows = db.prepare(`SELECT c.rowid AS rowid, c.name AS name, c.ipn AS ipn, (SELECT group_concat(part_number, char(9)) FROM mpns WHERE component_id = c.id) AS mpns FROM components c`).all() as Array<{ rowid: number; name: string; ipn: string; mpns: string | null }>
  for (const table of ['components_grams', 'mpn_grams']) {
    db.exec(`DROP TABLE ${table}; CREATE VIRTUAL TABLE ${table} USING ${using};`)
    const insert = db.prepare(`INSERT INTO ${table} (${key}, grams) VALUES (?, ?)`)
    for (const row of rows) {
      const mpns = row.mpns ? row.mpns.split('\t') : []
      if (table === 'mpn_grams' && mpns.length === 0) continue
      insert.run(row.rowid, windows(table === 'mpn_grams' ? mpns : [row.name, row.ipn, ...mpns]))
    }
  }
}

async function listAll(storage: SqliteStorage, q: string, sort: string): Promise<{ ids: string[]; total: number | undefined }> {
  const ids: string[] = []
  let cursor: string | undefined
  let total: number | undefined
  do {
    const page = await storage.components.listIds(ComponentListQuery.parse({ q, sort, limit: '7', ...(cursor ? { cursor } : {}) }))
    ids.push(...page.items)
    total ??= page.total
    cursor = page.nextCursor ?? undefined
  } while (cursor)
  return { ids, total }
}

/** A library whose words share prefixes: `wide` stands for 70 words (more than a part is tested against, fewer than a prefix is turned into), `resist` for three, `long` for 600. */
async function library(storage: SqliteStorage): Promise<Part[]> {
  const parts: Part[] = []
  for (let i = 0; i < 140; i++) {
    const name = `${['Resistor', 'Capacitor', 'Résistance', 'Inductor'][i % 4]} ${i}`
    const description = `wide${i % 70} ${i % 3 ? 'resistors' : 'resist'} x${i % 11} ${i % 5 ? '' : 'rare'} ${Array.from({ length: 5 }, (_, k) => `long${i * 5 + k}`).join(' ')}`
    const partNumber = `RC${i % 9}-${i}`
    const c = await storage.components.create({ name, description, mpns: [{ manufacturer: 'Yageo', partNumber }] })
    parts.push({ id: c.id, name, text: `${name} ${c.ipn} ${description} ${partNumber}` })
  }
  return parts
}

const QUERIES = ['long', 'long1', 'long12 wide', 'wide', 'resistance', 'inductor', 'inductor wide1', 'wide1', 'wide13', 'resist', 'resistor', 'resistors', 'res', 're', 'r', 'rési', 'RÉSISTANCE', 'résistance 12', 'rare', 'rare resist', 'wide x1', 'x10', 'rc3', 'rc3-3', 'zzzz', 'ca', 'capa wide2']

describe('the word index', () => {
  it('finds what every word as a prefix finds, along any sort, with exact counts', async () => {
    const storage = await createSqliteStorage()
    open.push(storage)
    const parts = await library(storage)
    for (const q of QUERIES) {
      const want = expected(parts, q)
      for (const sort of ['id', 'name']) {
        const got = await listAll(storage, q, sort)
        expect([...got.ids].sort(), `${q} by ${sort}`).toEqual([...want].sort())
        expect(got.total, `${q} by ${sort}`).toBe(want.length)
      }
    }
    // The cases the filter takes different ways: more than 64 words, some, none, outside ASCII.
    expect(expected(parts, 'wide').length).toBe(140)
    expect(expected(parts, 'rare').length).toBe(28)
    expect(expected(parts, 'zzzz')).toEqual([])
    expect(expected(parts, 'rc3-3').length).toBe(3)
  })

  it('finds the words a part is given later, and not those it lost', async () => {
    const storage = await createSqliteStorage()
    open.push(storage)
    const a = await storage.components.create({ name: 'Resistor', description: 'thick film' })
    const b = await storage.components.create({ name: 'Capacitor', description: 'ceramic' })
    await storage.components.update(a.id, { description: 'zebra stripes' })
    expect((await listAll(storage, 'zebr', 'id')).ids).toEqual([a.id])
    await storage.components.update(b.id, { name: 'Zebrafish sensor' })
    expect((await listAll(storage, 'zebr', 'id')).ids.sort()).toEqual([a.id, b.id].sort())
    await storage.components.update(a.id, { description: 'plain' })
    expect((await listAll(storage, 'zebra', 'id')).ids).toEqual([b.id])
    expect((await listAll(storage, 'thick', 'id')).ids).toEqual([])
  })

  it('moves a library whose words are in FTS4 to FTS5 with the list of its words', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'complib-word-index-'))
    dirs.push(dir)
    const before = await createSqliteStorage({ dir })
    const parts = await library(before)
    await before.close()

    // The search tables as the step before held them: FTS4, words with prefixes of 1 and 2, no list of words.
    const db = openSqlite(join(dir, 'complib.db'))
    db.exec(`DROP TABLE components_terms;
      ALTER TABLE components_fts RENAME TO components_fts5;
      CREATE VIRTUAL TABLE components_fts USING fts4 (name, ipn, description, mpns, tokenize=unicode61, prefix="1,2");
      INSERT INTO components_fts (docid, name, ipn, description, mpns) SELECT rowid, name, ipn, description, mpns FROM components_fts5;
      DROP TABLE components_fts5;`)
    // The windows with their text, as FTS4 kept them (the tables now keep none: written anew from the parts).
    windowTablesWithText(db, 'fts4 (grams, tokenize=simple)', 'docid')
    db.prepare(`UPDATE meta SET value = ? WHERE key = 'schema_version'`).run(String(SCHEMA_VERSION_BEFORE_FTS5))
    db.close()

    const after = await createSqliteStorage({ dir })
    open.push(after)
    for (const table of ['components_fts', 'components_grams', 'mpn_grams']) {
      const sql = after.database.db.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).get(table) as { sql: string }
      expect(sql.sql, table).toContain('fts5')
    }
    // The substring tiers of suggestions read the windows.
    expect((await after.search.suggest('mpns', 'c3-3', 10)).map((s) => s.label).sort()).toEqual(['RC3-3', 'RC3-30', 'RC3-39'])
    expect((await after.search.suggest('components', 'sistance 1', 3)).map((s) => s.label)).toHaveLength(3)
    const words = after.database.db.prepare(`SELECT term FROM components_terms WHERE term >= 'wide' AND term < 'widf'`).all()
    expect(words).toHaveLength(70)
    for (const q of ['wide13', 'resist', 'résistance 12', 'rc3']) expect((await listAll(after, q, 'id')).ids.sort(), q).toEqual(expected(parts, q).sort())
  })

  it('drops the text of the windows of a library from before, and its suggestions still find the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'complib-word-index-'))
    dirs.push(dir)
    const before = await createSqliteStorage({ dir })
    await library(before)
    const asked = ['c3-3', 'c3-39', 'rc3-1']
    const found = await Promise.all(asked.map(async (q) => (await before.search.suggest('mpns', q, 10)).map((s) => s.label).sort()))
    const components = (await before.search.suggest('components', 'sistance 1', 10)).map((s) => s.label).sort()
    await before.close()

    // The window tables as the step before left them: FTS5, with a copy of their text.
    const db = openSqlite(join(dir, 'complib.db'))
    windowTablesWithText(db, "fts5 (grams, tokenize='ascii', detail='none')", 'rowid')
    db.prepare(`UPDATE meta SET value = ? WHERE key = 'schema_version'`).run(String(SCHEMA_VERSION_BEFORE_WINDOWS_WITHOUT_TEXT))
    db.close()

    const after = await createSqliteStorage({ dir })
    open.push(after)
    for (const table of ['components_grams', 'mpn_grams']) {
      const { sql } = after.database.db.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).get(table) as { sql: string }
      expect(sql, table).toContain("content=''")
      expect(after.database.db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = ?`).get(`${table}_content`), table).toEqual({ n: 0 })
    }
    for (const table of ['components_fts', 'components_grams', 'mpn_grams']) {
      expect(after.database.db.prepare(`SELECT v FROM ${table}_config WHERE k = 'usermerge'`).get(), table).toEqual({ v: 2 })
    }
    expect(await Promise.all(asked.map(async (q) => (await after.search.suggest('mpns', q, 10)).map((s) => s.label).sort()))).toEqual(found)
    expect((await after.search.suggest('components', 'sistance 1', 10)).map((s) => s.label).sort()).toEqual(components)
    expect(found[0]).toEqual(['RC3-3', 'RC3-30', 'RC3-39'])
    // A part renamed and one purged: their rows are deleted by rowid, without the text.
    const [first, second] = await after.search.suggest('components', 'sistance 1', 10)
    await after.components.update(first!.id, { name: 'Quokka plain part' })
    await after.components.delete(second!.id)
    await after.components.purge(second!.id)
    const left = (await after.search.suggest('components', 'sistance 1', 10)).map((s) => s.id)
    expect(left).not.toContain(first!.id)
    expect(left).not.toContain(second!.id)
    expect((await after.search.suggest('components', 'okka plai', 10)).map((s) => s.id)).toEqual([first!.id])
  })
})
