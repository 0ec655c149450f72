import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { describe, it } from 'vitest'
import { testStorage } from '../testing'
import { createPostgresStorage } from './postgres'

/**
 * The shared storage contract on PostgreSQL (COMPLIB_TEST_DATABASE_URL, by
 * default the local server's `test` database), each test in a schema of its
 * own that it drops afterwards. Without a reachable server the suite is
 * skipped and says why; under CI=true it fails instead.
 */
const url = process.env.COMPLIB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const unreachable = await _probe(url)

if (unreachable === null) {
  testStorage('postgres', async () => {
    const storage = await createPostgresStorage({ url, schema: `complib_t_${randomBytes(6).toString('hex')}`, poolSize: 4 })
    return Object.assign(storage, { close: () => storage.dropSchema() })
  })
} else if (process.env.CI === 'true') {
  describe('storage contract: postgres', () => {
    it('needs a PostgreSQL server under CI', () => {
      throw new Error(`PostgreSQL at ${url} is unreachable (${unreachable}); CI runs the PostgreSQL suites against a real server`)
    })
  })
} else {
  describe.skip(`storage contract: postgres (skipped: PostgreSQL at ${url} is unreachable: ${unreachable}; set COMPLIB_TEST_DATABASE_URL)`, () => {
    it('runs against a real server', () => {})
  })
}

async function _probe(connectionString: string): Promise<string | null> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query('SELECT 1')
    return null
  } catch (error) {
    return (error as Error).message || String(error)
  } finally {
    await client.end().catch(() => {})
  }
}
