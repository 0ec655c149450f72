import type { Candidate, Needle } from '../stores/search-rank'
import type { Component } from '../../schemas/component'

export type SqlParam = string | number | null | Uint8Array | boolean | undefined
export type SqlValue = string | number | bigint | null | Uint8Array
export type SqlRow = Record<string, SqlValue>

/** A value, or a promise of it: what an engine-neutral store awaits. */
export type Awaitable<T> = T | Promise<T>

/**
 * The SQL surface the stores are written against, shared by the engines: the
 * embedded one answers at once (better-sqlite3 is synchronous: SyncSqlExecutor),
 * a client/server one answers with promises, and stores `await` every call.
 * `run` is for statements that write; `all`, `get` and `bytesRow` only read: a
 * statement that writes is refused there before it runs, since a write belongs
 * to the transaction that `run` begins.
 */
export interface SqlExecutor {
  /**
   * What this engine says its own way. Stores write the SQL every engine
   * runs and ask the dialect for the rest (dialect.ts); the PostgreSQL
   * executor only numbers the `?` parameters on the way (postgres/sql.ts).
   */
  readonly dialect: Dialect
  run(sql: string, params?: readonly SqlParam[]): Awaitable<{ changes: number }>
  all<T = SqlRow>(sql: string, params?: readonly SqlParam[]): Awaitable<T[]>
  get<T = SqlRow>(sql: string, params?: readonly SqlParam[]): Awaitable<T | undefined>
  /**
   * The first row (undefined without one): column 0 as its UTF-8 bytes (null
   * for NULL), the other columns as numbers. For texts that go out as they
   * are stored, such as a response body. Parameters: no blobs.
   */
  bytesRow(sql: string, params?: readonly SqlParam[]): Awaitable<BytesRow | undefined>
  /**
   * PostgreSQL only: the stored component views of these history seqs, as
   * UTF-8 bytes, from the server's own copies where it has them (postgres/
   * views.ts). Views of events never change, so this read needs no snapshot
   * and does not count as a statement of the read it serves.
   */
  storedViews?(seqs: readonly number[]): Promise<Map<number, Uint8Array>>
}

/** The embedded engine's executor: every call answers at once (migrations rely on it). */
export interface SyncSqlExecutor extends SqlExecutor {
  run(sql: string, params?: readonly SqlParam[]): { changes: number }
  all<T = SqlRow>(sql: string, params?: readonly SqlParam[]): T[]
  get<T = SqlRow>(sql: string, params?: readonly SqlParam[]): T | undefined
  bytesRow(sql: string, params?: readonly SqlParam[]): BytesRow | undefined
}

export interface BytesRow {
  bytes: Uint8Array | null
  numbers: number[]
}

/**
 * The seam between the engine-neutral stores (storage/stores/) and an engine
 * (storage/sqlite/, storage/postgres/): the few things SQLite and PostgreSQL
 * say differently, as named hooks, in the manner of kysely's query compilers.
 * Stores write the SQL both engines share and ask the executor's dialect for
 * the rest; an engine's executor carries its dialect (`ex.dialect`). Stores
 * never branch on an engine's name (decision 0100).
 */
/**
 * The list's text filter: `sql` tests a part of `components c`; `driver`, where
 * the engine keeps an index that lists the matches (alias `d`, joined to `c`
 * by `join`), is what component-query.ts may count and page from.
 */
export interface TextFilter {
  sql: string
  params: SqlParam[]
  driver?: { from: string; sql: string; params: SqlParam[]; join: string }
  /**
   * Where `sql` tests each part on its own at a cost (a lookup in the index
   * per part): the same test of the part whose rowid is `rowid`, and the same
   * filter as one copy of every match, cheap per part once made; both take
   * `params`.
   */
  perPart?: { test: (rowid: string) => string; copied: string }
}

export interface Dialect {
  /** The engine's name, for messages and debugging; stores never branch on it. */
  readonly name: 'sqlite' | 'postgres'

