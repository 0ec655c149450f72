import { fileURLToPath } from 'node:url'
import { defineProject } from 'vitest/config'

/**
 * The API suite again, on PostgreSQL: every test file built on the in-process
 * harness, whose library is then a schema of its own in the database
 * (test/harness.ts). attachments.test.ts stays on SQLite: it checks the files
 * of the data folder. Needs a PostgreSQL server (COMPLIB_TEST_DATABASE_URL);
 * test/postgres-setup.ts skips the project without one, or fails under CI=true.
 */
export default defineProject({
  test: {
    name: 'api-server-postgres',
    root: fileURLToPath(new URL('.', import.meta.url)),
    pool: 'forks',
    testTimeout: 30_000,
    env: { COMPLIB_TEST_STORAGE: 'postgres' },
    globalSetup: ['./test/postgres-setup.ts'],
    include: [
      'test/catalog.test.ts',
      'test/components.test.ts',
      'test/connectors.test.ts',
      'test/identifiers.test.ts',
      'test/import-export.test.ts',
      'test/import-peers.test.ts',
      'test/import-roundtrip.test.ts',
      'test/import-rows.test.ts',
      'test/kicad-conformance.test.ts',
      'test/kicad.test.ts',
      'test/run-events.test.ts',
      'test/stock-search-bulk.test.ts',
      'test/system.test.ts',
    ],
  },
})
