import type { SqlExecutor } from '../_internal/sql-executor'
import type { LibraryStats } from '../types'
import type { Access } from './repo'

/** Counts and the database's size for `GET /api/stats`, in one statement. */
export async function stats(ex: SqlExecutor): Promise<LibraryStats> {
  return (await ex.get<LibraryStats>(`SELECT
    (SELECT count(*) FROM components WHERE deleted_at IS NULL) AS components,
    (SELECT count(*) FROM components WHERE deleted_at IS NOT NULL) AS "deletedComponents",
    (SELECT count(*) FROM symbols) AS symbols,
    (SELECT count(*) FROM footprints) AS footprints,
    (SELECT count(*) FROM attachments) AS attachments,
    (SELECT count(*) FROM manufacturers) AS manufacturers,
    (SELECT count(*) FROM mpns) AS mpns,
    (SELECT count(*) FROM parameter_types) AS "parameterTypes",
    (SELECT count(*) FROM tags) AS tags,
    (SELECT count(*) FROM locations) AS locations,
    (SELECT count(*) FROM connectors) AS connectors,
    (SELECT count(*) FROM runs) AS runs,
    ${ex.dialect.databaseBytes} AS "databaseBytes"`))!
}

/** How `stats` uses the database (Access): one statement. */
export const statsAccess = 'read' satisfies Access
