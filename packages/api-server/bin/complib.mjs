#!/usr/bin/env -S node --no-node-snapshot
// The `complib` command. isolated-vm (connector sandbox) needs --no-node-snapshot
// on Node >= 20; when started without it, re-exec once with the flag.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

if (!process.execArgv.includes('--no-node-snapshot')) {
  const res = spawnSync(process.execPath, ['--no-node-snapshot', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' })
  process.exit(res.status ?? 1)
}
await import('../dist/cli.js')
