import type { SqlExecutor } from '../_internal/sql-executor'
import { chunks, likeEscape } from '../sqlite/_shared'
import { searchWords } from '../sqlite/component-query'
import { loadComponentCandidates, mpnCandidateRows } from '../sqlite/search-candidates'
import { type Candidate, countRanked, type Needle, tierSize } from '../sqlite/search-rank'

/**
 * Search on PostgreSQL, with its own tools and the embedded engine's ranking
 * contract (search-rank.ts ranks the candidates both engines find): index
 * range scans for a whole-field prefix, a `simple` tsvector for word
 * prefixes, pg_trgm for a substring. The indexes are expressions over the
 * tables (postgres/schema.ts), so no write keeps a search table in step.
 */

/** A component's words, as indexed by components_words. */
export const PG_WORDS = (c: string) => `to_tsvector('simple', ${c}.name || ' ' || ${c}.ipn::text || ' ' || coalesce(${c}.description, ''))`
/** A part number's words, as indexed by mpns_words. */
export const PG_PART_WORDS = (m: string) => `to_tsvector('simple', ${m}.part_number::text)`

/** User text as a tsquery in which every word must start a word; null when nothing searchable is left. */
export function toTsQuery(text: string): string | null {
  const words = searchWords(text).map((w) => w.replace(/[^\p{L}\p{N}]+/gu, ' ').trim()).flatMap((w) => w.split(' ')).filter(Boolean)
  if (words.length === 0) return null
  return words.map((w) => `'${w.toLowerCase().replace(/'/g, "''").replace(/\\/g, '\\\\')}':*`).join(' & ')
}

/** Word-prefix hits are confirmed by the ranking; at most this many are read, a first chunk of WORD_TIER_CHUNK. */
const WORD_TIER_MAX_ROWS = 500
const WORD_TIER_CHUNK = 100

export async function pgComponentCandidates(ex: SqlExecutor, needle: Needle, limit: number): Promise<Candidate[]> {
  const take = tierSize(limit)
  const { text } = needle
  const hi = `${text}\uffff`
  const ids = new Set<string>()
  const add = (rows: { id: string }[]) => rows.forEach((r) => ids.add(r.id))
  add(await ex.all(`SELECT id FROM components WHERE name COLLATE NOCASE >= ? COLLATE NOCASE AND name COLLATE NOCASE < ? COLLATE NOCASE AND deleted_at IS NULL ORDER BY name COLLATE NOCASE LIMIT ?`, [text, hi, take]))
  add(await ex.all(`SELECT id FROM components WHERE ipn COLLATE NOCASE >= ? COLLATE NOCASE AND ipn COLLATE NOCASE < ? COLLATE NOCASE AND deleted_at IS NULL ORDER BY ipn COLLATE NOCASE LIMIT ?`, [text, hi, take]))
  add(
    await ex.all(
      `SELECT c.id AS id FROM mpns m JOIN components c ON c.id = m.component_id WHERE m.part_number COLLATE NOCASE >= ? COLLATE NOCASE AND m.part_number COLLATE NOCASE < ? COLLATE NOCASE AND c.deleted_at IS NULL ORDER BY m.part_number COLLATE NOCASE LIMIT ?`,
      [text, hi, take],
    ),
  )
  const found = await loadComponentCandidates(ex, [...ids])
  if (ids.size >= limit) return found

  const query = toTsQuery(text)
  if (query) {
    // UNION ALL, each side on its own GIN index and LIMITed, so the read stops at the limit
    // rows (a UNION hashed every match first: 22 ms for `47k` at 100,000).
    // The ids come in one read; their candidates are loaded WORD_TIER_CHUNK at a time, until enough rank.
    const rows = await ex.all<{ id: string }>(
      `(SELECT c.id AS id FROM components c WHERE c.deleted_at IS NULL AND ${PG_WORDS('c')} @@ ?1::tsquery LIMIT ?2)
       UNION ALL (SELECT c.id FROM mpns m JOIN components c ON c.id = m.component_id WHERE c.deleted_at IS NULL AND ${PG_PART_WORDS('m')} @@ ?1::tsquery LIMIT ?2)`,
      [query, WORD_TIER_MAX_ROWS],
    )
    const fresh = _unseen(rows, ids)
    fresh.forEach((id) => ids.add(id))
    for (const chunk of chunks(fresh, WORD_TIER_CHUNK)) {
      found.push(...(await loadComponentCandidates(ex, chunk)))
      if (countRanked(found, needle, 1) >= limit) return found
    }
  }

  if (countRanked(found, needle, 2) >= limit) return found
  const like = `%${likeEscape(text.toLowerCase())}%`
  // Each side on its own trigram index, as above.
  const rows = await ex.all<{ id: string }>(
    `(SELECT c.id AS id FROM components c WHERE c.deleted_at IS NULL AND (lower(c.name) || ' ' || lower(c.ipn::text)) LIKE ?1 ESCAPE '\\' LIMIT ?2)
     UNION ALL (SELECT c.id FROM mpns m JOIN components c ON c.id = m.component_id WHERE c.deleted_at IS NULL AND lower(m.part_number::text) LIKE ?1 ESCAPE '\\' LIMIT ?2)`,
    [like, take + ids.size],
  )
  found.push(...(await loadComponentCandidates(ex, _unseen(rows, ids))))
  return found
}

/** The ids of `rows` not in `seen`, each once (a UNION ALL can give one twice). */
function _unseen(rows: readonly { id: string }[], seen: ReadonlySet<string>): string[] {
  return [...new Set(rows.map((r) => r.id))].filter((id) => !seen.has(id))
}

export async function pgMpnCandidates(ex: SqlExecutor, needle: Needle, limit: number): Promise<Candidate[]> {
  const take = tierSize(limit)
  const { text } = needle
  const found = await mpnCandidateRows(ex, `m.part_number COLLATE NOCASE >= ? COLLATE NOCASE AND m.part_number COLLATE NOCASE < ? COLLATE NOCASE AND c.deleted_at IS NULL ORDER BY m.part_number COLLATE NOCASE LIMIT ?`, [text, `${text}\uffff`, take])
  if (found.length >= limit) return found
  const seen = new Set(found.map((f) => f.id))
  const query = toTsQuery(text)
  if (query) {
    for (const row of await mpnCandidateRows(ex, `${PG_PART_WORDS('m')} @@ ?::tsquery AND c.deleted_at IS NULL LIMIT ?`, [query, WORD_TIER_MAX_ROWS])) {
      if (!seen.has(row.id)) found.push(row), seen.add(row.id)
    }
    if (countRanked(found, needle, 1) >= limit) return found
  }
  if (countRanked(found, needle, 2) >= limit) return found
  for (const row of await mpnCandidateRows(ex, `lower(m.part_number::text) LIKE ? ESCAPE '\\' AND c.deleted_at IS NULL LIMIT ?`, [`%${likeEscape(text.toLowerCase())}%`, take + found.length])) {
    if (!seen.has(row.id)) found.push(row), seen.add(row.id)
  }
  return found
}
