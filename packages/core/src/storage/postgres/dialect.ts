import type { Dialect, SqlExecutor, ViewPageQuery } from '../_internal/sql-executor'
import { changesWords } from '../stores/component-core'
import { componentWordsSql, wordsOf } from './schema'
import { pgComponentCandidates, pgMpnCandidates, toTsQuery } from './search'
import { nocase } from './sql'

/** What PostgreSQL says its own way (the seam: Dialect, _internal/sql-executor.ts). */
export const postgresDialect: Dialect = {
  name: 'postgres',

  nocase,
  ilike: 'ILIKE',
  // node-postgres decodes every field into a string anyway, and a bytea goes out in hex: twice
  // the bytes to write and parse. The text is kept; asBytes turns it into bytes.
  bytes: (expr) => expr,
  byteLength: (expr) => `octet_length(${expr})`,

  jsonTexts: (json, alias) => `json_array_elements_text(${_json(json)}) ${alias}(value)`,
  jsonTextsOrdered: (json, alias) => `json_array_elements_text(${_json(json)}) WITH ORDINALITY AS ${alias}(value, key)`,
  jsonObject: (pairs) => `json_build_object(${pairs.map(([key, expr]) => `'${key}', ${expr}`).join(', ')})`,
  jsonArrayOf: (expr, orderBy, from) => `(SELECT coalesce(json_agg(${expr} ORDER BY ${orderBy}), '[]') ${from})`,
  jsonBoolean: (expr) => `${expr} <> 0`,
  // As text: node-postgres would parse a json column into objects.
  jsonText: (expr) => `${expr}::text`,
  concatInOrder: (expr, separator, orderBy) => `string_agg(${expr}, ${separator} ORDER BY ${orderBy})`,
  jsonRecords: (json, alias) => `json_array_elements(${_json(json)}) ${alias}`,
  jsonField: (record, field, type) => {
    const value = `(${record}.value->>'${field}')`
    // citext: part numbers are citext columns, compared by their index.
    return type === 'integer' ? `${value}::int` : type === 'nocase' ? `${value}::citext` : value
  },

  plannerHasStatistics: true,
  indexedBy: () => '',
  literalLimit: true,
  rowValueCompare: true,
  updateReturningAlias: true,
  writableCte: true,
  databaseBytes: 'pg_database_size(current_database())',
  highestDefaultIpn: `SELECT substr(ipn_key, 5) AS digits FROM components WHERE ipn_key ~ '^cmp-[0-9]+$' ORDER BY substr(ipn_key, 5)::numeric DESC LIMIT 1`,

  textFilter: async (_ex, q) => {
    const match = toTsQuery(q)
    if (match === null) return null
    // One stored column, part numbers included: a test of each part is cheap, and the planner
    // estimates the words from that column's statistics (a rare word goes to the GIN index).
    return { sql: 'c.words @@ ?::tsquery', params: [match] }
  },
  componentCandidates: pgComponentCandidates,
  mpnCandidates: pgMpnCandidates,
  // The words column (schema.ts), written again only after a write to the text it comes from:
  // most writes (status, tags, parameters, stock) leave it alone, with no statement more.
  reindexComponent: async (ex, id, changes) => {
    if (!changesWords(changes)) return
    await ex.run(`UPDATE components c SET words = w.words FROM (SELECT ${componentWordsSql('x')} AS words FROM components x WHERE x.id = ?) w WHERE c.id = ? AND c.words IS DISTINCT FROM w.words`, [id, id])
  },
  // A patch of the row's own fields writes the words by its own UPDATE, from the view it leads
  // to: the same text as componentWordsSql, part numbers in the view's order.
  componentWords: (view) => ({
    sql: `words = ${wordsOf('?')}`,
    params: [[view.name, view.ipn, view.description ?? '', view.mpns.map((m) => m.partNumber).join(' ')].join(' ')],
  }),
  componentWordsOfRow: (alias) => componentWordsSql(alias),
  // The row goes, and its words with it.
  unindexComponent: async () => {},
  viewPage: _viewPage,

  // The protocol counts bound parameters in 16 bits.
  parameterLimit: 65_535,
  tables: _tables,
  parents: async (ex, table) =>
    (
      await ex.all<{ parent: string }>(
        `SELECT p.relname AS parent FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE k.contype = 'f' AND n.nspname = current_schema() AND c.relname = ?`,
        [table],
      )
    ).map((r) => r.parent),
  selfReferences: async (ex, table) =>
    (
      await ex.all<{ column: string }>(
        `SELECT a.attname AS "column" FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
           JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (k.conkey)
         WHERE k.contype = 'f' AND k.confrelid = k.conrelid AND n.nspname = current_schema() AND c.relname = ?`,
        [table],
      )
    ).map((r) => r.column),
  // Identity columns take the copied values.
  insertKeepingIds: (table, columns, rows) => {
    const row = `(${columns.map(() => '?').join(', ')})`
    return `INSERT INTO ${table} (${columns.join(', ')}) OVERRIDING SYSTEM VALUE VALUES ${Array.from({ length: rows }, () => row).join(', ')}`
  },
  // The row triggers that keep the live count and each component's view_seq are off for a load
  // and their results set once after it: the count's one row got a new version per component,
  // each update read every version before it, and the table kept them all.
  beforeLoad: async (ex) => {
    for (const [table, trigger] of _ROW_TRIGGERS) await ex.run(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`)
  },
  afterLoad: async (ex) => {
    await ex.run(
      `UPDATE components c SET view_seq = v.seq FROM (SELECT component_id, max(seq) AS seq FROM component_events WHERE snapshot IS NOT NULL GROUP BY component_id) v
       WHERE v.component_id = c.id AND c.view_seq IS DISTINCT FROM v.seq`,
    )
    await ex.run('UPDATE component_totals SET live = (SELECT count(*) FROM components WHERE deleted_at IS NULL) WHERE id = 1')
    // Rows from SQLite come without the words column; a PostgreSQL library brings its own.
    await ex.run(`UPDATE components c SET words = ${componentWordsSql('c')} WHERE c.words IS NULL`)
    for (const [table, trigger] of _ROW_TRIGGERS) await ex.run(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`)
    // Identity columns go on after the highest copied value.
    for (const { table, column } of await ex.all<{ table: string; column: string }>(
      `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'`,
    )) {
      await ex.get(`SELECT setval(pg_get_serial_sequence('${table}', '${column}'), coalesce((SELECT max(${column}) FROM ${table}), 0) + 1, false)`)
    }
  },
}

