import { foldKey } from '../../identifiers'
import type { ComponentListQuery } from '../../schemas'
import type { SqlExecutor, SqlParam } from '../_internal/sql-executor'
import type { Page } from '../types'
import { decodeCursor, encodeCursor, placeholders } from './_shared'
import { loadComponentJsonList } from './component-core'
import { PG_PART_WORDS, PG_WORDS, toTsQuery } from '../postgres/search'

// The query behind `components.list`, `listIds` and `listJson`: filters,
// sort and keyset cursor (`[sortValue, id]`, ties broken by id).

/**
 * The same page as queryComponentIds as one JSON array, in UTF-8 bytes: what
 * a response sends. One statement and one row: the page query gives the ids
 * in order (with the sort key and view_seq) beside what the cursor and the
 * total need. SQLite joins each row to the event that holds its view and
 * hands over the joined views as one BLOB. PostgreSQL hands over the events'
 * seqs, and the views come from the server's copies (postgres/views.ts). A
 * sort that needs a temporary b-tree sorts ids, never views.
 */
export async function queryComponentJsonPage(ex: SqlExecutor, query: ComponentListQuery): Promise<{ json: Uint8Array; total: number; nextCursor: string | null }> {
  const page = _pageQuery(ex, query)
  if (ex.dialect === 'postgres') {
    // The page's order and the seqs of the events holding its views, numbered in that order (which
    // string_agg follows), beside the total and the cursor: one statement, one row, 1.5 KB. The views
    // themselves come from the server's own copies by seq (postgres/views.ts), read only when missing.
    const row = (await ex.get<{ seqs: string | null; row_count: string; missing: string; last_id: string | null; last_k: string | null; n: number }>(
      `WITH p AS (${page.sql}),
       q AS (SELECT p.id, p.k, p.view_seq, row_number() OVER (ORDER BY ${page.outerOrder}) AS r FROM p)
       SELECT string_agg(q.view_seq::text, ',' ORDER BY q.r) FILTER (WHERE q.r <= ${query.limit}) AS seqs, count(*) AS row_count,
         count(*) FILTER (WHERE q.r <= ${query.limit} AND q.view_seq IS NULL) AS missing, max(q.id) FILTER (WHERE q.r = ${query.limit}) AS last_id,
         max(q.k::text) FILTER (WHERE q.r = ${query.limit}) AS last_k, ${page.totalSql} AS n
       FROM q`,
      [...page.params, ...page.totalParams],
    ))!
    if (Number(row.missing) > 0) return await _computedPage(ex, query)
    const seqs = row.seqs ? row.seqs.split(',').map(Number) : []
    const views = await ex.storedViews!(seqs)
    // An event loses its view only to a purge, which removes the component: one purged between the
    // page's statement and this read is left out, as a page read after it would. (The computed page
    // would take more statements, and PostgreSQL would then run every later page in a transaction.)
    return {
      json: _jsonArray(seqs.flatMap((seq) => views.get(seq) ?? [])),
      total: Number(row.n),
      nextCursor: Number(row.row_count) > query.limit && row.last_id !== null ? page.cursorOf(row.last_id, row.last_k) : null,
    }
  }
  // SQLite: the page query is the outer loop of the LEFT JOIN, so the rows, and what group_concat
  // joins, come in its order (the storage contract checks every sort, listJson against listIds).
  // A numbering window to cut the page at `limit` measured twice the cost of the whole read
  // (it materializes the views), so all `limit + 1` rows are joined and the last view is cut
  // off here, by the byte lengths SQLite gives.
  const row = (await ex.get<{ json: Buffer; row_count: number; present: number; ids: string | null; lengths: string | null; n: number }>(
    `SELECT CAST('[' || coalesce(group_concat(e.snapshot, ','), '') || ']' AS BLOB) AS json, count(*) AS row_count, count(e.snapshot) AS present,
       group_concat(p.id, ',') AS ids, group_concat(length(CAST(e.snapshot AS BLOB)), ',') AS lengths, ${page.totalSql} AS n
     FROM (${page.sql}) p LEFT JOIN component_events e ON e.seq = p.view_seq`,
    [...page.totalParams, ...page.params],
  ))!
  if (row.present < row.row_count) return await _computedPage(ex, query)
  if (row.row_count <= query.limit) return { json: row.json, total: row.n, nextCursor: null }
  // `[v1,…,vN,vN+1]`: the comma before the extra view becomes the closing bracket.
  const extra = Number(row.lengths!.slice(row.lengths!.lastIndexOf(',') + 1))
  const cut = row.json.byteLength - extra - 2
  row.json[cut] = 0x5d
  const ids = row.ids!.slice(0, row.ids!.lastIndexOf(','))
  const lastId = ids.slice(ids.lastIndexOf(',') + 1)
  return { json: row.json.subarray(0, cut + 1), total: row.n, nextCursor: page.cursorOf(lastId, await _sortValue(ex, page.key, lastId)) }
}

