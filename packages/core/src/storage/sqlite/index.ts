// @complib/core/sqlite: the embedded engine (better-sqlite3, one file in WAL mode).
export { createSqliteStorage, NAME as SQLITE_STORAGE_NAME, type SqliteStorage, type SqliteStorageOptions } from './storage'
export type { SqliteDatabase } from './engine/database'
