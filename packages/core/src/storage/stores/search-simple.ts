import type { SqlExecutor } from '../_internal/sql-executor'
import type { SuggestEntity, Suggestion } from '../types'
import { likeEscape, placeholders } from './_shared'
import { type Candidate, countRanked, finish, type Needle, RANK, tierSize } from './search-rank'

/**
 * Suggestions for the catalog tables (symbols, footprints, manufacturers,
 * tags, locations): thousands of rows at most, so a name-prefix range scan,
 * then, while fewer than `limit` rank before a substring, a bounded LIKE scan.
 */

type SimpleEntity = Exclude<SuggestEntity, 'components' | 'mpns'>

/** The substring scan reads at most this many matching rows; ranking picks among them. */
const SCAN_ROWS = 2000

export async function suggestSimple(ex: SqlExecutor, entity: SimpleEntity, needle: Needle, limit: number): Promise<Suggestion[]> {
  const source = SOURCES[entity]
  const like = `%${likeEscape(needle.text)}%`
  const scan = `(${source.likeColumns.map((c) => `${c} ${ex.dialect.ilike} ? ESCAPE '\\'`).join(' OR ')}) LIMIT ?`
  let found = await source.rows(ex, `${ex.dialect.nocase('name')} >= ${ex.dialect.nocase('?')} AND ${ex.dialect.nocase('name')} < ${ex.dialect.nocase('?')} ORDER BY ${ex.dialect.nocase('name')} LIMIT ?`, [needle.text, `${needle.text}\uffff`, tierSize(limit)])
  if (countRanked(found, needle, RANK.fieldPrefix) < limit) found = found.concat(await source.rows(ex, scan, [...source.likeColumns.map(() => like), SCAN_ROWS]))
  const best = finish(found, needle, limit)
  return source.detail ? await source.detail(ex, best) : best
}

interface _Source {
  rows(ex: SqlExecutor, where: string, params: (string | number)[]): Promise<Candidate[]>
  /** The columns the substring scan looks in. */
  likeColumns: readonly string[]
  /** Adds details that cost a query each, to the final few only. */
  detail?: (ex: SqlExecutor, best: Suggestion[]) => Promise<Suggestion[]>
}

const SOURCES: Record<SimpleEntity, _Source> = {
  symbols: _libraryItems('symbols'),
  footprints: _libraryItems('footprints'),
  manufacturers: {
    rows: async (ex, where, params) =>
      (await ex.all<{ id: string; name: string; aliases: string }>(`SELECT id, name, aliases FROM manufacturers WHERE ${where}`, params))
        .map((r) => ({ id: r.id, entity: 'manufacturers', label: r.name, texts: [r.name, ...(JSON.parse(r.aliases) as string[])] })),
    // aliases is JSON text: a hit on its quotes or commas is dropped by the ranking.
    likeColumns: ['name', 'aliases'],
  },
  tags: {
    rows: async (ex, where, params) => (await ex.all<{ id: string; name: string }>(`SELECT id, name FROM tags WHERE ${where}`, params)).map((r) => ({ id: r.id, entity: 'tags', label: r.name, texts: [r.name] })),
    likeColumns: ['name'],
    detail: _tagDetails,
  },
  locations: {
    rows: async (ex, where, params) =>
      (await ex.all<{ id: string; name: string }>(`SELECT id, name FROM locations WHERE ${where}`, params)).map((r) => ({ id: r.id, entity: 'locations', label: r.name, texts: [r.name] })),
    likeColumns: ['name'],
    async detail(ex, best) {
      const out: Suggestion[] = []
      for (const s of best) out.push({ ...s, detail: await _locationPath(ex, s.id) })
      return out
    },
  },
}

function _libraryItems(table: 'symbols' | 'footprints'): _Source {
  return {
    rows: async (ex, where, params) =>
      (await ex.all<{ id: string; name: string; library: string | null }>(`SELECT id, name, library FROM ${table} WHERE ${where}`, params))
        .map((r) => (r.library === null ? { id: r.id, entity: table, label: r.name, texts: [r.name] } : { id: r.id, entity: table, label: r.name, detail: r.library, texts: [r.name] })),
    likeColumns: ['name'],
  }
}

/**
 * Live components per tag: all links (an index range count each) minus those
 * of deleted components, counted in one pass over the few deleted ones.
 */
async function _tagDetails(ex: SqlExecutor, best: Suggestion[]): Promise<Suggestion[]> {
  if (best.length === 0) return best
  const ids = best.map((s) => s.id)
  const deleted = new Map(
    (await ex.all<{ tag_id: string; n: number }>(
        // CROSS JOIN keeps the deleted components (components_deleted index) as the outer loop.
        `SELECT ct.tag_id, count(*) AS n FROM components c CROSS JOIN component_tags ct
         WHERE c.deleted_at IS NOT NULL AND ct.component_id = c.id AND ct.tag_id IN (${placeholders(ids.length)}) GROUP BY ct.tag_id`,
        ids,
            ))
      .map((r) => [r.tag_id, r.n]),
  )
  const out: Suggestion[] = []
  for (const s of best) {
    const all = (await ex.get<{ n: number }>('SELECT count(*) AS n FROM component_tags WHERE tag_id = ?', [s.id]))!.n
    out.push({ ...s, detail: `${all - (deleted.get(s.id) ?? 0)} components` })
  }
  return out
}

/** `Shelf A / Drawer 3 / Bin 12`: the names from the root down. */
async function _locationPath(ex: SqlExecutor, id: string): Promise<string> {
  const rows = await ex.all<{ name: string }>(
    `WITH RECURSIVE up(id, parent_id, name, depth) AS (
       SELECT id, parent_id, name, 0 FROM locations WHERE id = ?
       UNION ALL SELECT l.id, l.parent_id, l.name, up.depth + 1 FROM locations l JOIN up ON l.id = up.parent_id WHERE up.depth < 64
     ) SELECT name FROM up ORDER BY depth DESC`,
    [id],
  )
  return rows.map((r) => r.name).join(' / ')
}