/** `[v1,v2,…]` from the views' bytes, in one allocation. */
function _jsonArray(views: readonly Uint8Array[]): Uint8Array {
  let length = 2 + Math.max(0, views.length - 1)
  for (const view of views) length += view.byteLength
  const out = Buffer.allocUnsafe(length)
  let at = 0
  out[at++] = 0x5b
  views.forEach((view, i) => {
    if (i > 0) out[at++] = 0x2c
    out.set(view, at)
    at += view.byteLength
  })
  out[at++] = 0x5d
  return out
}

/** The sort value of a component, for a cursor (the id itself when sorting by id). */
async function _sortValue(ex: SqlExecutor, key: string, id: string): Promise<string | null> {
  if (key === 'c.id') return id
  const row = await ex.get<{ k: string | number | null }>(`SELECT ${key} AS k FROM components c WHERE c.id = ?`, [id])
  return row?.k == null ? null : String(row.k)
}

/** A page whose components lack a stored view (not expected: see _storedViews), views computed. */
async function _computedPage(ex: SqlExecutor, query: ComponentListQuery): Promise<{ json: Uint8Array; total: number; nextCursor: string | null }> {
  const ids = await queryComponentIds(ex, query)
  return { json: Buffer.from(`[${(await loadComponentJsonList(ex, ids.items, true)).join(',')}]`, 'utf8'), total: ids.total, nextCursor: ids.nextCursor }
}

async function _total(ex: SqlExecutor, page: { totalSql: string; totalParams: SqlParam[] }): Promise<number> {
  return (await ex.get<{ n: number }>(`SELECT ${page.totalSql} AS n`, page.totalParams))!.n
}

export async function queryComponentIds(ex: SqlExecutor, query: ComponentListQuery): Promise<Page<string>> {
  const page = _pageQuery(ex, query)
  const total = await _total(ex, page)
  const rows = await ex.all<{ id: string; k: string | null }>(page.sql, page.params)
  const more = rows.length > query.limit
  if (more) rows.pop()
  const last = rows.at(-1)
  return { items: rows.map((r) => r.id), total, nextCursor: more && last ? page.cursorOf(last.id, last.k) : null }
}

/**
 * The query for a page of ids (`id`, the sort key `k`, `view_seq`), `limit + 1`
 * rows to tell whether more follow; the scalar subquery of the total it counts
 * from; and the cursor that continues after a row.
 */
