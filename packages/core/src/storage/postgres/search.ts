import type { SqlExecutor } from '../_internal/sql-executor'
import { chunks, likeEscape, placeholders } from '../sqlite/_shared'
import { searchWords } from '../sqlite/component-query'
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

/** Word-prefix hits are confirmed by the ranking; at most this many are read. */
const WORD_TIER_MAX_ROWS = 500

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
  const found = await _loadComponents(ex, [...ids])
  if (ids.size >= limit) return found

  const query = toTsQuery(text)
  if (query) {
    const rows = await ex.all<{ id: string }>(
      `SELECT c.id AS id FROM components c WHERE c.deleted_at IS NULL AND (${PG_WORDS('c')} @@ ?::tsquery
         OR EXISTS (SELECT 1 FROM mpns m WHERE m.component_id = c.id AND ${PG_PART_WORDS('m')} @@ ?::tsquery)) LIMIT ?`,
      [query, query, WORD_TIER_MAX_ROWS],
    )
    const fresh = rows.map((r) => r.id).filter((id) => !ids.has(id))
    fresh.forEach((id) => ids.add(id))
    found.push(...(await _loadComponents(ex, fresh)))
    if (countRanked(found, needle, 1) >= limit) return found
  }

  if (countRanked(found, needle, 2) >= limit) return found
  const like = `%${likeEscape(text.toLowerCase())}%`
  const rows = await ex.all<{ id: string }>(
    `SELECT c.id AS id FROM components c
     WHERE c.deleted_at IS NULL AND ((lower(c.name) || ' ' || lower(c.ipn::text)) LIKE ?1 ESCAPE '\\'
       OR EXISTS (SELECT 1 FROM mpns m WHERE m.component_id = c.id AND lower(m.part_number::text) LIKE ?1 ESCAPE '\\'))
     LIMIT ?2`,
    [like, take + ids.size],
  )
  found.push(...(await _loadComponents(ex, rows.map((r) => r.id).filter((id) => !ids.has(id)))))
  return found
}

export async function pgMpnCandidates(ex: SqlExecutor, needle: Needle, limit: number): Promise<Candidate[]> {
  const take = tierSize(limit)
  const { text } = needle
  const found = await _mpnRows(ex, `m.part_number COLLATE NOCASE >= ? COLLATE NOCASE AND m.part_number COLLATE NOCASE < ? COLLATE NOCASE AND c.deleted_at IS NULL ORDER BY m.part_number COLLATE NOCASE LIMIT ?`, [text, `${text}\uffff`, take])
  if (found.length >= limit) return found
  const seen = new Set(found.map((f) => f.id))
  const query = toTsQuery(text)
  if (query) {
    for (const row of await _mpnRows(ex, `${PG_PART_WORDS('m')} @@ ?::tsquery AND c.deleted_at IS NULL LIMIT ?`, [query, WORD_TIER_MAX_ROWS])) {
      if (!seen.has(row.id)) found.push(row), seen.add(row.id)
    }
    if (countRanked(found, needle, 1) >= limit) return found
  }
  if (countRanked(found, needle, 2) >= limit) return found
  for (const row of await _mpnRows(ex, `lower(m.part_number::text) LIKE ? ESCAPE '\\' AND c.deleted_at IS NULL LIMIT ?`, [`%${likeEscape(text.toLowerCase())}%`, take + found.length])) {
    if (!seen.has(row.id)) found.push(row), seen.add(row.id)
  }
  return found
}

async function _loadComponents(ex: SqlExecutor, ids: readonly string[]): Promise<Candidate[]> {
  const out: Candidate[] = []
  for (const part of chunks(ids)) {
    const rows = await ex.all<{ id: string; name: string; ipn: string; description: string | null; pns: string }>(
      `SELECT c.id, c.name, c.ipn, c.description, (SELECT coalesce(json_agg(part_number ORDER BY position), '[]')::text FROM mpns WHERE component_id = c.id) AS pns
       FROM components c WHERE c.id IN (${placeholders(part.length)})`,
      part,
    )
    for (const r of rows) {
      out.push({ id: r.id, entity: 'components', label: r.name, detail: r.ipn, texts: [r.name, r.ipn, ...(JSON.parse(r.pns) as string[])], extra: r.description ? [r.description] : [] })
    }
  }
  return out
}

async function _mpnRows(ex: SqlExecutor, where: string, params: (string | number)[]): Promise<Candidate[]> {
  const rows = await ex.all<{ id: string; part_number: string; manufacturer: string; ipn: string }>(
    `SELECT m.id, m.part_number, f.name AS manufacturer, c.ipn FROM mpns m JOIN manufacturers f ON f.id = m.manufacturer_id JOIN components c ON c.id = m.component_id WHERE ${where}`,
    params,
  )
  return rows.map((r) => ({ id: r.id, entity: 'mpns', label: r.part_number, detail: `${r.manufacturer} · ${r.ipn}`, texts: [r.part_number] }))
}
