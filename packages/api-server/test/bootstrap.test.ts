import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { repoRoot } from '@complib/test-support/tools'
// @ts-expect-error a plain .mjs script of the repository, without declarations
import { currentStamp, needsInstall, writeStamp } from '../../../scripts/install-stamp.mjs'

// scripts/bootstrap.mjs, behind every README command: it installs only when something an
// install reads has changed (decision 0020), and an example stopped with Ctrl-C ends
// quietly with exit 0 (decision 0005). Checked in a workspace of its own, with a pnpm on
// the PATH that only notes that it was called.

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const rootManifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { packageManager: string; scripts: Record<string, string> }
const pinnedPnpm = rootManifest.packageManager.split('@')[1]!

/** A workspace with the real bootstrap, one example, and a fake pnpm that logs its calls. */
function workspace(exampleStart: string): { root: string; log: string; env: NodeJS.ProcessEnv } {
  const root = mkdtempSync(join(tmpdir(), 'complib-bootstrap-'))
  dirs.push(root)
  cpSync(join(repoRoot, 'scripts'), join(root, 'scripts'), { recursive: true })
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'w', private: true, packageManager: rootManifest.packageManager, scripts: { example: rootManifest.scripts.example } }))
  writeFileSync(join(root, 'pnpm-workspace.yaml'), 'packages:\n  - examples/*\n')
  writeFileSync(join(root, 'pnpm-lock.yaml'), "lockfileVersion: '9.0'\n")
  mkdirSync(join(root, 'examples/hello'), { recursive: true })
  writeFileSync(join(root, 'examples/hello/package.json'), JSON.stringify({ name: 'hello', scripts: { start: exampleStart } }))
  const bin = join(root, 'fake-bin')
  mkdirSync(bin)
  const log = join(root, 'pnpm-calls.log')
  // What a real install leaves behind: node_modules/.modules.yaml.
  const pnpm = `#!/bin/sh\necho "$*" >> '${log}'\n[ "$1" = "--version" ] && echo ${pinnedPnpm}\n[ "$1" = "install" ] && mkdir -p node_modules && touch node_modules/.modules.yaml\nexit 0\n`
  for (const name of ['pnpm', 'npx']) (writeFileSync(join(bin, name), pnpm), chmodSync(join(bin, name), 0o755))
  return { root, log, env: { ...process.env, PATH: [bin, process.env.PATH].join(delimiter) } }
}

const installs = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => /\binstall\b/.test(l)).length : 0)

describe('the install stamp', () => {
  it('asks for an install when node_modules is missing, the lockfile or a package.json changed, or Node or pnpm differ', () => {
    const { root } = workspace('node -e 0')
    const stamp = currentStamp(root, pinnedPnpm)
    expect(needsInstall(root, stamp)).toBe(true)
    mkdirSync(join(root, 'node_modules'))
    writeFileSync(join(root, 'node_modules/.modules.yaml'), '')
    expect(needsInstall(root, stamp)).toBe(true)
    writeStamp(root, stamp)
    expect(needsInstall(root, currentStamp(root, pinnedPnpm))).toBe(false)
    expect(needsInstall(root, currentStamp(root, '10.0.0'))).toBe(true)
    expect(needsInstall(root, currentStamp(root, pinnedPnpm, { ...process.versions, node: '24.11.0', modules: '137' }))).toBe(true)
    writeFileSync(join(root, 'examples/hello/package.json'), JSON.stringify({ name: 'hello', dependencies: { zod: '^4' } }))
    expect(needsInstall(root, currentStamp(root, pinnedPnpm))).toBe(true)
    writeStamp(root, currentStamp(root, pinnedPnpm))
    writeFileSync(join(root, 'pnpm-lock.yaml'), "lockfileVersion: '9.0'\n# changed\n")
    expect(needsInstall(root, currentStamp(root, pinnedPnpm))).toBe(true)
  })
})

describe('scripts/bootstrap.mjs', () => {
  it('installs on the first run and after a package.json changed, not on the runs between', () => {
    const { root, log, env } = workspace('node -e "console.log(\'hello ran\')"')
    const run = () => spawnSync(process.execPath, ['scripts/bootstrap.mjs', 'example', 'hello'], { cwd: root, env, encoding: 'utf8' })
    const first = run()
    expect([first.status, first.stdout.trim()]).toEqual([0, 'hello ran'])
    expect(installs(log)).toBe(1)
    expect(run().stdout.trim()).toBe('hello ran')
    expect(run().status).toBe(0)
    expect(installs(log)).toBe(1)
    writeFileSync(join(root, 'examples/hello/package.json'), JSON.stringify({ name: 'hello', version: '1.0.0', scripts: { start: 'node -e 0' } }))
    expect(run().status).toBe(0)
    expect(installs(log)).toBe(2)
  })

  it('Ctrl-C (SIGINT to the whole process group) stops `npm run example -- <name>` quietly, with exit 0', async () => {
    // Like a receiver: listens until SIGINT, then closes and exits 0. It says so once its handler
    // is in place: said before, a Ctrl-C sent on seeing it could meet Node's default and end it.
    const example = `node -e "process.once('SIGINT', () => setTimeout(() => process.exit(0), 200)); setInterval(() => {}, 1000); console.log('listening')"`
    const { root, env } = workspace(example)
    const child = spawn('npm', ['run', 'example', '--', 'hello'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => out.includes('listening') && resolve())
      child.once('exit', () => reject(new Error(`exited before listening:\n${out}`)))
    })
    const exited = new Promise<[number | null, string | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])))
    // A terminal's Ctrl-C: the foreground process group, npm and sh and everything below.
    process.kill(-child.pid!, 'SIGINT')
    expect(await exited, out).toEqual([0, null])
    expect(out).not.toMatch(/ERR_|fail|error/i)
  }, 60_000)
})
