// @complib/core/postgres: the engine for a library that several servers share (node-postgres).
export { createPostgresStorage, POSTGRES as POSTGRES_STORAGE_NAME, type DatabaseBlobs, type PostgresStorage, type PostgresStorageOptions } from './storage'
