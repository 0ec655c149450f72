import { defineConfig } from 'vitest/config'

// Every project runs its tests in forked processes (pool: 'forks' in each
// config): the servers they start load a native addon (better-sqlite3).
export default defineConfig({
  test: {
    projects: ['packages/*', 'examples/*'],
  },
})
