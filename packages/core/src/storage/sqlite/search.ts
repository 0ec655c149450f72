import type { SqlExecutor, TextFilter } from '../_internal/sql-executor'
import { chunks, likeEscape, placeholders } from '../stores/_shared'
import { searchWords } from '../stores/component-query'
import { loadComponentCandidates, mpnCandidateRows } from '../stores/search-candidates'
import { type Candidate, countRanked, type Needle, RANK, tierSize } from '../stores/search-rank'

/**
 * Search on SQLite, in FTS5 tables kept beside the components (rowid = the
 * component's rowid; schema.ts): components_fts for words of name, ipn,
 * description and part numbers, with components_terms listing every word it
 * holds; mpn_words for the words of part numbers alone, with mpn_terms
 * listing them; components_grams for 3-character windows of names, ipns and part
 * numbers, mpn_grams for those of part numbers alone. All are written
 * by reindexComponent on every change of a component's text (decision 0213).
 */

/**
 * A word prefix stands for at most this many words of the library before it
 * is matched as a prefix: FTS5 reads a word's list of parts as it goes, and
 * merges the lists of every word a prefix stands for, whole, before the first
 * (`resistor 0603` in the bench's library of a million: 0.7 ms as `0603` and
 * its 100 longer words, 10.7 ms as the prefix `0603*`).
 */
const EXPANSION_MAX = 512
/** Past this many words for one prefix, testing one part (a lookup of each word) costs more than copying the matches once. */
const PER_PART_MAX = 64
/** components_fts keeps prefix indexes of 1 to 3 characters (schema.ts): such a prefix is one list already. */
const INDEXED_PREFIX = 3

/**
 * The FTS5 query of `text` over components_fts (every word a word prefix,
 * all of them), and whether one part is cheap to test against it: `lazy` is
 * false when a word was left a long prefix, which FTS5 answers by merging
 * whole lists, or stands for more than PER_PART_MAX words. `none` when a
 * word is the prefix of no word in the library. Null when nothing searchable
 * is left. `whole`, when it reads less than `match`: the query of every word
 * as a whole word, each being one the library holds, one of them at least
 * the start of others.
 */
export interface TextMatch {
  match: string
  lazy: boolean
  none: boolean
  whole?: string | undefined
}

export async function textMatch(ex: SqlExecutor, text: string): Promise<TextMatch | null> {
  const words = searchWords(text)
  if (words.length === 0) return null
  const none = { match: '', lazy: true, none: true }
  let lazy = true
  const parts: string[] = []
  // Each word as itself, while every one is a word of the library; `broader` once a long one stands for more.
  let whole: string[] | null = []
  let broader = false
  for (const word of words) {
    const tokens = wordTokens(word)
    const only = tokens.length === 1 ? tokens[0]! : undefined
    const found = only === undefined ? null : await _wordsStarting(ex, 'components_terms', only)
    if (found === 'none') return none
    if (!found || found.terms[0] !== only) whole = null
    whole?.push(`"${only}"`)
    if (found && found.terms.length > 1 && only!.length > INDEXED_PREFIX) broader = true
    if (found?.expanded) {
      parts.push(`(${found.terms.map((t) => `"${t}"`).join(' OR ')})`)
      if (found.terms.length > PER_PART_MAX) lazy = false
      continue
    }
    if (only === undefined || only.length > INDEXED_PREFIX) lazy = false
    // FTS5 tokenizes a quoted string itself; a `*` after it makes its last token a prefix.
    parts.push(`"${word.replace(/"/g, '""')}"*`)
  }
  return { match: parts.join(' AND '), lazy, none: false, ...(whole && broader ? { whole: whole.join(' AND ') } : {}) }
}

/**
 * The FTS5 query of `text` over mpn_words, the part numbers' own words
 * (schema.ts): every token of every word a prefix, all of them, or 'none'
 * when one starts no word of a part number (mpn_terms). That index keeps no
 * positions, so a word of several tokens (`RES-0001`) is its tokens, not a
 * phrase: a superset the ranking narrows down. Null when nothing searchable
 * is left.
 */
