import { ComplibError } from '../errors'
import type { SqlExecutor, SqlParam } from './_internal/sql-executor'
import type { PostgresStorage } from './postgres/storage'
import type { SqliteStorage } from './sqlite/storage'
import type { Storage } from './types'

/** What `copyLibrary` copied: rows per table, in the order it wrote them. */
export interface CopyReport {
  tables: Array<{ table: string; rows: number }>
}

/**
 * Copies every table of a library from one storage into an empty one, either
 * engine to either engine: components with their whole history (the change
 * feed keeps its numbers), catalog records, stock, attachment records,
 * connectors with their secrets, runs and their batches, import sessions,
 * accounts and API tokens. Sign-in sessions stay behind (NOT_COPIED).
 * Attachment bytes are the server's (its blob store): the caller copies them.
 *
 * The target is written in one transaction: a copy that fails leaves it
 * empty. Tables are copied parents first (the target's foreign keys decide),
 * columns the two schemas share; what triggers or indexes keep (the live
 * count, SQLite's full-text tables) is rebuilt by the target. Stop the
 * servers of the source first: rows are read in chunks.
 */
export async function copyLibrary(source: Storage, target: Storage, options: { log?: (message: string) => void; chunk?: number } = {}): Promise<CopyReport> {
  const from = _raw(source)
  const to = _raw(target)
  const chunk = options.chunk ?? 500
  const sourceTables = await from.read((ex) => ex.dialect.tables(ex))
  const report: CopyReport = { tables: [] }
  await to.write(async (ex) => {
    const targetTables = await ex.dialect.tables(ex)
    const order = await _parentsFirst(ex, [...targetTables.keys()].filter((t) => sourceTables.has(t) && !NOT_COPIED.has(t)))
    for (const table of order) {
      const n = (await ex.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n
      if (n > 0) throw new ComplibError('CONFLICT', `the target library is not empty (${table} has ${n} rows); copy into a new data folder or an empty database`)
    }
    await ex.dialect.beforeLoad(ex)
    for (const table of order) {
      const columns = targetTables.get(table)!.columns.filter((c) => sourceTables.get(table)!.columns.includes(c))
      const key = sourceTables.get(table)!.key
      const selfRefs = await ex.dialect.selfReferences(ex, table)
      // The key is read even where the target lacks one of its columns: the next page starts after it.
      const read = [...columns, ...key.filter((k) => !columns.includes(k))]
      const perStatement = Math.max(1, Math.floor(ex.dialect.parameterLimit / columns.length))
      let rows = 0
      // Rows that point at rows of their own table (a location's parent) get the pointer once the
      // whole table is in: a parent may come in a later chunk (ids do not follow the tree).
      const pointers: Array<{ column: string; value: SqlParam; key: SqlParam[] }> = []
      let after: SqlParam[] | null = null
      for (;;) {
        // Keyset paging: each page starts after the last key read, so no page reads the rows of
        // the pages before it again (OFFSET did, which made a table's copy quadratic in its size).
        const last: SqlParam[] | null = after
        const page: Array<Record<string, SqlParam>> = await from.read(async (src) =>
          await src.all<Record<string, SqlParam>>(
            `SELECT ${read.join(', ')} FROM ${table}${last ? ` WHERE (${key.join(', ')}) > (${key.map(() => '?').join(', ')})` : ''} ORDER BY ${key.join(', ')} LIMIT ?`,
            [...(last ?? []), chunk],
          ),
        )
        // Many rows per INSERT (one round trip to PostgreSQL each), as many as the engine's bound parameters allow.
        for (let start = 0; start < page.length; start += perStatement) {
          const batch = page.slice(start, start + perStatement)
          const values: SqlParam[] = []
          for (const row of batch) for (const c of columns) values.push(selfRefs.includes(c) ? null : _value(row[c]))
          await ex.run(ex.dialect.insertKeepingIds(table, columns, batch.length), values)
        }
        for (const row of page) {
          for (const column of selfRefs) {
            if (row[column] !== null && row[column] !== undefined) pointers.push({ column, value: _value(row[column]), key: key.map((k) => _value(row[k])) })
          }
        }
        rows += page.length
        if (page.length < chunk) break
        after = key.map((k) => _value(page.at(-1)![k]))
      }
      for (const { column, value, key: values } of pointers) {
        await ex.run(`UPDATE ${table} SET ${column} = ? WHERE ${key.map((k) => `${k} = ?`).join(' AND ')}`, [value, ...values])
      }
      report.tables.push({ table, rows })
      options.log?.(`[copy] ${table}: ${rows} rows`)
    }
    await ex.dialect.afterLoad(ex)
  })
  // Statistics for the planner now, not when autovacuum gets round to it (without them it
  // scanned and sorted a whole table for a page the name index answers; decision 0317),
  // and the row versions the load left behind cleared.
  if (target.name === 'postgres') await (target as PostgresStorage).database.vacuum()
  return report
}

/**
 * Tables left out of a copy. Sign-in sessions belong to the server that opened
 * them, as in a backup (sqlite/storage.ts): on the new library, people sign in again.
 */
const NOT_COPIED: ReadonlySet<string> = new Set(['auth_sessions'])

interface _Raw {
  read<T>(fn: (ex: SqlExecutor) => Promise<T>): Promise<T>
  write<T>(fn: (ex: SqlExecutor) => Promise<T>): Promise<T>
}

function _raw(storage: Storage): _Raw {
  if (storage.name === 'sqlite') {
    const db = (storage as SqliteStorage).database
    return { read: (fn) => db.run(fn), write: (fn) => db.run(fn) }
  }
  if (storage.name === 'postgres') {
    const db = (storage as PostgresStorage).database
    return { read: (fn) => db.run(fn, 'snapshot'), write: (fn) => db.run(fn, 'write') }
  }
  throw new Error(`[copy] cannot copy a library kept in "${storage.name}"`)
}

/** `tables` ordered so that every table comes after the tables its foreign keys point at. */
async function _parentsFirst(ex: SqlExecutor, tables: string[]): Promise<string[]> {
  const parents = new Map<string, string[]>()
  for (const table of tables) {
    parents.set(table, (await ex.dialect.parents(ex, table)).filter((p) => p !== table && tables.includes(p)))
  }
  const out: string[] = []
  const visit = (table: string, path: string[]) => {
    if (out.includes(table)) return
    if (path.includes(table)) throw new Error(`[copy] foreign keys form a cycle: ${[...path, table].join(' → ')}`)
    for (const parent of parents.get(table) ?? []) visit(parent, [...path, table])
    out.push(table)
  }
  for (const table of [...tables].sort()) visit(table, [])
  return out
}

/** A value read from either engine, as the other binds it. */
function _value(value: unknown): SqlParam {
  return value === undefined ? null : (value as SqlParam)
}
