import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Loading the PostgreSQL driver (pg) weighs on a server's start: it is loaded when a library
// on PostgreSQL is opened, and not before (decision 0108).
const SCRIPT = `
import { createRequire } from 'node:module'
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => /[\\\\/]node_modules[\\\\/]pg[\\\\/]/.test(k))
const core = await import('@complib/core')
const storage = await core.createSqliteStorage()
await storage.components.create({ name: 'R 10k' })
await storage.close()
const embedded = loaded()
const failed = await core.createPostgresStorage({ url: 'postgres://nobody@127.0.0.1:1/none' }).then(() => 'opened', (e) => e.code ?? e.message)
console.log(JSON.stringify({ embedded, postgres: loaded(), failed }))
`

describe('loading the PostgreSQL driver', () => {
  it('an embedded library never loads pg; opening a library on PostgreSQL does', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
    })
    const result = JSON.parse(out.trim().split('\n').at(-1)!) as { embedded: boolean; postgres: boolean; failed: string }
    expect(result.embedded).toBe(false)
    expect(result.postgres).toBe(true)
    expect(result.failed).not.toBe('opened')
  }, 60_000)
})
