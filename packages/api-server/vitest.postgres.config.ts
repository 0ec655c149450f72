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
      'test/bulk.test.ts',
      'test/component-stream.test.ts',
      'test/components.test.ts',
      'test/connector-run-batches.test.ts',
      'test/connectors-delete-race.test.ts',
      'test/connectors-run-events.test.ts',
      'test/connectors.test.ts',
      'test/docs.test.ts',
      'test/identifiers.test.ts',
      'test/import-export.test.ts',
      'test/export-filtered.test.ts',
      'test/import-export-peers.test.ts',
      'test/import-export-peer-keys.test.ts',
      'test/import-export-roundtrip.test.ts',
      'test/import-export-rows.test.ts',
      'test/import-jobs.test.ts',
      'test/source-pulls.test.ts',
      'test/source-pulls-peers.test.ts',
      'test/source-refresh-servers.test.ts',
      'test/kicad-conformance.test.ts',
      'test/kicad.test.ts',
      'test/kicad-cache.test.ts',
      'test/kicad-settings.test.ts',
      'test/kicad-remote.test.ts',
      'test/library-table.test.ts',
      'test/library-items.test.ts',
      'test/locations.test.ts',
      'test/manufacturers.test.ts',
      'test/mpns.test.ts',
      'test/parameters.test.ts',
      'test/parameter-templates.test.ts',
      'test/route-inputs.test.ts',
      'test/search.test.ts',
      'test/system.test.ts',
      'test/tags.test.ts',
      'test/permissions.test.ts',
      'test/auth.test.ts',
      'test/tokens.test.ts',
      'test/audit.test.ts',
      'test/users.test.ts',
      'test/teams-servers.test.ts',
      'test/users-command.test.ts',
      'test/views.test.ts',
      'test/sources.test.ts',
      'test/sources-mouser.test.ts',
    ],
  },
})
