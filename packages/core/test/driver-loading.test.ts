import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Loading the PostgreSQL driver (pg) weighs on a server's start: it is loaded when a library
// on PostgreSQL is opened, and not before (decision 0108).
const SCRIPT = `
import { createRequire } from 'node:module'
const cached = (name) => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes(\`/node_modules/\${name}/\`))
const loaded = () => cached('pg')
const core = await import('@complib/core')
const { createPostgresStorage } = await import('@complib/core/postgres')
const { createSqliteStorage } = await import('@complib/core/sqlite')
const imported = { pg: loaded(), sqlite: cached('better-sqlite3') }
const storage = await createSqliteStorage()
await storage.components.create({ name: 'R 10k' })
await storage.close()
const embedded = loaded()
const failed = await createPostgresStorage({ url: 'postgres://nobody@127.0.0.1:1/none' }).then(() => 'opened', (e) => e.code ?? e.message)
console.log(JSON.stringify({ imported, embedded, postgres: loaded(), failed, contract: typeof core.copyLibrary }))
`

describe('loading the drivers', () => {
  it('importing the entry points loads no driver; an embedded library never loads pg; opening a library on PostgreSQL does', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
    })
    const result = JSON.parse(out.trim().split('\n').at(-1)!) as { imported: { pg: boolean; sqlite: boolean }; embedded: boolean; postgres: boolean; failed: string; contract: string }
    // Importing the contract and both engines' entry points loads neither driver.
    expect(result.imported).toEqual({ pg: false, sqlite: false })
    expect(result.contract).toBe('function')
    expect(result.embedded).toBe(false)
    expect(result.postgres).toBe(true)
    expect(result.failed).not.toBe('opened')
  }, 60_000)
})
