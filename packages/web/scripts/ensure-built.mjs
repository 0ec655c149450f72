// Builds the web interface (vite build into dist/) when dist is missing or
// older than any of its sources: the page's own files and the client SDK it
// bundles. Used by `npm start` (scripts/bootstrap.mjs) and by the end-to-end
// tests, so neither serves a stale page.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const web = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Whether dist/ is missing or older than a source file. */
export function isWebBuildStale() {
  const built = join(web, 'dist', 'index.html')
  if (!existsSync(built)) return true
  const builtAt = statSync(built).mtimeMs
  const sources = [join(web, 'src'), join(web, 'index.html'), join(web, 'vite.config.ts'), join(web, 'package.json'), join(web, '../client-sdk/src')]
  return sources.some((s) => _newest(s) > builtAt)
}

/** Runs `vite build` when the bundle is stale; throws when the build fails. */
export function ensureWebBuilt({ quiet = false } = {}) {
  if (!isWebBuildStale()) return false
  if (!quiet) console.error('complib: building the web interface (packages/web)…')
  const vite = join(dirname(createRequire(join(web, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js')
  // NODE_ENV=production whoever calls (vitest sets "test"): else React's development build is bundled.
  const env = { ...process.env, NODE_ENV: 'production' }
  const res = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: web, env, stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8' })
  if (res.status !== 0) throw new Error(`building the web interface failed (exit ${res.status})${quiet ? `:\n${res.stdout}${res.stderr}` : ''}`)
  return true
}

function _newest(path) {
  if (!existsSync(path)) return 0
  const info = statSync(path)
  if (!info.isDirectory()) return info.mtimeMs
  let newest = info.mtimeMs
  for (const entry of readdirSync(path)) if (!entry.endsWith('.test.ts')) newest = Math.max(newest, _newest(join(path, entry)))
  return newest
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureWebBuilt()
