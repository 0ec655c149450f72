import { existsSync, readdirSync } from 'node:fs'
import { Socket } from 'node:net'
import { availableParallelism } from 'node:os'
import { basename, join } from 'node:path'
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
 * The files `npm test` runs one at a time, after the rest has run a file per
 * core (decision 0013): a browser, servers killed with -9 or cut off by a
 * filesystem in user space, load and fuzzing at many connections, signals,
 * and timeouts measured against a trickled body, which a second file's work
 * on the same cores would stretch. By project folder: a whole project
 * (`true`) or some of its files.
 */
const ONE_AT_A_TIME: Record<string, true | string[]> = {
  'packages/web': true,
  'packages/core': ['test/crash.test.ts', 'test/checkpointer.test.ts'],
  'packages/api-server': ['test/reliability/**/*.test.ts', 'test/signals.test.ts', 'test/http-timeouts.test.ts'],
}

/**
 * What the second CI run (on Node 24, `COMPLIB_TEST_NODE_SCOPE=1`) leaves out:
 * what does not change with Node's version. The browser's end-to-end tests
 * drive the same server the API and command-line tests start on that Node;
 * the PostgreSQL runs repeat, on a driver written in JavaScript, suites that
 * also run on SQLite there (several servers on one PostgreSQL database
 * among them); the load run measures the server the rest of the suite has
 * tested on that Node. Node 20's run has all of it (decision 0004).
 */
const NODE_SCOPE_LEAVES_OUT: Record<string, string[]> = {
  'packages/web': ['test/e2e/**'],
  'packages/core': ['src/storage/postgres/**/*.test.ts', 'test/postgres-engine.test.ts'],
  'packages/api-server': ['test/reliability/multi-server.test.ts', 'test/reliability/load.test.ts'],
}

export default defineConfig(async () => {
  const quick = process.env.COMPLIB_QUICK === '1'
  if (!quick && process.env.COMPLIB_TEST_NODE_SCOPE === '1') {
    console.warn('[complib] COMPLIB_TEST_NODE_SCOPE=1: the browser tests, the PostgreSQL runs and the load run are left out (decision 0004)')
    return { test: { projects: _fullProjects(NODE_SCOPE_LEAVES_OUT, false) } }
  }
  const reachable = !quick && (await _reachable(POSTGRES_URL))
  if (!quick && !reachable && process.env.CI !== 'true') {
    console.warn(`[complib] PostgreSQL at ${POSTGRES_URL} does not answer: its API suite is skipped (the storage contract on it says so too)`)
  }
  return {
    test: {
      // By default vitest keeps a core free; the quick run is waited on, and much of it waits on timers and sockets.
      ...(quick ? { maxWorkers: availableParallelism() } : {}),
      projects: quick ? _quickProjects() : _fullProjects({}, reachable || process.env.CI === 'true'),
    },
  }
})

/**
 * `npm test`'s projects: each package's and example's own, less `leaveOut`,
 * split in two. First everything that runs in process, a file per core (the
 * files mostly wait on sockets and timers: one at a time, the suite used
 * three quarters of one core of two); then ONE_AT_A_TIME's files, one at a
 * time. Every file is isolated. Vitest runs the groups in `sequence.groupOrder`.
 */
function _fullProjects(leaveOut: Record<string, string[]>, postgres: boolean): TestProjectInlineConfiguration[] {
  const inParallel = { maxWorkers: Math.max(1, availableParallelism()), sequence: { groupOrder: 0 } }
  const oneAtATime = { maxWorkers: 1, sequence: { groupOrder: 1 } }
  const projects = _configuredFolders().flatMap((folder): TestProjectInlineConfiguration[] => {
    const alone = ONE_AT_A_TIME[folder]
    const exclude = [...configDefaults.exclude, ...(leaveOut[folder] ?? [])]
    const base = { extends: join(ROOT, folder, 'vitest.config.ts') }
    if (alone === true) return [{ ...base, test: { root: join(ROOT, folder), exclude, ...oneAtATime } }]
    return [
      { ...base, test: { root: join(ROOT, folder), exclude: [...exclude, ...(alone ?? [])], ...inParallel } },
      ...(alone ? [{ ...base, test: { root: join(ROOT, folder), name: `${basename(folder)} (one at a time)`, include: alone, exclude, ...oneAtATime } }] : []),
    ]
  })
  if (postgres) projects.push({ extends: join(ROOT, 'packages/api-server/vitest.postgres.config.ts'), test: { ...inParallel } })
  return projects
}

/** Each package's and example's own project, less what QUICK_LEAVES_OUT names. */
function _quickProjects(): TestProjectInlineConfiguration[] {
  return _configuredFolders()
    .filter((folder) => QUICK_LEAVES_OUT[folder] !== true)
    .map((folder) => {
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

/** The packages and examples with a vitest.config.ts. */
function _configuredFolders(): string[] {
  return ['packages', 'examples'].flatMap((dir) => _folders(dir).filter((folder) => existsSync(join(ROOT, folder, 'vitest.config.ts'))))
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
