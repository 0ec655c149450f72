import { ComplibError } from '../../errors'
import { defineStorage } from '../define'
import { currentChange } from '../../change-context'
import { bindSession, inTransaction } from '../_internal/session'
import type { RunClaims } from './claims'
import type { PostgresDatabase } from './engine'
import type { Storage, StorageSession } from '../types'

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
  /** Attachment bytes by SHA-256, in the database so every server reaches them. */
  readonly blobs: DatabaseBlobs
  /** Closes the storage and drops its schema with everything in it (tests; never the `public` schema). */
  dropSchema(): Promise<void>
}

/** Content-addressed bytes in the database (the server's BlobStore on PostgreSQL). */
export interface DatabaseBlobs {
  /** Stores the bytes under their digest (the same bytes twice keep one copy); durable when it resolves. */
  write(sha256: string, bytes: Uint8Array): Promise<void>
  read(sha256: string): Promise<Uint8Array | null>
  /** Removes the bytes unless an attachment record still refers to them. */
  removeUnused(sha256: string): Promise<void>
}

/**
 * The storage on PostgreSQL, for a library that several servers share. The
 * stores are those of every engine (stores/, written once against
 * SqlExecutor); the engine, dialect, schema and search are its own
 * (postgres/; decision 0100). Creates or migrates the schema on open.
 *
 * @example
 * const storage = await createPostgresStorage({ url: 'postgres://localhost/complib' })
 */
export async function createPostgresStorage(options: PostgresStorageOptions): Promise<PostgresStorage> {
  // Loaded here, not at import: an embedded server never pays for loading the driver (pg;
  // decision 0108).
  const [{ PostgresDatabase }, { RunClaims }] = await Promise.all([import('./engine'), import('./claims')])
  const db = await PostgresDatabase.open(options)
  const claims = new RunClaims(options.url, options.log, options.schema)
  const root = bindSession((fn, access) => db.run(fn, access))
  return defineStorage<PostgresStorage>({
    name: POSTGRES,
    database: db,
    ...root,
    transaction<T>(fn: (tx: StorageSession) => Promise<T>): Promise<T> {
      const change = currentChange()
      return db.run((ex) => inTransaction(ex, fn, change))
    },
    backup() {
      return Promise.reject(
        new ComplibError('NOT_IMPLEMENTED', 'a library on PostgreSQL is backed up with pg_dump (README: "On PostgreSQL"); GET /api/exports/components exports its content'),
      )
    },
    blobs: {
      write: (sha256, bytes) =>
        db.run(async (ex) => {
          await ex.run('INSERT INTO blobs (sha256, bytes) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING', [sha256, bytes])
        }),
      read: (sha256) => db.run(async (ex) => (await ex.get<{ bytes: Uint8Array }>('SELECT bytes FROM blobs WHERE sha256 = ?', [sha256]))?.bytes ?? null, 'read'),
      removeUnused: (sha256) =>
        db.run(async (ex) => {
          await ex.run('DELETE FROM blobs WHERE sha256 = ? AND NOT EXISTS (SELECT 1 FROM attachments WHERE sha256 = ?)', [sha256, sha256])
        }),
    },
    claimRun: (runId) => claims.claim(runId),
    dropSchema: async () => {
      await claims.close()
      await db.drop()
    },
    close: async () => {
      await claims.close()
      await db.close()
    },
  })
}
