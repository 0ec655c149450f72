#!/usr/bin/env node
// `npm run pack [-- --out <folder>] [package…]`: builds and packs the packages a user
// installs (decision 0024) into ./packed, or <folder>: none is on a registry, so a
// clone's tarballs are how the client and `complib serve` reach a project elsewhere.
// `pnpm pack` runs each package's prepack build (decision 0009) and writes the
// versions of its workspace dependencies in place of `workspace:*`.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { pnpmCommand } from './pnpm-command.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
/** Every package that is not private, in the order their dependencies need. */
export const PUBLISHABLE = ['core', 'connector-webhook', 'sources', 'api-server', 'client-sdk']

const { values, positionals } = parseArgs({ allowPositionals: true, options: { out: { type: 'string' } } })
const unknown = positionals.filter((name) => !PUBLISHABLE.includes(name))
if (unknown.length > 0) {
  console.error(`npm run pack: no publishable package ${unknown.join(', ')}; choose from ${PUBLISHABLE.join(', ')}`)
  process.exit(2)
}
const out = resolve(values.out ?? join(root, 'packed'))
mkdirSync(out, { recursive: true })
const pnpm = pnpmCommand(root)
const packed = {}
for (const name of positionals.length > 0 ? PUBLISHABLE.filter((n) => positionals.includes(n)) : PUBLISHABLE) {
  const dir = join(root, 'packages', name)
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  console.error(`packing @complib/${name} ${version}…`)
  const res = spawnSync(pnpm[0], [...pnpm.slice(1), 'pack', '--pack-destination', out], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], shell: process.platform === 'win32' })
  if (res.status !== 0) process.exit(res.status ?? 1)
  packed[name] = join(out, readdirSync(out).find((f) => f === `complib-${name}-${version}.tgz`))
}

console.log(`Packed into ${out}:`)
for (const file of Object.values(packed)) console.log(`  ${file}`)
if (packed['client-sdk']) console.log(`\nThe client, in a project anywhere:\n  npm install ${packed['client-sdk']}`)
if (packed['api-server'] && packed.core && packed['connector-webhook'] && packed.sources) {
  console.log(`\nThe server (then \`npx complib serve\`):\n  npm install ${packed.core} ${packed['connector-webhook']} ${packed.sources} ${packed['api-server']}`)
}