export async function mpnMatch(ex: SqlExecutor, text: string): Promise<string | 'none' | null> {
  const tokens = searchWords(text).flatMap(wordTokens)
  if (tokens.length === 0) return null
  const parts: string[] = []
  for (const token of new Set(tokens)) {
    const found = await _wordsStarting(ex, 'mpn_terms', token)
    if (found === 'none') return 'none'
    parts.push(found?.expanded ? `(${found.terms.map((t) => `"${t}"`).join(' OR ')})` : `"${token.replace(/"/g, '""')}"*`)
  }
  return parts.join(' AND ')
}

/**
 * What the vocabulary (components_terms or mpn_terms) says of an ASCII word
 * as a prefix: 'none' when it starts no word; else the first words it starts
 * (two for a short one, which is one of the index's own prefix lists already,
 * no broader to read than the word alone), `expanded` when they are all of
 * them and few enough to ask for instead of the prefix (FTS5 merges the lists
 * of every word a prefix stands for, whole, before the first match). Null for
 * a word outside ASCII: the tokenizer folds it, so the list cannot be read
 * for it exactly.
 */
async function _wordsStarting(ex: SqlExecutor, vocabulary: 'components_terms' | 'mpn_terms', word: string): Promise<{ terms: string[]; expanded: boolean } | 'none' | null> {
  if (!/^[a-z0-9]+$/.test(word)) return null
  const short = word.length <= INDEXED_PREFIX
  const rows = await ex.all<{ term: string }>(`SELECT term FROM ${vocabulary} WHERE term >= ? AND term < ? LIMIT ?`, [word, _successor(word), short ? 2 : EXPANSION_MAX + 1])
  if (rows.length === 0) return 'none'
  return { terms: rows.map((r) => r.term), expanded: !short && rows.length <= EXPANSION_MAX }
}

/**
 * The list's full-text filter over `components c`: every word of `q` a word
 * prefix. `sql` tests one part; `driver` lists the matching parts in rowid
 * order, which component-query.ts counts from and, when few match, pages from.
 * Testing one part reads each word's list up to it, when FTS5 reads them as it
 * goes; else the matches are read once into a temporary index.
 */
export async function textFilter(ex: SqlExecutor, q: string): Promise<TextFilter | null> {
  const m = await textMatch(ex, q)
  if (m === null) return null
  if (m.none) return { sql: '1 = 0', params: [] }
  const copied = 'c.rowid IN (SELECT rowid FROM components_fts WHERE components_fts MATCH ?)'
  const test = (rowid: string) => `EXISTS (SELECT 1 FROM components_fts WHERE components_fts MATCH ? AND rowid = ${rowid})`
  return {
    sql: m.lazy ? test('c.rowid') : copied,
    params: [m.match],
    driver: { from: 'components_fts d', sql: 'd.components_fts MATCH ?', params: [m.match], join: 'c.rowid = d.rowid' },
    ...(m.lazy ? { perPart: { test, copied } } : {}),
  }
}

/**
 * A word's tokens as SQLite's unicode61 tokenizer cuts them: runs of letters,
 * digits and private-use characters, lower-cased. For ASCII this is exact.
 */
export function wordTokens(word: string): string[] {
  return word.toLowerCase().split(/[^\p{L}\p{N}\p{Co}]+/u).filter(Boolean)
}

/**
 * The words a text adds to components_terms: each token, and the same without
 * its diacritics as the tokenizer folds them. Outside ASCII both are kept, so
 * the list holds the tokenizer's word whichever it chose; a word listed that
 * the index does not hold matches nothing.
 */
export function indexTerms(text: string): string[] {
  const terms = new Set<string>()
  for (const token of wordTokens(text)) {
    terms.add(token)
    const folded = token.normalize('NFD').replace(/\p{M}/gu, '')
    if (folded) terms.add(folded)
  }
  return [...terms]
}

/** The first string after every string that starts with `word` (ASCII). */
function _successor(word: string): string {
  return word.slice(0, -1) + String.fromCharCode(word.charCodeAt(word.length - 1) + 1)
}

