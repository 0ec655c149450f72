// How to run the pinned pnpm (package.json's packageManager): `pnpm` when the one on the
// PATH is that version, else through npx, which fetches it (decision 0001).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The pinned version, e.g. `10.34.9`. */
export function pinnedPnpm(root) {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1]
}

/** `[command, ...leading args]`: `['pnpm']` or `['npx', '-y', 'pnpm@x.y.z']`. */
export function pnpmCommand(root) {
  const want = pinnedPnpm(root)
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8', shell: process.platform === 'win32' })
  if (probe.status === 0 && probe.stdout.trim() === want) return ['pnpm']
  return ['npx', '-y', `pnpm@${want}`]
}
