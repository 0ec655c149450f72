#!/usr/bin/env node
// The README's two commands (`npm start`, `npm test`) land here, so that a
// fresh machine with only Node and npm needs nothing else: pnpm is fetched by
// npx at the pinned version when it is not installed, dependencies are
// installed from the lockfile, and then the real task runs.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager // "pnpm@x.y.z"
const [task, ...rest] = process.argv.slice(2)

const pnpm = _pnpmCommand()
_run(pnpm[0], [...pnpm.slice(1), 'install', '--frozen-lockfile', '--prefer-offline'])

switch (task) {
  case 'start': {
    // Workspace packages export their TypeScript source (CONVENTIONS "Layout"),
    // so the server runs from source through tsx: no build step for a newcomer.
    const cli = join(root, 'packages/api-server/src/cli.ts')
    // `npm start` serves; `npm start -- push ERP --follow` runs another complib command.
    const args = rest[0] && !rest[0].startsWith('-') ? rest : ['serve', ...rest]
    // In this very process (no child to orphan): SIGTERM and SIGINT sent to `npm start`
    // reach the server, which stops cleanly and releases the port and the data folder.
    // npm runs this through `sh -c`, and a SIGTERM to npm ends the shell without reaching us:
    // when our parent goes away, stop as if the signal had come here.
    const parent = process.ppid
    setInterval(() => process.ppid !== parent && process.kill(process.pid, 'SIGTERM'), 500).unref()
    const { register } = await import('tsx/esm/api')
    register()
    process.argv = [process.argv[0], cli, ...args]
    await import(pathToFileURL(cli).href)
    break
  }
  case 'test':
  case 'test:full':
    // `test:full` is the same suite with the reliability tests at full size
    // (every kill -9 trial, the long load run): COMPLIB_FULL=1 scales them.
    if (task === 'test:full') process.env.COMPLIB_FULL = '1'
    _run(pnpm[0], [...pnpm.slice(1), 'exec', 'turbo', 'run', 'typecheck', '--output-logs=errors-only'])
    // A full run also checks that every route has a success and a failure test.
    if (rest.length === 0) process.env.COMPLIB_CHECK_ROUTE_COVERAGE = '1'
    _run(pnpm[0], [...pnpm.slice(1), 'exec', 'vitest', 'run', ...rest])
    break
  case 'bench':
    // Through pnpm exec: the bench builds the server with turbo, which calls pnpm
    // (found on the PATH pnpm exec sets up, also when pnpm came through npx).
    _run(pnpm[0], [...pnpm.slice(1), 'exec', 'node', '--import', 'tsx', join(root, 'bench/run.ts'), ...rest])
    break
  default:
    console.error(`usage: node scripts/bootstrap.mjs start|test|test:full|bench [args…]`)
    process.exit(2)
}

function _pnpmCommand() {
  const want = pinned.split('@')[1]
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8', shell: process.platform === 'win32' })
  if (probe.status === 0 && probe.stdout.trim() === want) return ['pnpm']
  return ['npx', '-y', pinned]
}

function _run(cmd, args) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
  if (res.signal) process.kill(process.pid, res.signal)
  if (res.status !== 0) process.exit(res.status ?? 1)
}
