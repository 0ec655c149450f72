import { ComplibError } from '../errors'
import type { SqlExecutor, SqlParam } from './_internal/sql-executor'
import type { PostgresStorage } from './postgres'
import type { SqliteStorage } from './sqlite'
import { reindexComponent } from './sqlite/component-core'
import type { Storage } from './types'

/** What `copyLibrary` copied: rows per table, in the order it wrote them. */
export interface CopyReport {
  tables: Array<{ table: string; rows: number }>
}

/**
 * Copies every table of a library from one storage into an empty one, either
 * engine to either engine: components with their whole history (the change
 * feed keeps its numbers), catalog records, stock, attachment records,
 * connectors with their secrets, runs and their batches, import sessions.
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
  const sourceTables = await from.read((ex) => _tables(ex))
  const report: CopyReport = { tables: [] }
  await to.write(async (ex) => {
    const targetTables = await _tables(ex)
    const order = await _parentsFirst(ex, [...targetTables.keys()].filter((t) => sourceTables.has(t)))
    for (const table of order) {
      const n = (await ex.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n
      if (n > 0) throw new ComplibError('CONFLICT', `the target library is not empty (${table} has ${n} rows); copy into a new data folder or an empty database`)
    }
    // PostgreSQL's row triggers that keep the live count and each component's view_seq are off
    // for the load and their results set once after it: the count's one row got a new version
    // per component, each update read every version before it (components took 52 of a 92 s
    // copy), and the table kept them all (541 pages every page of 50 then read).
    if (ex.dialect === 'postgres') for (const [table, trigger] of _ROW_TRIGGERS) await ex.run(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`)
    for (const table of order) {
      const columns = targetTables.get(table)!.columns.filter((c) => sourceTables.get(table)!.columns.includes(c))
      const key = sourceTables.get(table)!.key
      const selfRefs = await _selfReferences(ex, table)
      // The key is read even where the target lacks one of its columns: the next page starts after it.
      const read = [...columns, ...key.filter((k) => !columns.includes(k))]
      const perStatement = Math.max(1, Math.floor(PARAMETER_LIMIT[ex.dialect] / columns.length))
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
          await ex.run(_insert(ex.dialect, table, columns, batch.length), values)
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
    if (ex.dialect === 'postgres') {
      await ex.run(
        `UPDATE components c SET view_seq = v.seq FROM (SELECT component_id, max(seq) AS seq FROM component_events WHERE snapshot IS NOT NULL GROUP BY component_id) v
         WHERE v.component_id = c.id AND c.view_seq IS DISTINCT FROM v.seq`,
      )
      await ex.run('UPDATE component_totals SET live = (SELECT count(*) FROM components WHERE deleted_at IS NULL) WHERE id = 1')
      for (const [table, trigger] of _ROW_TRIGGERS) await ex.run(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`)
      // Identity columns go on after the highest copied value.
      for (const { table, column } of await ex.all<{ table: string; column: string }>(
        `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'`,
      )) {
        await ex.get(`SELECT setval(pg_get_serial_sequence('${table}', '${column}'), coalesce((SELECT max(${column}) FROM ${table}), 0) + 1, false)`)
      }
    } else {
      for (const { id } of await ex.all<{ id: string }>('SELECT id FROM components')) await reindexComponent(ex, id)
    }
  })
  // Statistics for the planner now, not when autovacuum gets round to it (without them it
  // scanned and sorted a whole table for a page the name index answers: 3.7 ms against 0.8),
  // and the row versions the load left behind cleared.
  if (target.name === 'postgres') await (target as PostgresStorage).database.vacuum()
  return report
}

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
    return { read: (fn) => db.run(fn, false), write: (fn) => db.run(fn, true) }
  }
  throw new Error(`[copy] cannot copy a library kept in "${storage.name}"`)
}

/**
 * Bound parameters one statement may carry: PostgreSQL's protocol counts them in 16 bits;
 * SQLite's SQLITE_MAX_VARIABLE_NUMBER is 32,766 unless it was built with another.
 */
const PARAMETER_LIMIT = { postgres: 65_535, sqlite: 32_766 } as const

