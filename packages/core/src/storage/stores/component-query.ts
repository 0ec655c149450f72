import { foldKey } from '../../identifiers'
import { COMPONENT_COUNT_BOUND, type ComponentExtra, type ComponentListQuery } from '../../schemas/component'
import type { SqlExecutor, SqlParam, TextFilter } from '../_internal/sql-executor'
import type { Page } from '../types'
import { categorySubtree, chunks, decodeCursor, encodeCursor, placeholders } from './_shared'
import { ComplibError } from '../../errors'
import { loadComponentJsonList } from './component-core'
import { sortKey, type SortKey } from './component-sort'

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
export async function queryComponentJsonPage(ex: SqlExecutor, query: ComponentListQuery): Promise<{ json: Uint8Array; total: number; totalBounded?: boolean; nextCursor: string | null }> {
  const first = await _pageQuery(ex, query)
  let page = first
  let found = await ex.dialect.viewPage(ex, { ...page, limit: query.limit })
  if (found && found.nextCursor === null && first.retry) {
    page = { ...first, ...first.retry }
    found = await ex.dialect.viewPage(ex, { ...page, limit: query.limit })
  }
  return found ? { ...found, ..._bounded(found.total, page.bounded) } : await _computedPage(ex, query)
}

/** A counted total as the page reports it: `COMPONENT_COUNT_BOUND` and bounded when the count reached past it. */
function _bounded(n: number, bounded: boolean): { total: number; totalBounded?: true } {
  return bounded && n > COMPONENT_COUNT_BOUND ? { total: COMPONENT_COUNT_BOUND, totalBounded: true } : { total: n }
}

/** A page whose components lack a stored view (not expected: see _storedViews), views computed. */
async function _computedPage(ex: SqlExecutor, query: ComponentListQuery): Promise<{ json: Uint8Array; total: number; totalBounded?: boolean; nextCursor: string | null }> {
  const { items, ...rest } = await queryComponentIds(ex, query)
  return { json: Buffer.from(`[${(await loadComponentJsonList(ex, items, true)).join(',')}]`, 'utf8'), ...rest }
}

async function _total(ex: SqlExecutor, page: { totalSql: string; totalParams: SqlParam[] }): Promise<number> {
  return (await ex.get<{ n: number }>(`SELECT ${page.totalSql} AS n`, page.totalParams))!.n
}

export async function queryComponentIds(ex: SqlExecutor, query: ComponentListQuery): Promise<Page<string>> {
  const page = await _pageQuery(ex, query)
  let rows = await ex.all<{ id: string; k: string | null }>(page.sql, page.params)
  if (rows.length <= query.limit && page.retry) rows = await ex.all<{ id: string; k: string | null }>(page.retry.sql, page.retry.params)
  const more = rows.length > query.limit
  if (more) rows.pop()
  // A first page that is also the last holds every match: its length is the exact count, whatever the bound.
  const counted = !query.cursor && !more ? { total: rows.length } : _bounded(await _total(ex, page), page.bounded)
  const last = rows.at(-1)
  return { items: rows.map((r) => r.id), ...counted, nextCursor: more && last ? page.cursorOf(last.id, last.k) : null }
}

/**
 * The query for a page of ids (`id`, the sort key `k`, `view_seq`), `limit + 1`
 * rows to tell whether more follow; the scalar subquery of the total it counts
 * from; and the cursor that continues after a row.
 */
