import { foldKey } from '../../identifiers'
import type { ComponentListQuery } from '../../schemas/component'
import type { Dialect, SqlExecutor, SqlParam } from '../_internal/sql-executor'
import type { Page } from '../types'
import { decodeCursor, encodeCursor, placeholders } from './_shared'
import { loadComponentJsonList } from './component-core'

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
  return (await ex.dialect.viewPage(ex, { ...page, limit: query.limit })) ?? (await _computedPage(ex, query))
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
    const match = ex.dialect.textFilter(query.q)
    if (match === null) where.push('1 = 0')
    else {
      where.push(match.sql)
      params.push(...match.params)
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
  // Unfiltered, the live count is kept by triggers (each engine's schema.ts, component_totals): no
  // scan per page (decision 1203). Its one row is read by its key: on PostgreSQL every write that
  // adds or removes a component leaves a dead version of it, and a scan read them all (decision 0311).
  const unfiltered = where.length === 1 && where[0] === 'c.deleted_at IS NULL'
  const totalSql = unfiltered ? '(SELECT live FROM component_totals WHERE id = 1)' : `(SELECT count(*) FROM components c ${filter})`

  const desc = query.sort.startsWith('-')
  const sort = query.sort.replace('-', '') as keyof typeof SORT_COLUMNS
  const key = SORT_COLUMNS[sort](ex.dialect)
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
      const param = sort === 'name' ? ex.dialect.nocase('?') : '?'
      if (ex.dialect.rowValueCompare) {
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
  // for the values, and with `LIMIT $n` it never was, so every page was planned again (decision
  // 0308). SQLite keeps it bound: with a literal LIMIT 51 its planner sorted a page by ipn
  // through the live-ipn index and a temporary b-tree of every row (decision 0206).
  if (!Number.isSafeInteger(query.limit)) throw new Error(`[storage] not a page size: ${query.limit}`)
  const literal = ex.dialect.literalLimit
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
  id: () => 'c.id',
  name: (d: Dialect) => d.nocase('c.name'),
  ipn: () => 'c.ipn',
  updatedAt: () => 'c.updated_at',
} as const

/** The words of a text search (both engines): quotes, control characters and leading operators dropped; only words with a letter or digit. */
export function searchWords(text: string): string[] {
  return text
    .replace(/["\u0000-\u001f\u007f]/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^[*^-]+|[*]+$/g, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
}