/** An INSERT of `rows` rows; identity columns take the copied values on PostgreSQL. */
function _insert(dialect: SqlExecutor['dialect'], table: string, columns: string[], rows: number): string {
  const row = `(${columns.map(() => '?').join(', ')})`
  return `INSERT INTO ${table} (${columns.join(', ')}) ${dialect === 'postgres' ? 'OVERRIDING SYSTEM VALUE ' : ''}VALUES ${Array.from({ length: rows }, () => row).join(', ')}`
}

/** PostgreSQL's row triggers a copy turns off, as [table, trigger] (postgres/schema.ts). */
const _ROW_TRIGGERS = [
  ['components', 'component_totals_count'],
  ['component_events', 'component_events_view'],
] as const

/** Tables kept by triggers or rebuilt by the target, never copied. */
const DERIVED = /^(meta|component_totals|blobs|sqlite_.*|components_fts.*|components_grams.*)$/

/** The tables of a library with their columns and primary key (the copy's order within a table). */
async function _tables(ex: SqlExecutor): Promise<Map<string, { columns: string[]; key: string[] }>> {
  const out = new Map<string, { columns: string[]; key: string[] }>()
  if (ex.dialect === 'sqlite') {
    for (const { name } of await ex.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`)) {
      if (DERIVED.test(name)) continue
      const info = await ex.all<{ name: string; pk: number }>(`SELECT name, pk FROM pragma_table_info(?) ORDER BY cid`, [name])
      out.set(name, { columns: info.map((c) => c.name), key: _key(info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name), info[0]!.name) })
    }
    return out
  }
  // Columns only one side has (PostgreSQL's components.rowid) drop out where the copy intersects them.
  const columns = await ex.all<{ table: string; column: string }>(
    `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  )
  const keys = await ex.all<{ table: string; column: string }>(
    `SELECT c.relname AS "table", a.attname AS "column" FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
     WHERE i.indisprimary AND n.nspname = current_schema() ORDER BY c.relname, k.ord`,
  )
  for (const { table, column } of columns) {
    if (DERIVED.test(table)) continue
    const entry = out.get(table) ?? { columns: [], key: [] }
    entry.columns.push(column)
    out.set(table, entry)
  }
  for (const [table, entry] of out) entry.key = _key(keys.filter((k) => k.table === table).map((k) => k.column), entry.columns[0]!)
  return out
}

function _key(primary: string[], first: string): string[] {
  return primary.length ? primary : [first]
}

/** `tables` ordered so that every table comes after the tables its foreign keys point at. */
async function _parentsFirst(ex: SqlExecutor, tables: string[]): Promise<string[]> {
  const parents = new Map<string, string[]>()
  for (const table of tables) {
    const rows =
      ex.dialect === 'sqlite'
        ? await ex.all<{ parent: string }>(`SELECT "table" AS parent FROM pragma_foreign_key_list(?)`, [table])
        : await ex.all<{ parent: string }>(
            `SELECT p.relname AS parent FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE k.contype = 'f' AND n.nspname = current_schema() AND c.relname = ?`,
            [table],
          )
    parents.set(table, rows.map((r) => r.parent).filter((p) => p !== table && tables.includes(p)))
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

/** Columns of `table` whose foreign key points at `table` itself. */
async function _selfReferences(ex: SqlExecutor, table: string): Promise<string[]> {
  const rows =
    ex.dialect === 'sqlite'
      ? await ex.all<{ column: string }>(`SELECT "from" AS "column" FROM pragma_foreign_key_list(?) WHERE "table" = ?`, [table, table])
      : await ex.all<{ column: string }>(
          `SELECT a.attname AS "column" FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
             JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (k.conkey)
           WHERE k.contype = 'f' AND k.confrelid = k.conrelid AND n.nspname = current_schema() AND c.relname = ?`,
          [table],
        )
  return rows.map((r) => r.column)
}

/** A value read from either engine, as the other binds it. */
function _value(value: unknown): SqlParam {
  return value === undefined ? null : (value as SqlParam)
}
