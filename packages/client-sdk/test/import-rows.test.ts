import { createApp } from '@complib/api-server'
import { type Storage } from '@complib/core'
import { createSqliteStorage } from '@complib/core/sqlite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ValidationError, createClient, type ComplibClient } from '../src/index'

// The client against the real app in-process (its fetch is the app's): real Link headers and problems.
let storage: Storage
let client: ComplibClient
beforeEach(async () => {
  storage = await createSqliteStorage()
  const app = createApp({ storage, log: () => {} })
  client = createClient({ baseUrl: 'http://complib.test', fetch: async (input, init) => app.fetch(new Request(input, init)), retries: 0 })
})
afterEach(async () => {
  await storage.close()
})

const FILE = `ipn,Name,Status\n${Array.from({ length: 25 }, (_, i) => `R-${i + 1},Part ${i + 1},${i % 10 === 3 ? 'retired' : 'active'}`).join('\n')}\n`

describe('client.imports.rows', () => {
  it('reads a page of row outcomes with the total and the next cursor, and iterates every row', async () => {
    const session = await client.imports.create(FILE, { format: 'csv' })
    const page = await client.imports.rows(session.id, { limit: 10 })
    expect(page.total).toBe(25)
    expect(page.items.map((r) => r.row)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    expect(page.nextCursor).toEqual(expect.any(String))
    expect(page.items[3]).toMatchObject({ row: 5, outcome: 'invalid', errors: [{ field: 'status', column: 'Status' }] })
    const next = await client.imports.rows(session.id, { limit: 10, cursor: page.nextCursor! })
    expect(next.items[0]!.row).toBe(12)

    const all = []
    for await (const r of client.imports.iterateRows(session.id)) all.push(r.row)
    expect(all).toEqual(Array.from({ length: 25 }, (_, i) => i + 2))
    const invalid = []
    for await (const r of client.imports.iterateRows(session.id, { outcome: 'invalid', limit: 1 })) invalid.push(r.ipn ?? r.row)
    expect(invalid).toEqual([5, 15, 25])
  })

  it('throws a ValidationError naming the parameter for a bad outcome', async () => {
    const session = await client.imports.create(FILE, { format: 'csv' })
    const error = await client.imports.rows(session.id, { outcome: 'maybe' as never }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).errors.map((e) => e.path)).toEqual(['query.outcome'])
  })
})

describe('client.imports.waitFor', () => {
  it('waits for a file of more than 1,000 rows to be planned, then committed, reporting progress', async () => {
    const big = `ipn,Name\n${Array.from({ length: 1200 }, (_, i) => `W-${i},Part ${i}`).join('\n')}\n`
    const started = await client.imports.create(big, { format: 'csv' })
    expect(started.status).toBe('planning')
    const phases: string[] = []
    const planned = await client.imports.waitFor(started.id, { intervalMs: 20, onProgress: (p) => phases.push(p.phase) })
    expect(planned).toMatchObject({ status: 'pending', progress: null, summary: { create: 1200 } })
    expect(phases.length).toBeGreaterThan(0)
    expect((await client.imports.commit(planned.id)).status).toBe('committing')
    const done = await client.imports.waitFor(planned.id, { intervalMs: 20 })
    expect(done).toMatchObject({ status: 'committed', result: { created: 1200 } })
  }, 30_000)

  it('answers a session without a job at once, and gives up after its timeout', async () => {
    const small = await client.imports.create(FILE, { format: 'csv' })
    expect((await client.imports.waitFor(small.id)).status).toBe('pending')
    const big = await client.imports.create(`ipn,Name\n${Array.from({ length: 1500 }, (_, i) => `T-${i},Part ${i}`).join('\n')}\n`, { format: 'csv' })
    await expect(client.imports.waitFor(big.id, { intervalMs: 1, timeoutMs: 1 })).rejects.toThrow(/still planning/)
    await client.imports.waitFor(big.id, { intervalMs: 20 })
  }, 30_000)
})
