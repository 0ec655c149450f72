import { defineProject } from 'vitest/config'

// The tests start a complib server in-process, which loads a native addon
// (better-sqlite3): forked processes, as in packages/*.
export default defineProject({
  test: {
    name: 'example-bulk-edit-descriptions',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
