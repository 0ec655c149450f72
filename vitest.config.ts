import { Socket } from 'node:net'
import { defineConfig } from 'vitest/config'

// Every project runs its tests in forked processes (pool: 'forks' in each
// config): the servers they start load a native addon (better-sqlite3).
//
// The API suite runs a second time on PostgreSQL (packages/api-server/
// vitest.postgres.config.ts) when a server answers at COMPLIB_TEST_DATABASE_URL
// (the local one by default); without one it is left out with a note, except
// under CI=true, where it runs and fails saying why.
const POSTGRES_URL = process.env.COMPLIB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export default defineConfig(async () => {
  const reachable = await _reachable(POSTGRES_URL)
  if (!reachable && process.env.CI !== 'true') {
    console.warn(`[complib] PostgreSQL at ${POSTGRES_URL} does not answer: its API suite is skipped (the storage contract on it says so too)`)
  }
  return {
    test: {
      projects: ['packages/*', 'examples/*', ...(reachable || process.env.CI === 'true' ? ['packages/api-server/vitest.postgres.config.ts'] : [])],
    },
  }
})

/** Whether something listens at the URL's host and port (a TCP connect, 2 s at most). */
function _reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = new Socket()
    const done = (ok: boolean) => (socket.destroy(), resolve(ok))
    socket.setTimeout(2000, () => done(false))
    socket.once('error', () => done(false))
    socket.connect(Number(port || 5432), hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', () => done(true))
  })
}