  // --- text ---------------------------------------------------------------
  /** `expr` as compared case-insensitively, code point by code point (SQLite's NOCASE). A `?` parameter may be given. */
  nocase(expr: string): string
  /** The pattern operator that ignores case, used with `ESCAPE '\'`: `LIKE` or `ILIKE`. */
  readonly ilike: string
  /** `expr` (text) as the UTF-8 bytes a response sends, handed over undecoded where the driver can (asBytes reads it back). */
  bytes(expr: string): string
  /** The length in UTF-8 bytes of `expr` (text). */
  byteLength(expr: string): string

  // --- JSON ---------------------------------------------------------------
  /** A table expression `alias` over the texts of the JSON array `json` (a column or a `?`), one row per element as `alias.value`. */
  jsonTexts(json: string, alias: string): string
  /** jsonTexts with each element's position as `alias.key`, to order by. */
  jsonTextsOrdered(json: string, alias: string): string
  /** A JSON object from key/expression pairs, the keys in this order. */
  jsonObject(pairs: ReadonlyArray<readonly [key: string, expr: string]>): string
  /** The JSON array of `expr` over the rows of `from` (a `FROM … WHERE …` clause), in `orderBy` order; `[]` for none. A value of jsonObject. */
  jsonArrayOf(expr: string, orderBy: string, from: string): string
  /** A 0/1 integer expression as a JSON boolean, a value of jsonObject. */
  jsonBoolean(expr: string): string
  /** A jsonObject expression as text. */
  jsonText(expr: string): string
  /**
   * The texts of `expr` joined by `separator`, in the order of `orderBy`
   * (an aggregate). SQLite follows the rows' order in the query, which a
   * CROSS JOIN whose left side is the ordered list fixes (`orderBy` then
   * goes unused: an ORDER BY of its own sorted the rows in a temporary
   * b-tree); PostgreSQL orders the aggregate.
   */
  concatInOrder(expr: string, separator: string, orderBy: string): string
  /** A table expression `alias` over the objects of the JSON array `json`, one row per element as `alias.value` (read with jsonField). */
  jsonRecords(json: string, alias: string): string
  /**
   * Field `field` of a jsonRecords row: text, an integer, or text that
   * compares case-insensitively with the `nocase` columns (part numbers) so
   * that their index answers.
   */
  jsonField(record: string, field: string, type: 'text' | 'integer' | 'nocase'): string

  // --- statements ----------------------------------------------------------
  /**
   * Whether the engine's planner keeps statistics of the data (PostgreSQL) and
   * so picks where a filtered list starts by itself. SQLite's has none (nothing
   * runs ANALYZE): the store weighs the filters' indexes and counts first
   * (component-query.ts, decision 0209).
   */
  readonly plannerHasStatistics: boolean
  /**
   * A table's index named for the planner (after `FROM table alias`): SQLite's
   * `INDEXED BY`, nothing on PostgreSQL, whose planner keeps statistics of its
   * own. For a lookup per component whose condition also fits another index:
   * without statistics SQLite ranged over `(type, numeric)` once per component,
   * reading a parameter type's every value for each row (decision 0209).
   */
  indexedBy(index: string): string
  /**
   * Whether a page's LIMIT is written into the statement rather than bound.
   * PostgreSQL plans a prepared `LIMIT $n` on every call; SQLite's planner,
   * given a literal limit, chose worse plans for some sorts (decisions 0206 and 0308).
   */
  readonly literalLimit: boolean
  /** Whether keyset paging compares `(key, id)` as one row value (one index condition, one plan) rather than with an OR. */
  readonly rowValueCompare: boolean
  /** Whether `UPDATE … AS c … RETURNING <expr over c>` may name the table by its alias. */
  readonly updateReturningAlias: boolean
  /** Whether a data-modifying WITH clause can carry a second write in the same statement. */
  readonly writableCte: boolean
  /** The size of the database in bytes, as an expression. */
  readonly databaseBytes: string
  /** The statement giving `digits` of the highest `cmp-<digits>` ipn key, by its number, through the index the engine keeps for it. */
  readonly highestDefaultIpn: string