/**
 * Candidates for component and MPN suggestions, cheapest tier first, each
 * tier run only while the better ranks hold fewer than `limit`: index range
 * scans for a whole-field prefix, components_fts for word prefixes,
 * components_grams (then LIKE on the few it returns) for a substring. Never
 * a scan of the whole table: this must stay fast at 100,000 components.
 */

/** Word-prefix hits are confirmed in JS (FTS drops punctuation: `1%` would match `10`); at most this many are read. */
const WORD_TIER_MAX_ROWS = 500
const WORD_TIER_CHUNK = 100

export async function componentCandidates(ex: SqlExecutor, needle: Needle, limit: number): Promise<Candidate[]> {
  const take = tierSize(limit)
  const { text } = needle
  const hi = `${text}\uffff`
  const ids = new Set<string>()
  const add = (rows: { id: string }[]) => rows.forEach((r) => ids.add(r.id))
  add(await ex.all(`SELECT id FROM components WHERE name COLLATE NOCASE >= ? AND name COLLATE NOCASE < ? AND deleted_at IS NULL ORDER BY name COLLATE NOCASE LIMIT ?`, [text, hi, take]))
  add(await ex.all(`SELECT id FROM components WHERE ipn >= ? AND ipn < ? AND deleted_at IS NULL ORDER BY ipn LIMIT ?`, [text, hi, take]))
  add(
    await ex.all(`SELECT c.id AS id FROM mpns m JOIN components c ON c.id = m.component_id WHERE m.part_number >= ? AND m.part_number < ? AND c.deleted_at IS NULL ORDER BY m.part_number LIMIT ?`, [text, hi, take]),
  )
  const found = await loadComponentCandidates(ex, [...ids])
  if (ids.size >= limit) return found

  for await (const chunk of _wordTierIds(ex, text, take)) {
    found.push(...await loadComponentCandidates(ex, chunk.filter((id) => !ids.has(id))))
    chunk.forEach((id) => ids.add(id))
    if (countRanked(found, needle, RANK.wordPrefixes) >= limit) return found
  }

  if (countRanked(found, needle, RANK.substring) >= limit) return found
  const like = `%${likeEscape(text)}%`
  const rows = await ex.all<{ id: string }>(
    `SELECT c.id AS id FROM components_grams g JOIN components c ON c.rowid = g.rowid
     WHERE components_grams MATCH ?1 AND c.deleted_at IS NULL
       AND (c.name LIKE ?2 ESCAPE '\\' OR c.ipn LIKE ?2 ESCAPE '\\' OR EXISTS (SELECT 1 FROM mpns m WHERE m.component_id = c.id AND m.part_number LIKE ?2 ESCAPE '\\'))
     LIMIT ?3`,
    [toGramMatch(text), like, take + ids.size],
  )
  found.push(...await loadComponentCandidates(ex, rows.map((r) => r.id).filter((id) => !ids.has(id))))
  return found
}

export async function mpnCandidates(ex: SqlExecutor, needle: Needle, limit: number): Promise<Candidate[]> {
  const take = tierSize(limit)
  const { text } = needle
  const found = await mpnCandidateRows(ex, `m.part_number >= ? AND m.part_number < ? AND c.deleted_at IS NULL ORDER BY m.part_number LIMIT ?`, [text, `${text}\uffff`, take])
  if (found.length >= limit) return found

  for await (const chunk of _wordTierIds(ex, text, take, true)) {
    for (const part of chunks(chunk)) found.push(...await mpnCandidateRows(ex, `m.component_id IN (${placeholders(part.length)})`, part))
    if (countRanked(found, needle, RANK.wordPrefixes) >= limit) return found
  }

  if (countRanked(found, needle, RANK.substring) >= limit) return found
  const rows = await ex.all<{ id: string }>(
    `SELECT m.id AS id FROM mpn_grams g JOIN components c ON c.rowid = g.rowid JOIN mpns m ON m.component_id = c.id
     WHERE mpn_grams MATCH ?1 AND c.deleted_at IS NULL AND m.part_number LIKE ?2 ESCAPE '\\' LIMIT ?3`,
    [toGramMatch(text), `%${likeEscape(text)}%`, take + found.length],
  )
  const ids = rows.map((r) => r.id)
  for (const part of chunks(ids)) found.push(...await mpnCandidateRows(ex, `m.id IN (${placeholders(part.length)})`, part))
  return found
}