async function _pageQuery(
  ex: SqlExecutor,
  query: ComponentListQuery,
): Promise<PageQuery> {
  // Each condition with its parameters, and the filter it tests when an index can list that
  // filter's parts (a driver, _cheapestDriver): a driver's own condition is not tested again.
  const conds: { sql: string; params: SqlParam[]; filter?: string }[] = []
  const add = (sql: string, params: SqlParam[] = [], filter?: string) => conds.push({ sql, params, filter })
  const deleted = query.deleted ?? (query.includeDeleted ? 'include' : 'exclude')
  if (deleted === 'exclude') add('c.deleted_at IS NULL')
  else if (deleted === 'only') add('c.deleted_at IS NOT NULL')
  let textDriver: Driver | undefined
  let text: TextFilter | null = null
  if (query.q) {
    text = await ex.dialect.textFilter(ex, query.q)
    if (text === null) add('1 = 0')
    else add(text.sql, text.params, 'text')
    if (text?.driver) textDriver = { ...text.driver, covers: 'text' }
  }
  if (query.status?.length) {
    // On SQLite a test of each row, which no index answers (`|| ''`): its planner, without
    // statistics, would sort every active part through the status index for a page; the index is
    // a driver. PostgreSQL weighs the index from its statistics: hidden from it, a status few parts
    // hold read every part along the sort (465 ms for an empty page at a million).
    const status = ex.dialect.plannerHasStatistics ? 'c.status' : "(c.status || '')"
    add(`${status} IN (${placeholders(query.status.length)})`, [...query.status], 'status')
  }
  if (query.tag) {
    add('EXISTS (SELECT 1 FROM component_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.component_id = c.id AND t.name_key = ?)', [foldKey(query.tag)], 'tag')
  }
  // Sorted by name, a category no live part lies below is read along its own index, which lists
  // its parts in name order (category, name, id): the equality, and the test of what lies below.
  let categoryByName: CategoryByName | undefined
  if (query.category) {
    // Categories are paths (Passives/Resistors/Thick film): a category takes in its descendants.
    // Here a test of each row; the range of its index is a driver (_cheapestDriver).
    const path = query.category.replace(/\/+$/, '')
    const subtree = categorySubtree(ex.dialect, 'c.category', path)
    const byName = deleted === 'exclude' && /^-?name$/.test(query.sort) ? _categoryByName(ex.dialect, path) : undefined
    if (byName && !ex.dialect.plannerHasStatistics) {
      // SQLite asks now: one step of the index, in process.
      const below = await ex.get(`${byName.below.sql} LIMIT 1`, byName.below.params)
      if (below) add(subtree.scan.sql, subtree.scan.params, 'category')
      else {
        add(byName.sql, byName.params, 'category')
        categoryByName = byName
      }
    } else {
      // PostgreSQL asks in the page's statement (below): a second statement would cost a round
      // trip and a snapshot.
      add(subtree.scan.sql, subtree.scan.params, 'category')
      categoryByName = byName
    }
  }
  if (query.manufacturer) {
    add('EXISTS (SELECT 1 FROM mpns m JOIN manufacturers f ON f.id = m.manufacturer_id WHERE m.component_id = c.id AND f.name_key = ?)', [foldKey(query.manufacturer)], 'manufacturer')
  }
  if (query.symbolId) {
    add('EXISTS (SELECT 1 FROM component_symbols l WHERE l.component_id = c.id AND l.item_id = ?)', [query.symbolId], 'symbol')
  }
  if (query.footprintId) {
    add('EXISTS (SELECT 1 FROM component_footprints l WHERE l.component_id = c.id AND l.item_id = ?)', [query.footprintId], 'footprint')
  }
  if (query.locationId) {
    add('EXISTS (SELECT 1 FROM stock s WHERE s.component_id = c.id AND s.location_id = ?)', [query.locationId], 'location')
  }
  if (query.updatedSince) {
    add('c.updated_at >= ?', [query.updatedSince])
  }
  for (const [i, condition] of (query.parameter ?? []).entries()) {
    // As POST /api/search/parametric reads a condition (search-store.ts): the first value of the type need not be the one that matches.
    const parts = ['p.component_id = c.id', 'p.type = ?']
    const values: SqlParam[] = [condition.type]
    if (condition.eq !== undefined) {
      parts.push(`${ex.dialect.nocase('p.value')} = ${ex.dialect.nocase('?')}`)
      values.push(condition.eq)
    }
    if (condition.min !== undefined) {
      parts.push('p.numeric >= ?')
      values.push(condition.min)
    }
    if (condition.max !== undefined) {
      parts.push('p.numeric <= ?')
      values.push(condition.max)
    }
    add(`EXISTS (SELECT 1 FROM component_parameters p${ex.dialect.indexedBy('component_parameters_component')} WHERE ${parts.join(' AND ')})`, values, `parameter ${i}`)
  }
  const where = conds.map((c) => c.sql)
  const params = conds.flatMap((c) => c.params)
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : ''
  // Unfiltered, the live count is kept by triggers (each engine's schema.ts, component_totals): no
  // scan per page (decision 1203). Its one row is read by its key: on PostgreSQL every write that
  // adds or removes a component leaves a dead version of it, and a scan read them all (decision 0311).
  const unfiltered = where.length === 1 && where[0] === 'c.deleted_at IS NULL'
  const bound = COMPONENT_COUNT_BOUND + 1
  let totalSql = unfiltered ? '(SELECT live FROM component_totals WHERE id = 1)' : `(SELECT count(*) FROM (SELECT 1 FROM components c ${filter} LIMIT ${bound}) AS counted)`
  let totalParams = unfiltered ? [] : params
  let from = 'components c'
  let keyed = [...where]
  let keyedParams = [...params]
  // Filtered through an index of its own (decision 0209): the matches are counted from the filter
  // whose index lists the fewest, each part then tested against every filter, up to the bound.
  // When few match, the page is read from those parts and sorted; else along the sort's index,
  // where enough matches come soon (a filter that holds for few parts read every part there to
  // fill a page, or to prove it empty).
  const driver = unfiltered || deleted !== 'exclude' ? undefined : await _cheapestDriver(ex, query, textDriver)
  // The driver lists exactly its filter's parts: that filter is not tested again on each (at a
  // million parts, testing a tag again made counting 10,001 of its parts 38 ms instead of 9).
  const rest = driver ? conds.filter((c) => c.filter !== driver.covers) : conds
  const restParams = rest.flatMap((c) => c.params)
  const joined = driver ? [driver.sql, driver.join ?? 'c.id = d.component_id', ...rest.map((c) => c.sql)] : []
  const counting = (column: string) => `SELECT ${column} FROM ${driver!.from} CROSS JOIN components c WHERE ${joined.join(' AND ')} LIMIT ${bound}`
  // The text filter's test of each part along the sort: `budget` when read from the first parts
  // of the sort (_perPartBudget), tried first; `retry`, the page with every match copied once.
  let perPart: { budget: number; test: string; params: SqlParam[] } | undefined
  let retryConds: typeof conds | undefined
  let everyMatch: { from: string; where: string[]; params: SqlParam[] } | undefined
  let liveParts = 0
  if (driver && ex.dialect.plannerHasStatistics) {
    // PostgreSQL plans the page from its statistics, and the count too where the driver reads
    // the components themselves (their filters' statistics describe them: decision 0321).
    // Another driver's parts are each looked up, in the driver's order, as SQLite does: the
    // subquery is kept apart (OFFSET 0), or the planner hashed every part of a tag or a range
    // for a join it expected to stop early (13 ms at 100,000 parts, against 4.6).
    if (!driver.onComponents) {
      const probe = [driver.join ?? 'c.id = d.component_id', ...rest.map((c) => c.sql)]
      const listed = `(SELECT d.* FROM ${driver.from} WHERE ${driver.sql}) AS d`
      totalSql = `(SELECT count(*) FROM (SELECT 1 FROM ${listed} CROSS JOIN LATERAL (SELECT 1 FROM components c WHERE ${probe.join(' AND ')} OFFSET 0) AS probed LIMIT ${bound}) AS counted)`
      totalParams = [...driver.params, ...restParams]
    }
  } else if (driver) {
    // One statement: the count, the last part counted (by rowid) and the live parts it is weighed against (_fewMatches).
    const row = (await ex.get<{ n: number; last: number | null; live: number | string | null }>(
      `SELECT count(*) AS n, max(r) AS last, (SELECT live FROM component_totals WHERE id = 1) AS live FROM (${counting('c.rowid AS r')}) AS counted`,
      [...driver.params, ...restParams],
    ))!
    const counted = Number(row.n)
    // The number itself, so the page's statement does not count again.
    totalSql = String(counted)
    totalParams = []
    if (counted <= COMPONENT_COUNT_BOUND && counted <= _fewMatches(query.limit, Number(row.live ?? 0))) {
      from = `${driver.from} CROSS JOIN components c`
      keyed = joined
      keyedParams = [...driver.params, ...restParams]
    } else if (driver.covers === 'text' && text?.perPart) {
      // Many match. The word index lists them by rowid: the 1,001st counted at rowid `last` says
      // what share of the parts match, and so how many parts along the sort a page reads.
      const budget = _perPartBudget(query.limit, counted, Number(row.last ?? 0))
      const copy = conds.map((c) => (c.filter === 'text' ? { ...c, sql: text!.perPart!.copied } : c))
      if (budget === undefined) {
        keyed = copy.map((c) => c.sql)
        keyedParams = copy.flatMap((c) => c.params)
      } else {
        const others = conds.filter((c) => c.filter !== 'text')
        keyed = others.map((c) => c.sql)
        keyedParams = others.flatMap((c) => c.params)
        perPart = { budget, test: text.perPart.test('b.r'), params: text.params }
        retryConds = copy
      }
    } else {
      // Many match, read along the sort; in another order than the ids', from a budget first
      // (below), and from every match the driver lists when that leaves the page short.
      everyMatch = { from: `${driver.from} CROSS JOIN components c`, where: joined, params: [...driver.params, ...restParams] }
      liveParts = Number(row.live ?? 0)
    }
  }

  const desc = query.sort.startsWith('-')
  const sort = await sortKey(ex, desc ? query.sort.slice(1) : query.sort)
  const key = sort.expr
  // The cursor's conditions: where the page starts.
  const after: string[] = []
  const afterParams: SqlParam[] = []
  if (query.cursor) {
    const op = desc ? '<' : '>'
    if (key === 'c.id') {
      const [id] = decodeCursor(query.cursor, 1)
      after.push(`c.id ${op} ?`)
      afterParams.push(id as string)
    } else {
      const [value, id] = decodeCursor(query.cursor, 2)
      _checkCursorValue(sort, value, id)
      const param = sort.nocase ? ex.dialect.nocase('?') : '?'
      if (value === null) {
        // Rows without the value come last in both directions: after a row of them, only more of them, by id.
        after.push(`(${key} IS NULL AND c.id ${op} ?)`)
        afterParams.push(id)
      } else if (sort.nullable) {
        after.push(`(${key} ${op} ${param} OR (${key} = ${param} AND c.id ${op} ?) OR ${key} IS NULL)`)
        afterParams.push(value, value, id)
      } else if (ex.dialect.rowValueCompare) {
        // A row comparison is one condition on the (key, id) index, and PostgreSQL keeps one plan
        // for it; the OR below made the generic plan look costlier, so every later page was planned.
        after.push(`(${key}, c.id) ${op} (${param}, ?)`)
        afterParams.push(value, id)
      } else {
        after.push(`(${key} ${op} ${param} OR (${key} = ${param} AND c.id ${op} ?))`)
        afterParams.push(value, value, id)
      }
    }
  }
  const dir = desc ? 'DESC' : 'ASC'
  // NULLS LAST, said the same way on both engines (SQLite takes it since 3.30), where their defaults differ.
  const last = sort.nullable ? ' NULLS LAST' : ''
  const order = key === 'c.id' ? `c.id ${dir}` : `${key} ${dir}${last}, c.id ${dir}`
  // On PostgreSQL the limit is written into the text (an integer the query schema checked), not
  // bound: it plans a prepared statement once only when its generic plan is no costlier than a plan
  // for the values, and with `LIMIT $n` it never was, so every page was planned again (decision
  // 0308). SQLite keeps it bound: with a literal LIMIT 51 its planner sorted a page by ipn
  // through the live-ipn index and a temporary b-tree of every row (decision 0206).
  if (!Number.isSafeInteger(query.limit)) throw new Error(`[storage] not a page size: ${query.limit}`)
  const literal = ex.dialect.literalLimit
  const page = (where: string[], params: SqlParam[], source = from) => ({
    sql: `SELECT c.id AS id, ${key} AS k, c.view_seq AS view_seq FROM ${source} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ${literal ? query.limit + 1 : '?'}`,
    params: literal ? params : [...params, query.limit + 1],
  })
  const outerOrder = (alias: string) => (key === 'c.id' ? `${alias}.id ${dir}` : `${alias}.k ${dir}${last}, ${alias}.id ${dir}`)
  const pageWhere = [...keyed, ...after]
  const pageParams = [...keyedParams, ...afterParams]
  // The first `budget` parts along the sort, each then tested (SQLite only: its limit is bound).
  let read = perPart
    ? {
        sql: `SELECT b.id AS id, b.k AS k, b.view_seq AS view_seq FROM (SELECT c.id AS id, ${key} AS k, c.view_seq AS view_seq, c.rowid AS r FROM ${from} ${pageWhere.length ? `WHERE ${pageWhere.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ?) AS b WHERE ${perPart.test} ORDER BY ${outerOrder('b')} LIMIT ?`,
        params: [...pageParams, perPart.budget, ...perPart.params, query.limit + 1],
      }
    : page(pageWhere, pageParams)
  // A page the budget left short is read again with every match copied: it may be the last, or
  // the matches may come later along the sort than their share says (names of one kind together).
  let retry = retryConds ? page([...retryConds.map((c) => c.sql), ...after], [...retryConds.flatMap((c) => c.params), ...afterParams]) : undefined
  if (everyMatch && key !== 'c.id' && sort.indexed) {
    // SQLite, many matches in an order of their own: they may all come late along it (the
    // resistors' names after three quarters of the library; a parameter range sorted by name took
    // 514 ms at 100,000 parts). The first read tests at most a budget of parts along the sort,
    // each looked up by its rowid; a page it leaves short is read again from every match.
    const along = [...(deleted === 'exclude' ? ['c.deleted_at IS NULL'] : []), ...(categoryByName ? [categoryByName.sql] : []), ...after]
    read = {
      sql: `SELECT b.id AS id, b.k AS k, b.view_seq AS view_seq FROM (SELECT c.id AS id, ${key} AS k, c.view_seq AS view_seq, c.rowid AS r FROM components c ${along.length ? `WHERE ${along.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ?) AS b CROSS JOIN components c ON c.rowid = b.r WHERE ${keyed.join(' AND ')} ORDER BY ${outerOrder('b')} LIMIT ?`,
      params: [...(categoryByName?.params ?? []), ...afterParams, _alongSortBudget(query.limit, liveParts), ...keyedParams, query.limit + 1],
    }
    retry = page([...everyMatch.where, ...after], [...everyMatch.params, ...afterParams], everyMatch.from)
  }
  let totalInRows = false
  if (ex.dialect.plannerHasStatistics && !unfiltered && sort.indexed) {
    // PostgreSQL, a filtered page, in one statement whose branches each run only when their
    // one-time condition holds (decision 0321):
    // - counted up to the bound first; up to it, the page is read from every match, planned on
    //   their own (OFFSET 0: a bitmap, a join from the filter's index), then sorted. Estimates of
    //   few matches can be far off (a word no part holds, estimated at 5,000 of a million parts,
    //   had the page read every part along the ids: 250 ms), a count cannot;
    // - past it, along the sort's index, testing at most a budget of parts (`a`): statistics
    //   cannot say that the matches come late along the sort (the resistors' names after three
    //   quarters of the library: 76,270 parts tested for a page at 100,000, 490 ms). A page the
    //   budget leaves short is read from every match too.
    // The count goes out with the rows, so the page's statement does not count again.
    // A category sorted by name is read along its own index (category, name, id) when no live part
    // lies below it, else along the name's: two arms, the one-time condition `leaf` picks one.
    const n = query.limit + 1
    const live = deleted === 'exclude' ? ['c.deleted_at IS NULL'] : []
    const where = (conditions: string[]) => (conditions.length ? `WHERE ${conditions.join(' AND ')}` : '')
    const budgeted = (along: string[], guard: string) =>
      `SELECT c.id AS id, c.k AS k, c.view_seq AS view_seq FROM (SELECT c.*, ${key} AS k FROM components c ${where(along)} ORDER BY ${order} LIMIT (SELECT ${_alongSortBudgetSql(query.limit)} FROM component_totals WHERE id = 1)) AS c
          ${where([...keyed, ...(guard ? [guard] : [])])} ORDER BY ${outerOrder('c')} LIMIT ${n}`
    const byCategory = categoryByName
    const a = byCategory
      ? `(${budgeted([...live, byCategory.sql, ...after], '(SELECT leaf.yes FROM leaf)')}) UNION ALL (${budgeted([...live, ...after], 'NOT (SELECT leaf.yes FROM leaf)')})`
      : budgeted([...live, ...after], '')
    const aParams = byCategory
      ? [...byCategory.params, ...afterParams, ...keyedParams, ...afterParams, ...keyedParams]
      : [...afterParams, ...keyedParams]
    read = {
      sql: `WITH total AS MATERIALIZED (SELECT ${totalSql} AS n),
        ${byCategory ? `leaf AS MATERIALIZED (SELECT NOT EXISTS (${byCategory.below.sql}) AS yes),` : ''}
        a AS MATERIALIZED (${a})
        SELECT u.id AS id, u.k AS k, u.view_seq AS view_seq, (SELECT total.n FROM total) AS n FROM (
          SELECT a.id, a.k, a.view_seq FROM a WHERE (SELECT total.n FROM total) > ${COMPONENT_COUNT_BOUND} AND (SELECT count(*) FROM a) = ${n}
          UNION ALL
          SELECT m.id, m.k, m.view_seq FROM (SELECT c.id AS id, ${key} AS k, c.view_seq AS view_seq FROM components c ${where(pageWhere)} OFFSET 0) AS m
          WHERE (SELECT total.n FROM total) <= ${COMPONENT_COUNT_BOUND} OR (SELECT count(*) FROM a) < ${n}
        ) AS u ORDER BY ${outerOrder('u')} LIMIT ${n}`,
      params: [...totalParams, ...(byCategory ? byCategory.below.params : []), ...aParams, ...pageParams],
    }
    totalInRows = true
  }
  return {
    ...read,
    ...(retry ? { retry } : {}),
    totalSql,
    totalParams,
    ...(totalInRows ? { totalInRows } : {}),
    bounded: !unfiltered,
    // Both engines hand the last row's key over as text (the PostgreSQL page casts it): a number goes back into the cursor as one.
    cursorOf: (id, k) => encodeCursor(key === 'c.id' ? [id] : [k !== null && sort.numeric ? Number(k) : k, id]),
    key,
    // The page query's columns keep its comparison (lower() on PostgreSQL).
    outerOrder: outerOrder('p'),
  }
}

/**
 * How many parts along the sort a page of the text filter reads, each tested
 * in the word index (about 30 µs a part at a million), when `counted` matches
 * came up to rowid `last`: three times what their share predicts. Undefined
 * when that share is under 8%: then copying the matches once (about 0.2 µs a
 * match) costs less than testing the parts a page reads (decision 0213).
 */
function _perPartBudget(limit: number, counted: number, last: number): number | undefined {
  const share = last > 0 ? counted / last : 0
  if (share < 0.08) return undefined
  return Math.ceil((3 * (limit + 1)) / share)
}

interface PageQuery {
  sql: string
  params: SqlParam[]
  /** The same page read another way, when the first way came back short (see _pageQuery). */
  retry?: { sql: string; params: SqlParam[] }
  totalSql: string
  totalParams: SqlParam[]
  /** The page's rows carry the total as a column `n` (null when there are none: then totalSql counts). */
  totalInRows?: boolean
  bounded: boolean
  cursorOf: (id: string, k: string | null) => string
  key: string
  outerOrder: string
}

/** A category's parts by their own value, and the parts below it (CategoryByName). */
interface CategoryByName {
  /** The category's own value, a condition on `components c`. */
  sql: string
  params: SqlParam[]
  /** A statement listing the live parts below it (`path/…`), through the same index. */
  below: { sql: string; params: SqlParam[] }
}

function _categoryByName(dialect: SqlExecutor['dialect'], path: string): CategoryByName {
  const folded = dialect.nocase('category')
  const p = dialect.nocase('?')
  return {
    sql: `${dialect.nocase('c.category')} = ${p}`,
    params: [path],
    below: { sql: `SELECT 1 FROM components WHERE ${folded} > ${p} AND ${folded} < ${p} AND deleted_at IS NULL`, params: [`${path}/`, `${path}0`] },
  }
}

/**
 * How many parts along its sort the first read of a filtered page tests
 * (PostgreSQL's always, SQLite's when many match), of `live` parts: a tenth
 * of the library, and at least enough for a filter one part in forty holds.
 * Matches spread along the sort fill a page long before that; matches that
 * all come late cost that tenth more than reading every match would have,
 * where reading along the sort alone could read the whole library.
 */
function _alongSortBudget(limit: number, live: number): number {
  return Math.max(40 * (limit + 1), Math.ceil(live / 10))
}

/** _alongSortBudget as SQL, `live` being component_totals' column. */
function _alongSortBudgetSql(limit: number): string {
  return `greatest(${40 * (limit + 1)}, (live + 9) / 10)`
}

/**
 * Up to how many matches a page is read from them and sorted rather than
 * along the sort's index: sorting reads every match, the index about
 * `limit × live / matches` parts when the matches are spread along it, so
 * the two read as many where matches² = limit × live (2,258 for a page of
 * 51 among 100,000 parts; 7,141 among a million).
 */
function _fewMatches(limit: number, live: number): number {
  return Math.sqrt((limit + 1) * live)
}

interface Driver {
  /** A table expression `d` with one row per matching part, `d.component_id`, read along an index. */
  from: string
  /** Its condition. */
  sql: string
  params: SqlParam[]
  /** The filter (as _pageQuery names its conditions) whose parts it lists, exactly. */
  covers: string
  /** How its rows meet `components c`; by default its `component_id`. */
  join?: string
  /** Whether it reads the components table itself (a status, a category). */
  onComponents?: true
}

/**
 * The filters of `query` whose index lists their parts one after another:
 * a tag, symbol, footprint or location (their link table's `(key,
 * component_id)` index), a manufacturer or a numeric parameter range (each
 * part once), a status or a category (indexes of live parts; a category is
 * one range of its folded index), the words of a text search (the engine's
 * full-text index, in the order it keeps). Of those, the one listing the fewest parts, each counted from its index alone
 * up to the bound; SQLite keeps a CROSS JOIN's order, PostgreSQL plans it.
 */
async function _cheapestDriver(ex: SqlExecutor, query: ComponentListQuery, text: Driver | undefined): Promise<Driver | undefined> {
  const drivers: Driver[] = text ? [text] : []
  if (query.tag) drivers.push({ from: 'component_tags d', sql: 'd.tag_id IN (SELECT t.id FROM tags t WHERE t.name_key = ?)', params: [foldKey(query.tag)], covers: 'tag' })
  if (query.symbolId) drivers.push({ from: 'component_symbols d', sql: 'd.item_id = ?', params: [query.symbolId], covers: 'symbol' })
  if (query.footprintId) drivers.push({ from: 'component_footprints d', sql: 'd.item_id = ?', params: [query.footprintId], covers: 'footprint' })
  if (query.locationId) drivers.push({ from: 'stock d', sql: 'd.location_id = ?', params: [query.locationId], covers: 'location' })
  // A part may carry several numbers of one manufacturer: each part once. PostgreSQL hashes every
  // number of the manufacturer for the DISTINCT before the bound takes any (500 ms for 200,288 at a
  // million); without the driver it counts by a semi-join on (component_id, manufacturer_id), and stops.
  if (query.manufacturer && !ex.dialect.plannerHasStatistics) {
    drivers.push({ from: '(SELECT DISTINCT m.component_id FROM mpns m WHERE m.manufacturer_id IN (SELECT f.id FROM manufacturers f WHERE f.name_key = ?)) d', sql: '1 = 1', params: [foldKey(query.manufacturer)], covers: 'manufacturer' })
  }
  if (query.status?.length) {
    drivers.push({ from: `(SELECT id AS component_id FROM components WHERE status IN (${placeholders(query.status.length)}) AND deleted_at IS NULL) d`, sql: '1 = 1', params: [...query.status], covers: 'status', onComponents: true })
  }
  if (query.category) {
    const range = categorySubtree(ex.dialect, 'category', query.category.replace(/\/+$/, '')).range
    drivers.push({ from: `(SELECT id AS component_id FROM components WHERE ${range.sql} AND deleted_at IS NULL) d`, sql: '1 = 1', params: range.params, covers: 'category', onComponents: true })
  }
  // A numeric range is a range of the (type, numeric) index; a value alone is not indexed.
  for (const [i, condition] of (query.parameter ?? []).entries()) {
    if (condition.min === undefined && condition.max === undefined) continue
    const bounds = [...(condition.min !== undefined ? ['p.numeric >= ?'] : []), ...(condition.max !== undefined ? ['p.numeric <= ?'] : [])]
    drivers.push({
      from: `(SELECT DISTINCT p.component_id FROM component_parameters p WHERE p.type = ? AND ${bounds.join(' AND ')}) d`,
      sql: '1 = 1',
      params: [condition.type, ...(condition.min !== undefined ? [condition.min] : []), ...(condition.max !== undefined ? [condition.max] : [])],
      // The range is all of a condition unless it also names a value (the query schema never makes one so).
      covers: condition.eq === undefined ? `parameter ${i}` : '',
    })
  }
  // PostgreSQL's planner weighs them from its statistics; counting here would be statements more.
  if (drivers.length <= 1 || ex.dialect.plannerHasStatistics) return drivers[0]
  let best: { driver: Driver; n: number } | undefined
  for (const driver of drivers) {
    const n = (await ex.get<{ n: number }>(`SELECT count(*) AS n FROM (SELECT 1 FROM ${driver.from} WHERE ${driver.sql} LIMIT ${COMPONENT_COUNT_BOUND + 1}) AS listed`, driver.params))!.n
    if (!best || n < best.n) best = { driver, n }
  }
  return best!.driver
}

/** Stock totals and images of `ids` (ComponentStore.extras): two statements per chunk of ids. */
export async function queryComponentExtras(ex: SqlExecutor, ids: readonly string[]): Promise<Record<string, ComponentExtra>> {
  const out: Record<string, ComponentExtra> = {}
  for (const part of chunks(ids)) {
    const rows = await ex.all<{ id: string; stock: number | string }>(
      `SELECT c.id AS id, (SELECT coalesce(sum(s.quantity), 0) FROM stock s WHERE s.component_id = c.id) AS stock FROM components c WHERE c.id IN (${placeholders(part.length)})`,
      part,
    )
    // PostgreSQL's sum of integers is a bigint, handed over as text.
    for (const r of rows) out[r.id] = { stock: Number(r.stock), image: null }
    const images = await ex.all<{ id: string; component_id: string; sha256: string | null; url: string | null }>(
      `SELECT a.id, a.component_id, a.sha256, a.url FROM attachments a
       WHERE a.component_id IN (${placeholders(part.length)}) AND a.kind = 'image' AND (a.sha256 IS NOT NULL OR a.url IS NOT NULL) ORDER BY a.component_id, a.id`,
      part,
    )
    for (const a of images) {
      const extra = out[a.component_id]
      // The first by id: attachment ids grow with time, so the image attached first.
      if (extra && !extra.image) extra.image = { attachmentId: a.id, url: a.sha256 ? `/api/attachments/${a.id}/content` : a.url! }
    }
  }
  return out
}

/** A cursor's key of the sort's type (a number for a numeric sort), so no engine is asked to compare a number with text. */
function _checkCursorValue(sort: SortKey, value: unknown, id: unknown): asserts id is string {
  const fits = value === null ? sort.nullable : sort.numeric ? typeof value === 'number' : typeof value === 'string'
  if (fits && typeof id === 'string') return
  throw new ComplibError('VALIDATION_FAILED', 'query.cursor: not a cursor of this sort', { errors: [{ path: 'query.cursor', message: 'not a cursor of this sort' }] })
}

/** The words of a text search (both engines): quotes, control characters and leading operators dropped; only words with a letter or digit. */
export function searchWords(text: string): string[] {
  return text
    .replace(/["\u0000-\u001f\u007f]/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^[*^-]+|[*]+$/g, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
}
