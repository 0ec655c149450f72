import type { SqlExecutor } from '../_internal/sql-executor'
import { chunks, likeEscape } from '../stores/_shared'
import { searchWords } from '../stores/component-query'
import { componentCandidateRows, loadComponentCandidates, mpnCandidateRows } from '../stores/search-candidates'
import { wordsOf } from './schema'
import { nocase } from './sql'
import { type Candidate, countRanked, type Needle, RANK, tierSize } from '../stores/search-rank'

/**
 * Search on PostgreSQL, with its own tools and the embedded engine's ranking
 * contract (search-rank.ts ranks the candidates both engines find): index
 * range scans for a whole-field prefix, a `simple` tsvector for word
 * prefixes, pg_trgm for a substring. The indexes are expressions over the
 * tables (postgres/schema.ts), but for the components' words: a column each
 * write of a component's text keeps in the UPDATE it makes (componentWordsSql,
 * dialect.ts), as it holds the part numbers' words too.
 */

/** A part number's words, as indexed by mpns_words. */
export const PG_PART_WORDS = (m: string) => wordsOf(`${m}.part_number::text`)

/**
 * User text as a tsquery in which every word must start a word (or, `whole`,
 * be a word); null when nothing searchable is left.
 */
export function toTsQuery(text: string, whole = false): string | null {
  const words = searchWords(text).map((w) => w.replace(/[^\p{L}\p{N}]+/gu, ' ').trim()).flatMap((w) => w.split(' ')).filter(Boolean)
  if (words.length === 0) return null
  return words.map((w) => `'${w.toLowerCase().replace(/'/g, "''").replace(/\\/g, '\\\\')}'${whole ? '' : ':*'}`).join(' & ')
}

/**
 * Word-prefix hits are confirmed by the ranking; at most this many are read,
 * a first chunk of a tier's size (each candidate is a lookup of its part
 * numbers, 60–90 µs on a library the cache does not hold), then chunks of
 * WORD_TIER_CHUNK.
 */
const WORD_TIER_MAX_ROWS = 500
const WORD_TIER_CHUNK = 100

/**
 * Each tier is one statement that finds its ids and reads their candidates
 * (a round trip is most of a cheap tier's time): the three prefix scans
 * together, then the word tier's first WORD_TIER_CHUNK hits, then, only
 * where those did not rank enough, the rest of the word tier and the
 * substring tier.
 */
