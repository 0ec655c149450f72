import pg from 'pg'
import { ComplibError } from '../../errors'
import type { Access } from '../stores/repo'
import { PgExecutor, PreparedNames } from './executor'
import { MIGRATION_LOCK, migratePostgres } from './schema'
import { StoredViews } from './views'

export interface PostgresDatabaseOptions {
  /** `postgres://user@host:port/database` */
  url: string
  /** Schema holding complib's tables (default `public`); tests use one each. */
  schema?: string | undefined
  /** Connections in the pool (default 10). */
  poolSize?: number | undefined
  log?: ((message: string) => void) | undefined
}

/** Every write transaction takes this lock first: see PostgresDatabase. */
const WRITE_LOCK = MIGRATION_LOCK + 1

// count(*) and bigint columns come back as numbers (they stay far below 2^53), as from SQLite.
const TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 && format !== 'binary') return (value: string) => Number(value)
    return pg.types.getTypeParser(oid, format)
  },
} as pg.CustomTypesConfig

/**
 * complib's tables in a PostgreSQL database, through a node-postgres pool.
 *
 * Writes run one at a time across every server on the database: a write
 * transaction begins by taking one transaction-level advisory lock. That keeps
 * the stores' read-check-write steps (version checks, uniqueness, the next
 * IPN) as safe as on the single-writer embedded engine, and it makes the
 * change feed's sequence numbers commit in order, so a reader paging the feed
 * never skips an event that commits later with a smaller number. Reads take no
 * lock and run in a READ ONLY, REPEATABLE READ transaction: one snapshot, and
 * PostgreSQL itself refuses a write handed to a read path.
 *
 * A write resolves once PostgreSQL has committed it (`synchronous_commit` as
 * the server sets it: on by default, which flushes the WAL before COMMIT returns).
 */
export class PostgresDatabase {
  private closed = false
  /** Calls declared `read` that needed a second statement and ran again in a snapshot (tests read it). */
  rereads = 0
  /** Names of the prepared statements, shared by every connection (PreparedNames). */
  private readonly statements = new PreparedNames()
  /** Component views this server keeps, by history seq (StoredViews). */
  readonly views = new StoredViews()

  private constructor(
    private readonly pool: pg.Pool,
    private readonly options: PostgresDatabaseOptions,
  ) {}

