import type { Dialect, SqlExecutor, ViewPageQuery } from '../_internal/sql-executor'
import { componentCandidates, mpnCandidates, reindexComponent, textFilter, unindexComponent } from './search'

/** What SQLite says its own way (the seam: Dialect, _internal/sql-executor.ts). */
export const sqliteDialect: Dialect = {
  name: 'sqlite',

  nocase: (expr) => `${expr} COLLATE NOCASE`,
  // SQLite's LIKE ignores case (ASCII letters), as the stores want.
  ilike: 'LIKE',
  // better-sqlite3 hands a BLOB over as a Buffer without decoding it.
  bytes: (expr) => `CAST(${expr} AS BLOB)`,
  byteLength: (expr) => `length(CAST(${expr} AS BLOB))`,

  jsonTexts: (json, alias) => `json_each(${json}) ${alias}`,
  jsonTextsOrdered: (json, alias) => `json_each(${json}) ${alias}`,
  jsonObject: (pairs) => `json_object(${pairs.map(([key, expr]) => `'${key}', ${expr}`).join(', ')})`,
  // json(): a subquery's result loses its JSON subtype, and json_object would embed it as a string.
  jsonArrayOf: (expr, orderBy, from) => `json((SELECT json_group_array(${expr} ORDER BY ${orderBy}) ${from}))`,
  jsonBoolean: (expr) => `json(CASE WHEN ${expr} THEN 'true' ELSE 'false' END)`,
  jsonText: (expr) => expr,
  concatInOrder: (expr, separator) => `group_concat(${expr}, ${separator})`,
  jsonRecords: (json, alias) => `json_each(${json}) ${alias}`,
  // The column compared with decides the collation (part numbers are NOCASE columns).
  jsonField: (record, field) => `json_extract(${record}.value, '$.${field}')`,

  plannerHasStatistics: false,
  indexedBy: (index) => ` INDEXED BY ${index}`,
  literalLimit: false,
  rowValueCompare: false,
  // SQLite's RETURNING cannot name the table by an alias.
  updateReturningAlias: false,
  writableCte: false,
  databaseBytes: '(SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size())',
  highestDefaultIpn: `SELECT substr(ipn_key, 5) AS digits FROM components
    WHERE ipn_key GLOB 'cmp-[0-9]*' AND substr(ipn_key, 5) NOT GLOB '*[^0-9]*'
    ORDER BY CAST(substr(ipn_key, 5) AS INTEGER) DESC LIMIT 1`,

  textFilter,
  componentCandidates,
  mpnCandidates,
  reindexComponent,
  unindexComponent,
  viewPage: _viewPage,

  // SQLITE_MAX_VARIABLE_NUMBER, unless SQLite was built with another.
  parameterLimit: 32_766,
  tables: _tables,
  parents: async (ex, table) => (await ex.all<{ parent: string }>(`SELECT "table" AS parent FROM pragma_foreign_key_list(?)`, [table])).map((r) => r.parent),
  selfReferences: async (ex, table) =>
    (await ex.all<{ column: string }>(`SELECT "from" AS "column" FROM pragma_foreign_key_list(?) WHERE "table" = ?`, [table, table])).map((r) => r.column),
  insertKeepingIds: (table, columns, rows) => `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${_rows(columns.length, rows)}`,
  beforeLoad: async () => {},
  // The full-text tables are the engine's own: built from the copied rows.
  afterLoad: async (ex) => {
    for (const { id } of await ex.all<{ id: string }>('SELECT id FROM components')) await reindexComponent(ex, id)
  },
}

/**
 * The page as one statement and one row. The page query is the outer loop of
 * the LEFT JOIN, so the rows, and what group_concat joins, come in its order
 * (the storage contract checks every sort, listJson against listIds). A
 * numbering window to cut the page at `limit` materialized every view, so all
 * `limit + 1` rows are joined and the last view is cut off here, by the byte
 * lengths SQLite gives.
 */
async function _viewPage(ex: SqlExecutor, page: ViewPageQuery): Promise<{ json: Uint8Array; total: number; nextCursor: string | null } | undefined> {
  const row = (await ex.get<{ json: Buffer; row_count: number; present: number; ids: string | null; lengths: string | null; n: number }>(
    `SELECT CAST('[' || coalesce(group_concat(e.snapshot, ','), '') || ']' AS BLOB) AS json, count(*) AS row_count, count(e.snapshot) AS present,
       group_concat(p.id, ',') AS ids, group_concat(length(CAST(e.snapshot AS BLOB)), ',') AS lengths, ${page.totalSql} AS n
     FROM (${page.sql}) p LEFT JOIN component_events e ON e.seq = p.view_seq`,
    [...page.totalParams, ...page.params],
  ))!
  if (row.present < row.row_count) return undefined
  if (row.row_count <= page.limit) return { json: row.json, total: row.n, nextCursor: null }
  // `[v1,…,vN,vN+1]`: the comma before the extra view becomes the closing bracket.
  const extra = Number(row.lengths!.slice(row.lengths!.lastIndexOf(',') + 1))
  const cut = row.json.byteLength - extra - 2
  row.json[cut] = 0x5d
  const ids = row.ids!.slice(0, row.ids!.lastIndexOf(','))
  const lastId = ids.slice(ids.lastIndexOf(',') + 1)
  return { json: row.json.subarray(0, cut + 1), total: row.n, nextCursor: page.cursorOf(lastId, await _sortValue(ex, page.key, lastId)) }
}

/** The sort value of a component, for a cursor (the id itself when sorting by id). */
async function _sortValue(ex: SqlExecutor, key: string, id: string): Promise<string | null> {
  if (key === 'c.id') return id
  const row = await ex.get<{ k: string | number | null }>(`SELECT ${key} AS k FROM components c WHERE c.id = ?`, [id])
  return row?.k == null ? null : String(row.k)
}

/** Tables derived from others (search, the live count) or the engine's own: never copied. */
const _DERIVED = /^(meta|component_totals|blobs|sqlite_.*|components_fts.*|components_terms|mpn_terms|mpn_words.*|components_grams.*|mpn_grams.*)$/

async function _tables(ex: SqlExecutor): Promise<Map<string, { columns: string[]; key: string[] }>> {
  const out = new Map<string, { columns: string[]; key: string[] }>()
  for (const { name } of await ex.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`)) {
    if (_DERIVED.test(name)) continue
    const info = await ex.all<{ name: string; pk: number }>(`SELECT name, pk FROM pragma_table_info(?) ORDER BY cid`, [name])
    const primary = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name)
    out.set(name, { columns: info.map((c) => c.name), key: primary.length ? primary : [info[0]!.name] })
  }
  return out
}

function _rows(columns: number, rows: number): string {
  const row = `(${new Array(columns).fill('?').join(', ')})`
  return Array.from({ length: rows }, () => row).join(', ')
}
