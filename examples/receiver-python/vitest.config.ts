import { defineProject } from 'vitest/config'

// The tests start a complib server in-process (a native addon, better-sqlite3):
// forked processes, as in packages/*.
export default defineProject({
  test: {
    name: 'example-receiver-python',
    pool: 'forks',
    testTimeout: 30_000,
    // beforeAll starts a server, seeds hundreds of components and may spawn python3.
    hookTimeout: 60_000,
  },
})