/**
 * Live components whose words start with the query's words (a superset: see
 * WORD_TIER_MAX_ROWS), in chunks, by docid; those holding the query's words
 * as whole words first, when that is a narrower query: they rank first
 * (search-rank.ts), and FTS5 reads one list for a whole word where a prefix
 * reads the lists of every word it stands for (`resistor 0603`: `0603` and
 * the hundred IPN numbers that start with it). Once the whole words found
 * fewer than a chunk, none is left to find. `mpns`: the words of part
 * numbers alone (mpn_words).
 */
async function* _wordTierIds(ex: SqlExecutor, text: string, first: number, mpns = false): AsyncGenerator<string[]> {
  let passes: string[]
  if (mpns) {
    const m = await mpnMatch(ex, text)
    if (m === null || m === 'none') return
    passes = [m]
  } else {
    const m = await textMatch(ex, text)
    if (!m || m.none) return
    passes = m.whole ? [m.whole, m.match] : [m.match]
  }
  const index = mpns ? 'mpn_words' : 'components_fts'
  const seen = new Set<string>()
  let read = 0
  // The first chunk as many as a tier fetches: most queries rank enough in it, and each candidate costs a lookup of its part numbers.
  let chunk = Math.min(first, WORD_TIER_CHUNK)
  for (const match of passes) {
    let after = 0
    // Numbers are bound as REAL, and FTS5 drops a rowid bound given as REAL beside a MATCH (an
    // equality, at least, as SQLite 3.53 does): the bound is made an integer in the statement.
    while (read < WORD_TIER_MAX_ROWS) {
      const rows = await ex.all<{ id: string; docid: number }>(
        `SELECT c.id AS id, f.rowid AS docid FROM ${index} f JOIN components c ON c.rowid = f.rowid
         WHERE f.${index} MATCH ? AND f.rowid > CAST(? AS INTEGER) AND c.deleted_at IS NULL ORDER BY f.rowid LIMIT ?`,
        [match, after, chunk],
      )
      read += chunk
      const fresh = rows.map((r) => r.id).filter((id) => !seen.has(id))
      fresh.forEach((id) => seen.add(id))
      if (fresh.length) yield fresh
      if (rows.length < chunk) break
      after = rows.at(-1)!.docid
      chunk = WORD_TIER_CHUNK
    }
  }
}

/**
 * The FTS query of the components_grams index (see schema.ts): every
 * 3-character window of the query as a token (all must be present), or, for
 * a query of 1 or 2 characters, a token prefix. Lower-cases ASCII only, as
 * SQLite's lower() did when the index was written. Tokens are hex, so no user
 * text can be FTS syntax.
 */
export function toGramMatch(text: string): string {
  const chars = [...text.replace(/[A-Z]/g, (c) => c.toLowerCase())]
  if (chars.length < 3) return `${_hex(chars.join(''))}*`
  const grams = new Set<string>()
  // A dozen windows narrow the candidates enough; LIKE confirms each one.
  for (let i = 0; i + 3 <= chars.length && grams.size < 12; i++) grams.add(_hex(chars.slice(i, i + 3).join('')))
  return [...grams].join(' ')
}