function _pageQuery(
  ex: SqlExecutor,
  query: ComponentListQuery,
): { sql: string; params: SqlParam[]; totalSql: string; totalParams: SqlParam[]; cursorOf: (id: string, k: string | null) => string; key: string; outerOrder: string } {
  const where: string[] = []
  const params: SqlParam[] = []
  if (!query.includeDeleted) where.push('c.deleted_at IS NULL')
  if (query.q) {
    const match = ex.dialect === 'sqlite' ? toFtsMatch(query.q) : toTsQuery(query.q)
    if (match === null) where.push('1 = 0')
    else if (ex.dialect === 'sqlite') {
      where.push('c.rowid IN (SELECT docid FROM components_fts WHERE components_fts MATCH ?)')
      params.push(match)
    } else {
      where.push(`(${PG_WORDS('c')} @@ ?::tsquery OR EXISTS (SELECT 1 FROM mpns m WHERE m.component_id = c.id AND ${PG_PART_WORDS('m')} @@ ?::tsquery))`)
      params.push(match, match)
    }
  }
  if (query.status?.length) {
    where.push(`c.status IN (${placeholders(query.status.length)})`)
    params.push(...query.status)
  }
  if (query.tag) {
    where.push('EXISTS (SELECT 1 FROM component_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.component_id = c.id AND t.name_key = ?)')
    params.push(foldKey(query.tag))
  }
  if (query.category) {
    // Categories are paths (Passives/Resistors/Thick film): a category takes in its descendants. Plain SQL, no SQLite-only syntax.
    const category = query.category.replace(/\/+$/, '')
    where.push('(lower(c.category) = lower(?) OR lower(substr(c.category, 1, ?)) = lower(?))')
    params.push(category, [...category].length + 1, `${category}/`)
  }
  if (query.manufacturer) {
    where.push('EXISTS (SELECT 1 FROM mpns m JOIN manufacturers f ON f.id = m.manufacturer_id WHERE m.component_id = c.id AND f.name_key = ?)')
    params.push(foldKey(query.manufacturer))
  }
  if (query.symbolId) {
    where.push('EXISTS (SELECT 1 FROM component_symbols l WHERE l.component_id = c.id AND l.item_id = ?)')
    params.push(query.symbolId)
  }
  if (query.footprintId) {
    where.push('EXISTS (SELECT 1 FROM component_footprints l WHERE l.component_id = c.id AND l.item_id = ?)')
    params.push(query.footprintId)
  }
  if (query.locationId) {
    where.push('EXISTS (SELECT 1 FROM stock s WHERE s.component_id = c.id AND s.location_id = ?)')
    params.push(query.locationId)
  }
  if (query.updatedSince) {
    where.push('c.updated_at >= ?')
    params.push(query.updatedSince)
  }
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : ''
  // Unfiltered, the live count is kept by triggers (schema.ts, component_totals): no scan per page.
  // Its one row is read by its key: on PostgreSQL every write that adds or removes a component
  // leaves a dead version of it, and a scan read all their pages (541 after a copy, a quarter of a page's time).
  const unfiltered = where.length === 1 && where[0] === 'c.deleted_at IS NULL'
  const totalSql = unfiltered ? '(SELECT live FROM component_totals WHERE id = 1)' : `(SELECT count(*) FROM components c ${filter})`

  const desc = query.sort.startsWith('-')
  const key = SORT_COLUMNS[query.sort.replace('-', '') as keyof typeof SORT_COLUMNS]
  const keyed = [...where]
  const keyedParams = [...params]
  if (query.cursor) {
    const op = desc ? '<' : '>'
    if (key === 'c.id') {
      const [id] = decodeCursor(query.cursor, 1)
      keyed.push(`c.id ${op} ?`)
      keyedParams.push(id as string)
    } else {
      const [value, id] = decodeCursor(query.cursor, 2)
      const param = key.endsWith('COLLATE NOCASE') ? '? COLLATE NOCASE' : '?'
      if (ex.dialect === 'postgres') {
        // A row comparison is one condition on the (key, id) index, and PostgreSQL keeps one plan
        // for it; the OR below made the generic plan look costlier, so every later page was planned.
        keyed.push(`(${key}, c.id) ${op} (${param}, ?)`)
        keyedParams.push(value, id as string)
      } else {
        keyed.push(`(${key} ${op} ${param} OR (${key} = ${param} AND c.id ${op} ?))`)
        keyedParams.push(value, value, id as string)
      }
    }
  }
  const dir = desc ? 'DESC' : 'ASC'
  const order = key === 'c.id' ? `c.id ${dir}` : `${key} ${dir}, c.id ${dir}`
  // On PostgreSQL the limit is written into the text (an integer the query schema checked), not
  // bound: it plans a prepared statement once only when its generic plan is no costlier than a plan
  // for the values, and with `LIMIT $n` it never was, so every page was planned again (a fifth of
  // its time). SQLite keeps it bound: with a literal LIMIT 51 its planner sorted a page by ipn
  // through the live-ipn index and a temporary b-tree of every row (52 ms instead of 0.07).
  if (!Number.isSafeInteger(query.limit)) throw new Error(`[storage] not a page size: ${query.limit}`)
  const literal = ex.dialect === 'postgres'
  return {
    sql: `SELECT c.id AS id, ${key} AS k, c.view_seq AS view_seq FROM components c ${keyed.length ? `WHERE ${keyed.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ${literal ? query.limit + 1 : '?'}`,
    params: literal ? keyedParams : [...keyedParams, query.limit + 1],
    totalSql,
    totalParams: unfiltered ? [] : params,
    cursorOf: (id, k) => encodeCursor(key === 'c.id' ? [id] : [k, id]),
    key,
    // The page query's columns keep its comparison (lower() on PostgreSQL).
    outerOrder: key === 'c.id' ? `p.id ${dir}` : `p.k ${dir}, p.id ${dir}`,
  }
}

const SORT_COLUMNS = {
  id: 'c.id',
  name: 'c.name COLLATE NOCASE',
  ipn: 'c.ipn',
  updatedAt: 'c.updated_at',
} as const

/**
 * Turns user text into an FTS4 query: every word must match as a prefix.
 * Quotes are dropped and each word is quoted, so no input can be FTS syntax.
 * Control characters separate words too: SQLite reads the MATCH text as a C
 * string, so a NUL inside a quoted word cut it short and left a dangling quote.
 * Returns null when nothing searchable is left.
 */
export function toFtsMatch(text: string): string | null {
  const words = searchWords(text)
  if (words.length === 0) return null
  return words.map((w) => `"${w}*"`).join(' ')
}

/** The words of a text search (both engines): quotes, control characters and leading operators dropped; only words with a letter or digit. */
export function searchWords(text: string): string[] {
  return text
    .replace(/["\u0000-\u001f\u007f]/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^[*^-]+|[*]+$/g, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
}
