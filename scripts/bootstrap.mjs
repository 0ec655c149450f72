#!/usr/bin/env node
// Every command the README gives (`npm start`, `npm test`, `npm run test:quick`,
// `npm run build`, `npm run example -- receiver-node`, …) lands here, so that a fresh machine
// with only Node and npm needs nothing else: pnpm is fetched by npx at the
// pinned version when it is not installed, dependencies are installed from the
// lockfile when anything an install reads has changed, and then the real task runs. The README's commands are checked, and
// those that can run in CI are run, by
// packages/api-server/test/readme-commands.test.ts.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { currentStamp, needsInstall, writeStamp } from './install-stamp.mjs'
import { pinnedPnpm, pnpmCommand } from './pnpm-command.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const [task, ...rest] = process.argv.slice(2)

// Installs only when the lockfile, a package.json, the Node version or pnpm changed since the
// last install (decision 0020): a second `npm start` starts without pnpm at all.
const stamp = currentStamp(root, pinnedPnpm(root))
if (needsInstall(root, stamp)) {
  const pnpm = _pnpmCommand()
  _run(pnpm[0], [...pnpm.slice(1), 'install', '--frozen-lockfile', '--prefer-offline'])
  writeStamp(root, stamp)
}

switch (task) {
  case 'start': {
    // Workspace packages export their TypeScript source (CONVENTIONS "Layout"),
    // so the server runs from source through tsx: no build step for a newcomer.
    const cli = join(root, 'packages/api-server/src/cli.ts')
    // `npm start` serves; `npm start -- push ERP --follow` runs another complib command;
    // `npm start -- --help` is complib's own help, the list of commands.
    const args = (rest[0] && !rest[0].startsWith('-')) || /^(-h|--help|-v|--version)$/.test(rest[0] ?? '') ? rest : ['serve', ...rest]
    // The web interface the server serves at / is a Vite bundle: built here when it is
    // missing or older than its sources (a few seconds), like the install above.
    const { ensureWebBuilt } = await import(pathToFileURL(join(root, 'packages/web/scripts/ensure-built.mjs')).href)
    if (args[0] === 'serve' && !args.some((a) => /^(-h|--help|-v|--version)$/.test(a))) ensureWebBuilt()
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
  case 'test:full': {
    const pnpm = _pnpmCommand()
    // `test:full` is the same suite with the reliability tests at full size
    // (every kill -9 trial, the long load run): COMPLIB_FULL=1 scales them.
    if (task === 'test:full') process.env.COMPLIB_FULL = '1'
    // The whole suite, whatever the shell exported for a quick run.
    delete process.env.COMPLIB_QUICK
    // CI's second run, on Node 24 (decision 0004), runs the tests only: tsc's verdict does not change with Node's version.
    if (process.env.COMPLIB_TEST_NODE_SCOPE === '1') console.warn('[complib] COMPLIB_TEST_NODE_SCOPE=1: no type-check (the run on the first Node had it)')
    else _run(pnpm[0], [...pnpm.slice(1), 'exec', 'turbo', 'run', 'typecheck', '--output-logs=errors-only'])
    // A full run also checks that every route has a success and a failure test.
    if (rest.length === 0) process.env.COMPLIB_CHECK_ROUTE_COVERAGE = '1'
    _run(pnpm[0], [...pnpm.slice(1), 'exec', 'vitest', 'run', ...rest])
    break
  }
  case 'test:quick': {
    // The loop while working: no type-check, and only what runs in process
    // (vitest.config.ts names what COMPLIB_QUICK=1 leaves out). `npm test` before pushing.
    process.env.COMPLIB_QUICK = '1'
    const pnpm = _pnpmCommand()
    _run(pnpm[0], [...pnpm.slice(1), 'exec', 'vitest', 'run', ...rest])
    break
  }
  case 'build':
  case 'typecheck': {
    // turbo calls pnpm for each package: pnpm exec puts the one we chose on its PATH.
    const pnpm = _pnpmCommand()
    _run(pnpm[0], [...pnpm.slice(1), 'exec', 'turbo', 'run', task, ...rest])
    break
  }
  case 'vitest':
  case 'changeset': {
    const pnpm = _pnpmCommand()
    _run(pnpm[0], [...pnpm.slice(1), 'exec', task, ...(task === 'vitest' ? ['run'] : []), ...rest])
    break
  }
  case 'example': {
    // `npm run example -- receiver-node --port 8080`: an example's own start script, in its folder.
    const [name, ...args] = rest
    const examples = readdirSync(join(root, 'examples')).filter((d) => existsSync(join(root, 'examples', d, 'package.json')))
    const runnable = examples.filter((d) => JSON.parse(readFileSync(join(root, 'examples', d, 'package.json'), 'utf8')).scripts?.start)
    if (!name || !runnable.includes(name)) {
      console.error(`usage: npm run example -- <name> [args…], name one of: ${runnable.join(', ')}`)
      process.exit(2)
    }
    // Long-running (a receiver listens): the signal that stops npm stops the example too, and
    // quietly. The start script runs here, not through `pnpm start`, which reports a child
    // stopped by Ctrl-C as a failed command (decision 0005).
    const start = JSON.parse(readFileSync(join(root, 'examples', name, 'package.json'), 'utf8')).scripts.start
    _runExample(join(root, 'examples', name), start, args)
    break
  }
  case 'pack': {
    // scripts/pack.mjs: `pnpm pack` for each publishable package, into ./packed (decision 0024).
    const res = spawnSync(process.execPath, [join(root, 'scripts/pack.mjs'), ...rest], { cwd: root, stdio: 'inherit' })
    process.exit(res.status ?? 1)
  }
  case 'bench': {
    // Through pnpm exec: the bench builds the server with turbo, which calls pnpm
    // (found on the PATH pnpm exec sets up, also when pnpm came through npx).
    const pnpm = _pnpmCommand()
    _run(pnpm[0], [...pnpm.slice(1), 'exec', 'node', '--import', 'tsx', join(root, 'bench/run.ts'), ...rest])
    break
  }
  default:
    console.error(`usage: node scripts/bootstrap.mjs start|test|test:quick|test:full|bench|build|typecheck|vitest|changeset|example|pack [args…]`)
    process.exit(2)
}

function _pnpmCommand() {
  return pnpmCommand(root)
}

function _run(cmd, args) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
  if (res.signal) process.kill(process.pid, res.signal)
  if (res.status !== 0) process.exit(res.status ?? 1)
}

