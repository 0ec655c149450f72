import { ComplibError } from '../errors'
import { defineStorage } from './define'
import { bindSession, inTransaction } from './_internal/session'
import { PostgresDatabase } from './postgres/engine'
import type { Storage, StorageSession } from './types'

export const POSTGRES = 'postgres'

export interface PostgresStorageOptions {
  /** `postgres://user[:password]@host[:port]/database` */
  url: string
  /** Schema for complib's tables (default `public`). */
  schema?: string | undefined
  /** Connections in the pool (default 10). */
  poolSize?: number | undefined
  log?: ((message: string) => void) | undefined
}

export interface PostgresStorage extends Storage {
  /** The engine underneath (tests drop their schema through it). */
  readonly database: PostgresDatabase
}

/**
 * The storage on PostgreSQL, for a library that several servers share. The
 * stores are the embedded engine's (written once against SqlExecutor); the
 * engine, schema and search differ (postgres/). Creates or migrates the
 * schema on open.
 *
 * @example
 * const storage = await createPostgresStorage({ url: 'postgres://localhost/complib' })
 */
export async function createPostgresStorage(options: PostgresStorageOptions): Promise<PostgresStorage> {
  const db = await PostgresDatabase.open(options)
  const root = bindSession((fn, write) => db.run(fn, write))
  return defineStorage<PostgresStorage>({
    name: POSTGRES,
    database: db,
    ...root,
    transaction<T>(fn: (tx: StorageSession) => Promise<T>): Promise<T> {
      return db.run((ex) => inTransaction(ex, fn))
    },
    backup() {
      return Promise.reject(
        new ComplibError('NOT_IMPLEMENTED', 'a library on PostgreSQL is backed up with pg_dump (docs: "Running on PostgreSQL"); GET /api/exports/json exports its content'),
      )
    },
    close: () => db.close(),
  })
}
