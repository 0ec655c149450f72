import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ComponentListQuery } from '../../schemas/component'
import { createSqliteStorage, type SqliteStorage } from './storage'

// The reads whose cost grows with the library run on the reader thread
// (decision 0210): the server's thread turns while they run, and they answer
// as the server's own connection would.
let dir: string
let storage: SqliteStorage

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'complib-reader-'))
})
afterEach(async () => {
  await storage.close()
  rmSync(dir, { recursive: true, force: true })
})

async function seed(s: SqliteStorage): Promise<void> {
  await s.transaction(async (tx) => {
    for (let i = 0; i < 60; i++) {
      await tx.components.create({
        name: `R${i} resistor`,
        category: i % 3 ? 'Passives/Resistors' : 'Passives/Capacitors',
        tags: i % 4 ? ['smd'] : ['smd', 'automotive'],
        mpns: [{ manufacturer: 'Yageo', partNumber: `RC0603-${i}` }],
        parameters: [{ type: 'Resistance', value: `${i}k` }],
      })
    }
  })
}

/** Whether the server's thread ran a macrotask while `read` was in flight. */
async function loopTurnedDuring(read: () => Promise<unknown>): Promise<boolean> {
  let turned = false
  const immediate = setImmediate(() => (turned = true))
  await read()
  clearImmediate(immediate)
  return turned
}

const LISTS = [{}, { category: 'Passives/Resistors' }, { tag: 'automotive' }, { q: 'resistor', limit: '7' }, { parameter: 'Resistance:1k..20k', sort: 'name' }]

describe('the reader thread', () => {
  it('answers lists, ids and suggestions as the server\'s own connection does', async () => {
    storage = await createSqliteStorage({ dir })
    await seed(storage)
    for (const filters of LISTS) {
      const query = ComponentListQuery.parse(filters)
      const here = await storage.transaction((tx) => tx.components.listJson(query))
      const there = await storage.components.listJson(query)
      expect({ ...there, json: Buffer.from(there.json).toString() }).toEqual({ ...here, json: Buffer.from(here.json).toString() })
      expect(await storage.components.listIds(query)).toEqual(await storage.transaction((tx) => tx.components.listIds(query)))
    }
    for (const entity of ['components', 'mpns'] as const) {
      expect(await storage.search.suggest(entity, 'RC0603', 5)).toEqual(await storage.transaction((tx) => tx.search.suggest(entity, 'RC0603', 5)))
    }
    expect(await storage.search.search('resistor', 5)).toEqual(await storage.transaction((tx) => tx.search.search('resistor', 5)))
  })

  it('takes filtered pages, ids, suggestions and searches, and sees every write acknowledged before it', async () => {
    storage = await createSqliteStorage({ dir })
    await seed(storage)
    const calls = () => storage.reader!.calls
    const before = calls()
    await storage.components.listJson(ComponentListQuery.parse({ tag: 'automotive' }))
    await storage.components.listIds(ComponentListQuery.parse({ deleted: 'include' }))
    await storage.search.suggest('components', 'res', 5)
    await storage.search.search('resistor', 5)
    expect(calls() - before).toBe(4)
    const made = await storage.components.create({ name: 'made just now', tags: ['automotive'] })
    expect((await storage.components.listIds(ComponentListQuery.parse({ tag: 'automotive' }))).items).toContain(made.id)
    await storage.components.delete(made.id)
    expect((await storage.components.listIds(ComponentListQuery.parse({ tag: 'automotive' }))).items).not.toContain(made.id)
  })

  it('leaves an unfiltered page and a read of one component on the server\'s thread, where they cost the same at any size', async () => {
    storage = await createSqliteStorage({ dir })
    await seed(storage)
    const before = storage.reader!.calls
    const page = await storage.components.listIds(ComponentListQuery.parse({ limit: '5', sort: 'name' }))
    await storage.components.listJson(ComponentListQuery.parse({ limit: '50', sort: 'name', cursor: page.nextCursor! }))
    await storage.components.get(page.items[0]!)
    expect(storage.reader!.calls).toBe(before)
  })

  it('runs on the server\'s thread when asked not to, and for a library in memory: the loop waits for the read', async () => {
    storage = await createSqliteStorage({ dir, readerThread: false })
    await seed(storage)
    expect(storage.reader).toBeNull()
    expect(await loopTurnedDuring(() => storage.components.listJson(ComponentListQuery.parse({ tag: 'automotive' })))).toBe(false)
    const memory = await createSqliteStorage()
    expect(memory.reader).toBeNull()
    await memory.close()
  })

  it('refuses reads once the storage is closed, and closes while reads wait', async () => {
    storage = await createSqliteStorage({ dir })
    await seed(storage)
    const reads = Array.from({ length: 5 }, () => storage.components.listJson(ComponentListQuery.parse({ q: 'resistor' })))
    await Promise.all(reads)
    await storage.close()
    await expect(storage.components.listJson(ComponentListQuery.parse({}))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
  })
})
