import type { SqlExecutor } from '../_internal/sql-executor'
import { chunks, likeEscape, placeholders } from './_shared'
import { toFtsMatch } from './component-query'
import { type Candidate, countRanked, type Needle, tierSize, toGramMatch } from './search-rank'

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

  for await (const chunk of _wordTierIds(ex, text, 'components_fts')) {
    found.push(...await loadComponentCandidates(ex, chunk.filter((id) => !ids.has(id))))
    chunk.forEach((id) => ids.add(id))
    if (countRanked(found, needle, 1) >= limit) return found
  }

  if (countRanked(found, needle, 2) >= limit) return found
  const like = `%${likeEscape(text)}%`
  const rows = await ex.all<{ id: string }>(
    `SELECT c.id AS id FROM components_grams g JOIN components c ON c.rowid = g.docid
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

  for await (const chunk of _wordTierIds(ex, text, 'mpns')) {
    for (const part of chunks(chunk)) found.push(...await mpnCandidateRows(ex, `m.component_id IN (${placeholders(part.length)})`, part))
    if (countRanked(found, needle, 1) >= limit) return found
  }

  if (countRanked(found, needle, 2) >= limit) return found
  const rows = await ex.all<{ id: string }>(
    `SELECT m.id AS id FROM components_grams g JOIN components c ON c.rowid = g.docid JOIN mpns m ON m.component_id = c.id
     WHERE components_grams MATCH ?1 AND c.deleted_at IS NULL AND m.part_number LIKE ?2 ESCAPE '\\' LIMIT ?3`,
    [toGramMatch(text), `%${likeEscape(text)}%`, take + found.length],
  )
  const ids = rows.map((r) => r.id)
  for (const part of chunks(ids)) found.push(...await mpnCandidateRows(ex, `m.id IN (${placeholders(part.length)})`, part))
  return found
}

/**
 * Live components whose words start with the query's words (a superset: see
 * WORD_TIER_MAX_ROWS), in chunks, by docid. `column` limits the match to the
 * part numbers.
 */
async function* _wordTierIds(ex: SqlExecutor, text: string, column: 'components_fts' | 'mpns'): AsyncGenerator<string[]> {
  const match = toFtsMatch(text)
  if (!match) return
  let after = 0
  for (let read = 0; read < WORD_TIER_MAX_ROWS; read += WORD_TIER_CHUNK) {
    const rows = await ex.all<{ id: string; docid: number }>(
      `SELECT c.id AS id, f.docid AS docid FROM components_fts f JOIN components c ON c.rowid = f.docid
       WHERE f.${column} MATCH ? AND f.docid > ? AND c.deleted_at IS NULL ORDER BY f.docid LIMIT ?`,
      [match, after, WORD_TIER_CHUNK],
    )
    if (rows.length === 0) return
    yield rows.map((r) => r.id)
    if (rows.length < WORD_TIER_CHUNK) return
    after = rows.at(-1)!.docid
  }
}

/** Components as suggestion candidates (name, ipn and part numbers ranked; the description for words). Both engines. */
export async function loadComponentCandidates(ex: SqlExecutor, ids: readonly string[]): Promise<Candidate[]> {
  const out: Candidate[] = []
  for (const part of chunks(ids)) out.push(...await componentCandidateRows(ex, `c.id IN (${placeholders(part.length)})`, part))
  return out
}

/** Components matching `where` (over `components c`) as suggestion candidates. Both engines. */
export async function componentCandidateRows(ex: SqlExecutor, where: string, params: readonly (string | number)[]): Promise<Candidate[]> {
  const rows = await ex.all<{ id: string; name: string; ipn: string; description: string | null; pns: string }>(
    `SELECT c.id, c.name, c.ipn, c.description, ${ex.dialect === 'sqlite' ? '(SELECT json_group_array(part_number) FROM mpns WHERE component_id = c.id)' : `(SELECT coalesce(json_agg(part_number ORDER BY position), '[]')::text FROM mpns WHERE component_id = c.id)`} AS pns
     FROM components c WHERE ${where}`,
    params,
  )
  return rows.map((r) => ({ id: r.id, entity: 'components', label: r.name, detail: r.ipn, texts: [r.name, r.ipn, ...(JSON.parse(r.pns) as string[])], extra: r.description ? [r.description] : [] }))
}

/** MPNs matching `where` as suggestion candidates, with their manufacturer and component. Both engines. */
export async function mpnCandidateRows(ex: SqlExecutor, where: string, params: (string | number)[]): Promise<Candidate[]> {
  return (await ex.all<{ id: string; part_number: string; manufacturer: string; ipn: string }>(
      `SELECT m.id, m.part_number, f.name AS manufacturer, c.ipn FROM mpns m JOIN manufacturers f ON f.id = m.manufacturer_id JOIN components c ON c.id = m.component_id WHERE ${where}`,
      params,
      ))
    .map((r) => ({ id: r.id, entity: 'mpns', label: r.part_number, detail: `${r.manufacturer} · ${r.ipn}`, texts: [r.part_number] }))
}