export async function pgComponentCandidates(ex: SqlExecutor, needle: Needle, limit: number): Promise<Candidate[]> {
  const take = tierSize(limit)
  const { text } = needle
  // `take` is written into the text: with `LIMIT $n` PostgreSQL planned the prepared statement on every call (see _pageQuery).
  const found = await componentCandidateRows(
    ex,
    `c.id IN ((SELECT id FROM components WHERE ${nocase('name')} >= ${nocase('?1')} AND ${nocase('name')} < ${nocase('?2')} AND deleted_at IS NULL ORDER BY ${nocase('name')} LIMIT ${take})
       UNION ALL (SELECT id FROM components WHERE ${nocase('ipn')} >= ${nocase('?1')} AND ${nocase('ipn')} < ${nocase('?2')} AND deleted_at IS NULL ORDER BY ${nocase('ipn')} LIMIT ${take})
       UNION ALL (SELECT c.id AS id FROM mpns m JOIN components c ON c.id = m.component_id WHERE ${nocase('m.part_number')} >= ${nocase('?1')} AND ${nocase('m.part_number')} < ${nocase('?2')} AND c.deleted_at IS NULL ORDER BY ${nocase('m.part_number')} LIMIT ${take}))`,
    [text, `${text}\uffff`],
  )
  const ids = new Set(found.map((c) => c.id))
  if (ids.size >= limit) return found
  const push = (candidates: readonly Candidate[]) => {
    for (const c of candidates) if (!ids.has(c.id)) ids.add(c.id), found.push(c)
  }

  const query = toTsQuery(text)
  if (query) {
    // The words column holds the part numbers' words too (schema.ts): one index, LIMITed.
    const words = (n: number) => `SELECT c.id AS id FROM components c WHERE c.deleted_at IS NULL AND c.words @@ ?1::tsquery LIMIT ${n}`
    // The query's words as whole words first: they rank first (search-rank.ts), and the index reads
    // one list a word, where a prefix reads every word it starts (as on SQLite, sqlite/search.ts).
    push(await componentCandidateRows(ex, `c.id IN (${words(take)})`, [toTsQuery(text, true)!]))
    if (countRanked(found, needle, RANK.wordPrefixes) >= limit) return found
    const first = await componentCandidateRows(ex, `c.id IN (${words(take)})`, [query])
    push(first)
    if (countRanked(found, needle, RANK.wordPrefixes) >= limit) return found
    if (first.length >= take) {
      // A common word: up to WORD_TIER_MAX_ROWS of its ids, their candidates a chunk at a time until enough rank.
      const fresh = _unseen(await ex.all<{ id: string }>(words(WORD_TIER_MAX_ROWS), [query]), ids)
      for (const chunk of chunks(fresh, WORD_TIER_CHUNK)) {
        push(await loadComponentCandidates(ex, chunk))
        if (countRanked(found, needle, RANK.wordPrefixes) >= limit) return found
      }
    }
  }

  if (countRanked(found, needle, RANK.substring) >= limit) return found
  const like = `%${likeEscape(text.toLowerCase())}%`
  // Each side on its own trigram index, as above.
  push(
    await componentCandidateRows(
      ex,
      `c.id IN ((SELECT c.id AS id FROM components c WHERE c.deleted_at IS NULL AND (lower(c.name) || ' ' || lower(c.ipn::text)) ILIKE ?1 ESCAPE '\\' LIMIT ?2)
         UNION ALL (SELECT c.id FROM mpns m JOIN components c ON c.id = m.component_id WHERE c.deleted_at IS NULL AND lower(m.part_number::text) ILIKE ?1 ESCAPE '\\' LIMIT ?2))`,
      [like, take + ids.size],
    ),
  )
  return found
}

/** The ids of `rows` not in `seen`, each once. */
function _unseen(rows: readonly { id: string }[], seen: ReadonlySet<string>): string[] {
  return [...new Set(rows.map((r) => r.id))].filter((id) => !seen.has(id))
}

export async function pgMpnCandidates(ex: SqlExecutor, needle: Needle, limit: number): Promise<Candidate[]> {
  const take = tierSize(limit)
  const { text } = needle
  const found = await mpnCandidateRows(ex, `${nocase('m.part_number')} >= ${nocase('?')} AND ${nocase('m.part_number')} < ${nocase('?')} AND c.deleted_at IS NULL ORDER BY ${nocase('m.part_number')} LIMIT ?`, [text, `${text}\uffff`, take])
  if (found.length >= limit) return found
  const seen = new Set(found.map((f) => f.id))
  const query = toTsQuery(text)
  if (query) {
    // Whole words, then a tier's size of word prefixes, then as many as the tier reads (see above).
    for (const [q, n] of [[toTsQuery(text, true)!, take], [query, take], [query, WORD_TIER_MAX_ROWS]] as const) {
      const rows = await mpnCandidateRows(ex, `${PG_PART_WORDS('m')} @@ ?::tsquery AND c.deleted_at IS NULL LIMIT ?`, [q, n])
      for (const row of rows) if (!seen.has(row.id)) found.push(row), seen.add(row.id)
      if (countRanked(found, needle, RANK.wordPrefixes) >= limit) return found
      if (q === query && rows.length < n) break
    }
  }
  if (countRanked(found, needle, RANK.substring) >= limit) return found
  for (const row of await mpnCandidateRows(ex, `lower(m.part_number::text) ILIKE ? ESCAPE '\\' AND c.deleted_at IS NULL LIMIT ?`, [`%${likeEscape(text.toLowerCase())}%`, take + found.length])) {
    if (!seen.has(row.id)) found.push(row), seen.add(row.id)
  }
  return found
}
