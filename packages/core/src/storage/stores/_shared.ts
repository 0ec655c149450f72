import { ComplibError } from '../../errors'
import type { Dialect, SqlExecutor, SqlParam } from '../_internal/sql-executor'
import type { Page } from '../types'

/** The clock of all writes: ISO 8601 in UTC. */
export function now(): string {
  return new Date().toISOString()
}

/** Opaque cursor: base64url of the sort key values of the last item returned. */
export function encodeCursor(values: readonly (string | number | null)[]): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url')
}

/** Decodes a cursor made by encodeCursor; a malformed one is a 400 naming `query.cursor`. */
export function decodeCursor(cursor: string, arity: number): (string | number | null)[] {
  try {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown
    if (Array.isArray(values) && values.length === arity && values.every((v) => v === null || typeof v === 'string' || typeof v === 'number')) {
      return values as (string | number | null)[]
    }
  } catch {
    // fall through to the 400
  }
  throw new ComplibError('VALIDATION_FAILED', 'query.cursor: not a cursor this server issued', {
    errors: [{ path: 'query.cursor', message: 'not a cursor this server issued' }],
  })
}

export function notFound(kind: string, id: string): ComplibError {
  return new ComplibError('NOT_FOUND', `${kind} ${id} does not exist`)
}

/** Throws PRECONDITION_FAILED when `ifVersion` is given and differs from the record's version. */
export function checkVersion(kind: string, id: string, current: number, ifVersion: number | undefined): void {
  if (ifVersion !== undefined && ifVersion !== current) {
    throw new ComplibError('PRECONDITION_FAILED', `${kind} ${id} is at version ${current}, not ${ifVersion}`)
  }
}

/**
 * Keyset paging over a query ordered by `id`: `where`/`params` filter,
 * `limit + 1` rows tell whether a next page exists.
 */
export async function pageById<Row extends { id: string }, T>(
  ex: SqlExecutor,
  options: { table: string; where?: string[]; params?: SqlParam[]; limit: number; cursor?: string | undefined; map: (rows: Row[]) => T[] | Promise<T[]> },
): Promise<Page<T>> {
  const where = [...(options.where ?? [])]
  const params = [...(options.params ?? [])]
  const total = (await ex.get<{ n: number }>(`SELECT count(*) AS n FROM ${options.table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`, params))!.n
  if (options.cursor) {
    const [after] = decodeCursor(options.cursor, 1)
    where.push('id > ?')
    params.push(after as string)
  }
  const rows = await ex.all<Row>(
    `SELECT * FROM ${options.table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id LIMIT ?`,
    [...params, options.limit + 1],
  )
  const more = rows.length > options.limit
  if (more) rows.pop()
  return { items: await options.map(rows), total, nextCursor: more ? encodeCursor([rows.at(-1)!.id]) : null }
}

/**
 * A category path and every path below it (Passives/Resistors takes in
 * Passives/Resistors/Thick film), ignoring case, as a condition on `column`,
 * in two forms (decision 0209). `range` is one range of each engine's folded
 * category index (from the path to `path0`, '0' following '/'), then a test
 * that leaves out siblings inside it (`Passives/Resistors.old`): what a count
 * or a change of every match wants. `scan` tests each row and no index
 * answers it: a page read along its sort's index stops after its rows,
 * where ranging over a large category would sort every match first.
 */
export function categorySubtree(dialect: Dialect, column: string, path: string): { scan: { sql: string; params: SqlParam[] }; range: { sql: string; params: SqlParam[] } } {
  const folded = dialect.nocase(column)
  const p = dialect.nocase('?')
  return {
    scan: { sql: `(${folded} = ${p} OR (${folded} > ${p} AND ${folded} < ${p}))`, params: [path, `${path}/`, `${path}0`] },
    range: { sql: `(${folded} >= ${p} AND ${folded} < ${p} AND (${folded} = ${p} OR ${folded} > ${p}))`, params: [path, `${path}0`, path, `${path}/`] },
  }
}

/** `?, ?, ?` for n parameters. */
export function placeholders(n: number): string {
  return new Array(n).fill('?').join(', ')
}

/** Splits `values` in chunks small enough for one IN (…) list. */
export function chunks<T>(values: readonly T[], size = 500): T[][] {
  const out: T[][] = []
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size))
  return out
}

/** Escapes `%`, `_` and `\` for a LIKE pattern used with ESCAPE '\'. */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** A CONFLICT for a unique field, naming it. */
export function conflict(field: string, detail: string): ComplibError {
  return new ComplibError('CONFLICT', detail, { errors: [{ path: field, message: detail }] })
}

/**
 * Keyset paging ordered by name (case-insensitive), ties by id: the order
 * people expect for tags, manufacturers, symbols, locations. The cursor is
 * `[name, id]` of the last row. `select` must expose `id` and `name` columns.
 */
export async function pageByName<Row extends { id: string; name: string }>(
  ex: SqlExecutor,
  options: { select: string; from: string; where?: string[]; params?: SqlParam[]; limit: number; cursor?: string | undefined; nameColumn?: string; idColumn?: string },
): Promise<Page<Row>> {
  const name = ex.dialect.nocase(options.nameColumn ?? 'name')
  const id = options.idColumn ?? 'id'
  const where = [...(options.where ?? [])]
  const params = [...(options.params ?? [])]
  const total = (await ex.get<{ n: number }>(`SELECT count(*) AS n FROM ${options.from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`, params))!.n
  if (options.cursor) {
    const [lastName, lastId] = decodeCursor(options.cursor, 2)
    const after = ex.dialect.nocase('?')
    where.push(`(${name} > ${after} OR (${name} = ${after} AND ${id} > ?))`)
    params.push(lastName, lastName, lastId)
  }
  const rows = await ex.all<Row>(
    `SELECT ${options.select} FROM ${options.from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${name}, ${id} LIMIT ?`,
    [...params, options.limit + 1],
  )
  const more = rows.length > options.limit
  if (more) rows.pop()
  const last = rows.at(-1)
  return { items: rows, total, nextCursor: more && last ? encodeCursor([last.name, last.id]) : null }
}

/** Validates a merge request: unknown target → NOT_FOUND; unknown source or target among sources → 400 naming the index. */
export async function checkMerge(ex: SqlExecutor, table: string, kind: string, targetId: string, sourceIds: readonly string[]): Promise<void> {
  if (!await ex.get(`SELECT 1 FROM ${table} WHERE id = ?`, [targetId])) throw notFound(kind, targetId)
  for (const [i, sourceId] of sourceIds.entries()) {
    const problem = sourceId === targetId ? 'cannot merge into itself' : !await ex.get(`SELECT 1 FROM ${table} WHERE id = ?`, [sourceId]) ? `${kind} ${sourceId} does not exist` : null
    if (problem) {
      throw new ComplibError('VALIDATION_FAILED', `body.sourceIds[${i}]: ${problem}`, { errors: [{ path: `body.sourceIds[${i}]`, message: problem }] })
    }
  }
}

/** The live (non-deleted) components among `ids`, deduplicated, in id order. */
export async function liveComponentIds(ex: SqlExecutor, ids: Iterable<string>): Promise<string[]> {
  const unique = [...new Set(ids)]
  const out: string[] = []
  for (const part of chunks(unique)) {
    out.push(...(await ex.all<{ id: string }>(`SELECT id FROM components WHERE id IN (${placeholders(part.length)}) AND deleted_at IS NULL`, part)).map((r) => r.id))
  }
  return out.sort()
}