/** A `?` parameter is text to PostgreSQL until cast; a column is cast too (the JSON columns are text). */
function _json(expr: string): string {
  return `${expr}::json`
}

/**
 * The page's order and the seqs of the events holding its views, numbered in
 * that order (which string_agg follows), beside the total and the cursor: one
 * statement, one row. The views themselves come from the server's own copies
 * by seq (views.ts), read only when missing.
 */
async function _viewPage(ex: SqlExecutor, page: ViewPageQuery): Promise<{ json: Uint8Array; total: number; nextCursor: string | null } | undefined> {
  const row = (await ex.get<{ seqs: string | null; row_count: string; missing: string; last_id: string | null; last_k: string | null; n: number }>(
    `WITH p AS (${page.sql}),
     q AS (SELECT p.id, p.k, p.view_seq, ${page.totalInRows ? 'p.n' : 'NULL::bigint AS n'}, row_number() OVER (ORDER BY ${page.outerOrder}) AS r FROM p)
     SELECT string_agg(q.view_seq::text, ',' ORDER BY q.r) FILTER (WHERE q.r <= ${page.limit}) AS seqs, count(*) AS row_count,
       count(*) FILTER (WHERE q.r <= ${page.limit} AND q.view_seq IS NULL) AS missing, max(q.id) FILTER (WHERE q.r = ${page.limit}) AS last_id,
       max(q.k::text) FILTER (WHERE q.r = ${page.limit}) AS last_k, ${page.totalInRows ? `coalesce(max(q.n), ${page.totalSql})` : page.totalSql} AS n
     FROM q`,
    [...page.params, ...page.totalParams],
  ))!
  if (Number(row.missing) > 0) return undefined
  const seqs = row.seqs ? row.seqs.split(',').map(Number) : []
  const views = await ex.storedViews!(seqs)
  // An event loses its view only to a purge, which removes the component: one purged between the
  // page's statement and this read is left out, as a page read after it would. (The computed page
  // would take more statements, and every later page would then run in a transaction.)
  return {
    json: _jsonArray(seqs.flatMap((seq) => views.get(seq) ?? [])),
    total: Number(row.n),
    nextCursor: Number(row.row_count) > page.limit && row.last_id !== null ? page.cursorOf(row.last_id, row.last_k) : null,
  }
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

/** PostgreSQL's row triggers a load turns off, as [table, trigger] (schema.ts). */
const _ROW_TRIGGERS = [
  ['components', 'component_totals_count'],
  ['component_events', 'component_events_view'],
] as const

/** Tables derived from others (the live count) or the engine's own (attachment bytes): never copied. */
const _DERIVED = /^(meta|component_totals|blobs)$/

async function _tables(ex: SqlExecutor): Promise<Map<string, { columns: string[]; key: string[] }>> {
  const out = new Map<string, { columns: string[]; key: string[] }>()
  // Columns only one side has (components.rowid here) drop out where the copy intersects them.
  const columns = await ex.all<{ table: string; column: string }>(
    `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  )
  const keys = await ex.all<{ table: string; column: string }>(
    `SELECT c.relname AS "table", a.attname AS "column" FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
     WHERE i.indisprimary AND n.nspname = current_schema() ORDER BY c.relname, k.ord`,
  )
  for (const { table, column } of columns) {
    if (_DERIVED.test(table)) continue
    const entry = out.get(table) ?? { columns: [], key: [] }
    entry.columns.push(column)
    out.set(table, entry)
  }
  for (const [table, entry] of out) {
    const primary = keys.filter((k) => k.table === table).map((k) => k.column)
    entry.key = primary.length ? primary : [entry.columns[0]!]
  }
  return out
}