  // --- search --------------------------------------------------------------
  /** A filter over `components c` for the words of `q` (each a word prefix), or null when nothing searchable is left. */
  textFilter(ex: SqlExecutor, q: string): Promise<TextFilter | null>
  /** Suggestion candidates among components, cheapest tier first, while fewer than `limit` rank (stores/search-store.ts). */
  componentCandidates(ex: SqlExecutor, needle: Needle, limit: number): Promise<Candidate[]>
  /** Suggestion candidates among manufacturer part numbers. */
  mpnCandidates(ex: SqlExecutor, needle: Needle, limit: number): Promise<Candidate[]>
  /**
   * Re-writes the search entries the engine keeps of a component after a
   * write to it; `changes` names the fields the write changed (a field of its
   * words: name, ipn, description, mpns; touchComponent).
   */
  reindexComponent(ex: SqlExecutor, id: string, changes: readonly string[]): Promise<void>
  /**
   * The assignment that writes a component's words into its own row, by the
   * UPDATE that writes the change (PostgreSQL's words column), from the view
   * the change leads to; reindexComponent then has nothing to do. Undefined
   * where the engine keeps the words in tables of its own (SQLite).
   */
  componentWords?(view: Component): { sql: string; params: SqlParam[] }
  /**
   * The same words as SQL over the components row `alias` and its part
   * numbers, for an UPDATE of that row that leaves its own text alone.
   */
  componentWordsOfRow?(alias: string): string
  /** Drops those entries of a purged component. */
  unindexComponent(ex: SqlExecutor, rowid: number): Promise<void>
  /**
   * A page of component views as one JSON array in UTF-8 bytes, from the
   * page statement `page.sql` (rows `id`, `k`, `view_seq`, `limit + 1` of
   * them) and its total; undefined when a view is missing (the store then
   * computes the page). stores/component-query.ts builds the statement.
   */
  viewPage(ex: SqlExecutor, page: ViewPageQuery): Promise<{ json: Uint8Array; total: number; nextCursor: string | null } | undefined>

  // --- copy between engines (storage/copy.ts) -----------------------------
  /** Bound parameters one statement may carry. */
  readonly parameterLimit: number
  /** The library's tables with their columns and primary key, less those the engine derives (search tables). */
  tables(ex: SqlExecutor): Promise<Map<string, { columns: string[]; key: string[] }>>
  /** The tables `table`'s foreign keys point at. */
  parents(ex: SqlExecutor, table: string): Promise<string[]>
  /** Columns of `table` whose foreign key points at `table` itself. */
  selfReferences(ex: SqlExecutor, table: string): Promise<string[]>
  /** An INSERT of `rows` rows of `columns` that keeps the given values of identity columns. */
  insertKeepingIds(table: string, columns: readonly string[], rows: number): string
  /** Before a bulk load into an empty library (inside its transaction): turn off what the engine keeps row by row. */
  beforeLoad(ex: SqlExecutor): Promise<void>
  /** After it: set once what was turned off, rebuild derived tables. */
  afterLoad(ex: SqlExecutor): Promise<void>
}

/** What Dialect.viewPage reads a page from (stores/component-query.ts). */
export interface ViewPageQuery {
  /** The page statement: `id`, the sort key `k` and `view_seq`, `limit + 1` rows. */
  sql: string
  params: SqlParam[]
  /** A scalar subquery of the total, and its parameters. */
  totalSql: string
  totalParams: SqlParam[]
  /** The page's rows carry the total as a column `n`: totalSql is needed only when there are none. */
  totalInRows?: boolean
  limit: number
  /** The sort key's expression over `components c`. */
  key: string
  /** The ORDER BY of the page over its own columns `p.k`, `p.id`. */
  outerOrder: string
  cursorOf(id: string, k: string | null): string
}
