// Whether the workspace's node_modules still matches what an install would give
// (decision 0020). scripts/bootstrap.mjs used to run `pnpm install` before every
// command, seconds each time even when nothing had changed; now it installs only
// when this stamp differs: the lockfile, the workspace's settings and every
// package.json of the workspace, the Node version and ABI (a native addon is
// built for one), the platform and the pinned pnpm.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Where the stamp is kept: inside node_modules, so deleting node_modules forgets it. */
export function stampPath(root) {
  return join(root, 'node_modules', '.complib-install-stamp')
}

/** The stamp this checkout, this Node and this pnpm would have after an install. */
export function currentStamp(root, pnpmVersion, versions = process.versions, platform = `${process.platform}-${process.arch}`) {
  const hash = createHash('sha256')
  for (const file of _inputs(root)) {
    hash.update(`${file}\0`)
    hash.update(existsSync(join(root, file)) ? readFileSync(join(root, file)) : '(none)')
    hash.update('\0')
  }
  return JSON.stringify({ node: versions.node, abi: versions.modules, platform, pnpm: pnpmVersion, inputs: hash.digest('hex') })
}

/** True when node_modules is missing, or was installed for other inputs, another Node or another pnpm. */
export function needsInstall(root, stamp) {
  if (!existsSync(join(root, 'node_modules', '.modules.yaml'))) return true
  const path = stampPath(root)
  return !existsSync(path) || readFileSync(path, 'utf8') !== stamp
}

export function writeStamp(root, stamp) {
  mkdirSync(join(root, 'node_modules'), { recursive: true })
  writeFileSync(stampPath(root), stamp)
}

/** The files an install reads: the lockfile, the workspace file, the pnpmfile, and each workspace package's manifest. */
function _inputs(root) {
  const files = ['pnpm-lock.yaml', 'pnpm-workspace.yaml', '.pnpmfile.cjs', '.npmrc', 'package.json']
  for (const pattern of _workspaceGlobs(root)) {
    if (pattern.endsWith('/*')) {
      const dir = pattern.slice(0, -2)
      if (!existsSync(join(root, dir))) continue
      for (const entry of readdirSync(join(root, dir)).sort()) {
        if (existsSync(join(root, dir, entry, 'package.json'))) files.push(`${dir}/${entry}/package.json`)
      }
    } else files.push(`${pattern}/package.json`)
  }
  return files
}

/** The `packages:` list of pnpm-workspace.yaml (plain entries such as `packages/*` and `bench`). */
function _workspaceGlobs(root) {
  const file = join(root, 'pnpm-workspace.yaml')
  if (!existsSync(file)) return []
  const globs = []
  let inList = false
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^packages:\s*$/.test(line)) inList = true
    else if (inList && /^\s+-\s+/.test(line)) globs.push(line.replace(/^\s+-\s+/, '').replace(/['"]/g, '').trim())
    else if (inList && /^\S/.test(line)) inList = false
  }
  return globs
}
