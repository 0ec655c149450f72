import { randomBytes } from 'node:crypto'
import { describe, it } from 'vitest'
import { testStorage } from '../../testing'
import { probePostgres, TEST_DATABASE_URL } from '../../../test/postgres-server'
import { createPostgresStorage } from './storage'

/**
 * The shared storage contract on PostgreSQL (COMPLIB_TEST_DATABASE_URL, by
 * default the local server's `test` database), each test in a schema of its
 * own that it drops afterwards. Without a reachable server the suite is
 * skipped and says why; under CI=true it fails instead.
 */
const url = TEST_DATABASE_URL
// Under CI=true an unreachable server fails this file: CI runs the PostgreSQL suites.
const unreachable = await probePostgres(url)

if (unreachable === null) {
  testStorage('postgres', async () => {
    const storage = await createPostgresStorage({ url, schema: `complib_t_${randomBytes(6).toString('hex')}`, poolSize: 4 })
    return Object.assign(storage, { close: () => storage.dropSchema() })
  })
} else {
  describe.skip(`storage contract: postgres (skipped: PostgreSQL at ${url} is unreachable: ${unreachable}; set COMPLIB_TEST_DATABASE_URL)`, () => {
    it('runs against a real server', () => {})
  })
}