/**
 * Runs an example's start script in its folder, with its and the workspace's bins on the PATH
 * (as `pnpm start` would). Ctrl-C signals the whole terminal group, the example included;
 * a signal sent to us alone reaches it a moment later. Stopped that way, we exit 0 quietly.
 */
function _runExample(dir, start, args) {
  const env = { ...process.env, PATH: [join(dir, 'node_modules/.bin'), join(root, 'node_modules/.bin'), process.env.PATH].join(delimiter) }
  const child =
    process.platform === 'win32'
      ? spawn([start, ...args.map((a) => JSON.stringify(a))].join(' '), { cwd: dir, stdio: 'inherit', shell: true, env })
      : spawn('sh', ['-c', `exec ${start} "$@"`, 'sh', ...args], { cwd: dir, stdio: 'inherit', env })
  let stopping = false
  let exited = false
  const stop = (signal) => {
    if (stopping) return
    stopping = true
    // Twice would end it before it closes: only when the signal did not reach it too.
    setTimeout(() => exited || child.kill(signal), 1000).unref()
  }
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal))
  // npm runs us through `sh -c`; a SIGTERM to npm ends the shell without reaching us (see 'start').
  const parent = process.ppid
  setInterval(() => process.ppid !== parent && stop('SIGTERM'), 500).unref()
  child.on('exit', (code, signal) => {
    exited = true
    // 130 and 143: a shell's or tsx's way of saying "ended by SIGINT / SIGTERM".
    if (stopping && (signal || code === 0 || code === 130 || code === 143)) process.exit(0)
    process.exit(signal ? 1 : (code ?? 1))
  })
}
