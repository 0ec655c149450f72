import type BetterSqlite3 from 'better-sqlite3'

/** What recordStatements saw. */
export interface StatementLog {
  /** The text of every statement prepared, in order. */
  statements: string[]
  /** Each run (`all`, `get`, `run`) of a statement prepared while recording, with its parameters. */
  runs: { sql: string; params: unknown[] }[]
  /** Puts the connection's own `prepare` back. */
  stop(): void
}

/**
 * Records what a SQLite connection prepares and runs, for tests that check
 * which statements a call made. The storage keeps its prepared statements,
 * so a statement prepared before recording began is not seen again: record
 * on a storage the call has not used yet.
 */
export function recordStatements(db: BetterSqlite3.Database): StatementLog {
  const prepare = db.prepare.bind(db)
  const log: StatementLog = { statements: [], runs: [], stop: () => void (db.prepare = prepare) }
  db.prepare = ((sql: string) => {
    log.statements.push(sql)
    const stmt = prepare(sql)
    for (const method of ['all', 'get', 'run'] as const) {
      const original = (stmt[method] as (...params: unknown[]) => unknown).bind(stmt)
      ;(stmt as unknown as Record<string, unknown>)[method] = (...params: unknown[]) => (log.runs.push({ sql, params }), original(...params))
    }
    return stmt
  }) as typeof db.prepare
  return log
}