  static async open(options: PostgresDatabaseOptions): Promise<PostgresDatabase> {
    const schema = options.schema ?? 'public'
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`[storage] not a schema name: ${schema}`)
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      types: TYPES,
      // Every transaction is read only unless it says otherwise (writes begin READ WRITE): a
      // read that runs as one statement outside a transaction is refused a write as well.
      // No JIT compilation: it pays off for long analytic queries, and the server's default
      // threshold is a cost that a filtered page on a large library passes (its plan weighs the
      // branch that reads every match, never run), so each such page spent 15-17 ms compiling
      // expressions for a statement that ran in 2 (decision 0321).
      options: `-c search_path=${schema},public -c default_transaction_read_only=on -c jit=off`,
      application_name: 'complib',
    })
    // An idle connection that fails (the database restarted) is dropped from the pool, not thrown.
    pool.on('error', (error) => options.log?.(`[storage] an idle PostgreSQL connection failed: ${error.message}`))
    const self = new PostgresDatabase(pool, options)
    let client: pg.PoolClient
    try {
      client = await pool.connect()
    } catch (error) {
      await pool.end().catch(() => {})
      throw new Error(`[storage] cannot reach PostgreSQL at ${_redact(options.url)}: ${(error as Error).message}`)
    }
    try {
      await client.query('SET SESSION default_transaction_read_only = off')
      if (schema !== 'public') await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
      const changed = await migratePostgres(client)
      await client.query('SET SESSION default_transaction_read_only = on')
      if (changed) options.log?.(`[storage] PostgreSQL schema ${schema} created or migrated`)
    } catch (error) {
      client.release()
      await pool.end().catch(() => {})
      throw error
    }
    client.release()
    return self
  }

  /**
   * Runs `fn` as its store declares it (Access, stores/repo.ts): a `write` in
   * one transaction with the write lock; a `snapshot` read in one READ ONLY,
   * REPEATABLE READ transaction; a `free` read statement by statement, each
   * its own snapshot. A `read` goes out alone, outside a transaction: one
   * round trip and one snapshot of its own. Should it go on to a second
   * statement after all (a path off its usual one), it is stopped there and
   * this call runs again in a snapshot transaction; reads have no side
   * effects, so running one again is safe. Commits when `fn` resolves (a
   * throw rolls back); resolves after COMMIT.
   */
  async run<T>(fn: (ex: PgExecutor) => T | Promise<T>, access: Access = 'write'): Promise<T> {
    if (this.closed) throw new ComplibError('SERVICE_UNAVAILABLE', 'the storage is closed')
    if (access === 'free') return await this._withClient(async (client) => await fn(new PgExecutor(client, this.statements, this.views)))
    if (access === 'read') {
      const { result, statements } = await this._withClient(async (client) => {
        const ex = new PgExecutor(client, this.statements, this.views, 1)
        try {
          return { result: await fn(ex), statements: ex.statements }
        } catch (error) {
          if (ex.statements <= 1) throw error
          return { result: undefined, statements: ex.statements }
        }
      })
      if (statements <= 1) return result as T
      this.rereads++
    }
    const write = access === 'write'
    return await this._withClient(async (client, broke) => {
      try {
        await client.query(write ? `BEGIN READ WRITE; SELECT pg_advisory_xact_lock(${WRITE_LOCK})` : 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
        const result = await fn(new PgExecutor(client, this.statements, this.views))
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(broke)
        throw error
      }
    })
  }

  /** Runs `fn` on a pooled connection; a connection that failed is dropped, not put back. */
  private async _withClient<T>(fn: (client: pg.PoolClient, broke: () => void) => Promise<T>): Promise<T> {
    let client: pg.PoolClient
    try {
      client = await this.pool.connect()
    } catch (error) {
      throw _storageError(error)
    }
    let broken = false
    // A connection lost while checked out fails its query (handled below) and also emits
    // 'error', which would be an uncaught exception without a listener.
    const onError = () => {
      broken = true
    }
    client.on('error', onError)
    try {
      return await fn(client, onError)
    } catch (error) {
      throw _storageError(error)
    } finally {
      client.off('error', onError)
      client.release(broken)
    }
  }

  /**
   * VACUUM (ANALYZE) of the schema's tables, outside any transaction: after a
   * bulk load (`complib copy`), so the planner has statistics and no read
   * wades through the row versions the load left (decision 0317).
   */
  async vacuum(): Promise<void> {
    await this._withClient(async (client) => {
      const { rows } = await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()`)
      for (const { name } of rows) await client.query(`VACUUM (ANALYZE) "${name}"`)
    })
  }

  /** Drops the schema (tests), then closes the pool. */
  async drop(): Promise<void> {
    const schema = this.options.schema
    if (!schema || schema === 'public') throw new Error('[storage] refusing to drop the public schema')
    await this.pool.query(`BEGIN READ WRITE; DROP SCHEMA IF EXISTS ${schema} CASCADE; COMMIT`)
    await this.close()
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.pool.end()
  }
}

/** The URL without its password, for messages. */
function _redact(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'the given URL'
  }
}

const UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '53300'])

function _storageError(error: unknown): unknown {
  if (error instanceof ComplibError) return error
  const code = String((error as { code?: unknown })?.code ?? '')
  if (code === '53100') return new ComplibError('INSUFFICIENT_STORAGE', 'the database is out of disk space; the write was not saved', { cause: error })
  if (UNAVAILABLE.has(code) || code.startsWith('08') || /Connection terminated|connection timeout/i.test(String((error as Error)?.message))) {
    return new ComplibError('SERVICE_UNAVAILABLE', 'the database cannot be reached', { cause: error })
  }
  if (code === '22021' && /0x00/.test(String((error as Error).message))) {
    const detail = 'text with the character U+0000 (NUL) cannot be stored in PostgreSQL; remove it'
    return new ComplibError('VALIDATION_FAILED', detail, { cause: error, errors: [{ path: 'body', message: detail }] })
  }
  if (code === '23505') return new ComplibError('CONFLICT', 'a record with the same unique value already exists', { cause: error })
  return error
}
