import { existsSync, readdirSync } from 'node:fs'
import { Socket } from 'node:net'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'

// Every project runs its tests in forked processes (pool: 'forks' in each
// config): the servers they start load a native addon (better-sqlite3).
//
// The API suite runs a second time on PostgreSQL (packages/api-server/
// vitest.postgres.config.ts) when a server answers at COMPLIB_TEST_DATABASE_URL
// (the local one by default); without one it is left out with a note, except
// under CI=true, where it runs and fails saying why.
//
// COMPLIB_QUICK=1 (`npm run test:quick`) runs the unit and contract tests in
// process, for the edit-and-check loop; `npm test` runs everything, as CI does.
const ROOT = fileURLToPath(new URL('.', import.meta.url))
const POSTGRES_URL = process.env.COMPLIB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/**
 * What the quick run leaves out, by project folder: a whole project (`true`)
 * or some of its files. All of it starts real processes or browsers, packs,
 * builds, or needs Python or a PostgreSQL server; `npm test` still runs it (decision 0012).
 */
const QUICK_LEAVES_OUT: Record<string, true | string[]> = {
  // A real browser against a real server, and a production build of the page.
  'packages/web': true,
  'packages/core': [
    // Kill -9 mid-write, and a checkpointer thread churned in child processes.
    'test/crash.test.ts',
    'test/checkpointer.test.ts',
    // The storage contract and the engine on a PostgreSQL server (the same contract runs on SQLite).
    'src/storage/postgres/**/*.test.ts',
    'test/postgres-engine.test.ts',
  ],
  'packages/api-server': [
    // Real `complib serve` processes: crashes, faults, fuzzing, load, several servers on one database.
    'test/reliability/**',
    // The packed tarball installed with npm; the README's commands run as a newcomer would.
    'test/pack.test.ts',
    'test/readme-commands.test.ts',
    // The command line in child processes: serve, push, signals, copy between engines.
    'test/cli.test.ts',
    'test/signals.test.ts',
    // scripts/bootstrap.mjs in a workspace of its own, through npm.
    'test/bootstrap.test.ts',
    'test/copy.test.ts',
  ],
  // The packed tarball; a client generated and type-checked in child processes.
  'packages/client-sdk': ['test/pack.test.ts', 'test/openapi-typescript.test.ts'],
  // The examples that run Python.
  'examples/python-bulk-edit': true,
  'examples/receiver-python': true,
}

/**
 * What the second CI run (on Node 24, `COMPLIB_TEST_NODE_SCOPE=1`) leaves out:
 * what does not change with Node's version. The browser's end-to-end tests
 * drive the same server the API and command-line tests start on that Node,
 * and the PostgreSQL runs repeat, on a driver written in JavaScript, suites
 * that also run on SQLite there. Node 20's run has all of it (decision 0004).
 */
const NODE_SCOPE_LEAVES_OUT: Record<string, string[]> = {
  'packages/web': ['test/e2e/**'],
  'packages/core': ['src/storage/postgres/**/*.test.ts', 'test/postgres-engine.test.ts'],
}

export default defineConfig(async () => {
  const quick = process.env.COMPLIB_QUICK === '1'
  if (!quick && process.env.COMPLIB_TEST_NODE_SCOPE === '1') {
    console.warn('[complib] COMPLIB_TEST_NODE_SCOPE=1: the browser tests and the PostgreSQL runs are left out (decision 0004)')
    return { test: { projects: _nodeScopeProjects() } }
  }
  const reachable = !quick && (await _reachable(POSTGRES_URL))
  if (!quick && !reachable && process.env.CI !== 'true') {
    console.warn(`[complib] PostgreSQL at ${POSTGRES_URL} does not answer: its API suite is skipped (the storage contract on it says so too)`)
  }
  return {
    test: {
      // By default vitest keeps a core free; the quick run is waited on, and much of it waits on timers and sockets.
      ...(quick ? { maxWorkers: availableParallelism() } : {}),
      projects: quick
        ? _quickProjects()
        : ['packages/*', 'examples/*', ...(reachable || process.env.CI === 'true' ? ['packages/api-server/vitest.postgres.config.ts'] : [])],
    },
  }
})

/** Each package's and example's own project, less what QUICK_LEAVES_OUT names. */
function _quickProjects(): TestProjectInlineConfiguration[] {
  const folders = ['packages', 'examples'].flatMap((dir) =>
    _folders(dir).filter((folder) => existsSync(join(ROOT, folder, 'vitest.config.ts')) && QUICK_LEAVES_OUT[folder] !== true),
  )
  return folders.map((folder) => {
    const leaves = QUICK_LEAVES_OUT[folder]
    return {
      extends: join(ROOT, folder, 'vitest.config.ts'),
      test: {
        root: join(ROOT, folder),
        exclude: [...configDefaults.exclude, ...(Array.isArray(leaves) ? leaves : [])],
        // The files a worker runs share the modules it loaded (the server's load once per
        // worker, not once per file): most of the quick run's time was loading. `npm test`
        // isolates every file, so a test that needs fresh modules still gets a run that says so.
        isolate: false,
      },
    }
  })
}

/** Every package's and example's own project, isolated as `npm test` runs them, less NODE_SCOPE_LEAVES_OUT. */
function _nodeScopeProjects(): TestProjectInlineConfiguration[] {
  const folders = ['packages', 'examples'].flatMap((dir) => _folders(dir).filter((folder) => existsSync(join(ROOT, folder, 'vitest.config.ts'))))
  return folders.map((folder) => ({
    extends: join(ROOT, folder, 'vitest.config.ts'),
    test: { root: join(ROOT, folder), exclude: [...configDefaults.exclude, ...(NODE_SCOPE_LEAVES_OUT[folder] ?? [])] },
  }))
}

function _folders(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${dir}/${entry.name}`)
}

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
