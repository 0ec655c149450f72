import { execFile, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

export const exec = promisify(execFile)
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
/** The workspace's TypeScript compiler, run with node (no PATH lookup). */
export const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url))

/**
 * How to run the pinned pnpm: the one running us when there is one, else
 * `pnpm` on the PATH at the pinned version, else through npx (as
 * scripts/bootstrap.mjs does on a fresh machine).
 */
export function pnpmCommand(): [string, string[]] {
  const execPath = process.env.npm_execpath
  if (execPath && /pnpm/.test(execPath)) return [process.execPath, [execPath]]
  const pinned = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).packageManager as string
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' })
  if (probe.status === 0 && probe.stdout.trim() === pinned.split('@')[1]) return ['pnpm', []]
  return ['npx', ['-y', pinned]]
}