/** Re-writes the search entries of a component (components_fts and components_terms: name, ipn, description, part numbers; mpn_words and mpn_terms: part numbers; components_grams: name, ipn, part numbers; mpn_grams: part numbers) when that text changed. */
export async function reindexComponent(ex: SqlExecutor, id: string): Promise<void> {
  // rowid is the FTS docid; components is never VACUUMed, so rowids stay put.
  const row = await ex.get<{ rowid: number; name: string; ipn: string; description: string | null }>(
    'SELECT rowid, name, ipn, description FROM components WHERE id = ?',
    [id],
  )
  if (!row) return
  const mpns = await ex.get<{ list: string | null }>(`SELECT group_concat(part_number, ' ') AS list FROM mpns WHERE component_id = ?`, [id])
  const next = { name: row.name, ipn: row.ipn, description: row.description ?? '', mpns: mpns?.list ?? '' }
  // Most changes (status, tags, parameters, stock) leave the indexed text alone:
  // rewriting the two FTS documents anyway would double the cost of every write.
  const indexed = await ex.get<typeof next>('SELECT name, ipn, description, mpns FROM components_fts WHERE rowid = ?', [row.rowid])
  if (indexed && indexed.name === next.name && indexed.ipn === next.ipn && indexed.description === next.description && indexed.mpns === next.mpns) return
  await ex.run('DELETE FROM components_fts WHERE rowid = ?', [row.rowid])
  await ex.run('INSERT INTO components_fts (rowid, name, ipn, description, mpns) VALUES (?, ?, ?, ?, ?)', [row.rowid, next.name, next.ipn, next.description, next.mpns])
  // Words are only added: one no part holds any more matches nothing (textMatch).
  const terms = indexTerms(`${next.name} ${next.ipn} ${next.description} ${next.mpns}`)
  for (const part of chunks(terms)) await ex.run(`INSERT OR IGNORE INTO components_terms (term) VALUES ${part.map(() => '(?)').join(', ')}`, part)
  if (indexed && indexed.name === next.name && indexed.ipn === next.ipn && indexed.mpns === next.mpns) return
  if (!indexed || indexed.mpns !== next.mpns) {
    // The part numbers' own words (mpn_words, mpn_terms in schema.ts); a component without one has no document.
    await ex.run('DELETE FROM mpn_words WHERE rowid = ?', [row.rowid])
    if (next.mpns) await ex.run('INSERT INTO mpn_words (rowid, words) VALUES (?, ?)', [row.rowid, next.mpns])
    const mpnTerms = indexTerms(next.mpns)
    for (const part of chunks(mpnTerms)) await ex.run(`INSERT OR IGNORE INTO mpn_terms (term) VALUES ${part.map(() => '(?)').join(', ')}`, part)
    await ex.run('DELETE FROM mpn_grams WHERE rowid = ?', [row.rowid])
    // The windows of the part numbers alone (mpn_grams in schema.ts); a component without one has no document.
    await ex.run(
      `WITH RECURSIVE
        f(t) AS (SELECT lower(part_number) || char(1, 1) FROM mpns WHERE component_id = ?2),
        g(t, i) AS (SELECT t, 1 FROM f UNION ALL SELECT t, i + 1 FROM g WHERE i + 3 <= length(t))
      INSERT INTO mpn_grams (rowid, grams) SELECT ?1, grams FROM (SELECT group_concat(DISTINCT hex(substr(t, i, 3))) AS grams FROM g) WHERE grams IS NOT NULL`,
      [row.rowid, id],
    )
  }
  await ex.run('DELETE FROM components_grams WHERE rowid = ?', [row.rowid])
  // The same 3-character windows as the components_grams migration (schema.ts): suggest's substring tier.
  await ex.run(
    `WITH RECURSIVE
      f(t) AS (
        SELECT lower(name) || char(1, 1) FROM components WHERE rowid = ?1
        UNION ALL SELECT lower(ipn) || char(1, 1) FROM components WHERE rowid = ?1
        UNION ALL SELECT lower(part_number) || char(1, 1) FROM mpns WHERE component_id = ?2
      ),
      g(t, i) AS (SELECT t, 1 FROM f UNION ALL SELECT t, i + 1 FROM g WHERE i + 3 <= length(t))
    INSERT INTO components_grams (rowid, grams) SELECT ?1, group_concat(DISTINCT hex(substr(t, i, 3))) FROM g`,
    [row.rowid, id],
  )
}

/** Drops the search entries of a component that is purged. */
export async function unindexComponent(ex: SqlExecutor, rowid: number): Promise<void> {
  await ex.run('DELETE FROM components_fts WHERE rowid = ?', [rowid])
  await ex.run('DELETE FROM components_grams WHERE rowid = ?', [rowid])
  await ex.run('DELETE FROM mpn_grams WHERE rowid = ?', [rowid])
  await ex.run('DELETE FROM mpn_words WHERE rowid = ?', [rowid])
}


function _hex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex')
}
