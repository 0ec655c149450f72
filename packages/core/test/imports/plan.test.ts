import { afterEach, describe, expect, it } from 'vitest'
import { applyImport, importLookups, planImport, proposeMapping, toPlanView, type ImportRow, type Storage, type StorageSession } from '../../src/index'
import { createSqliteStorage } from '../../src/storage/sqlite/storage'

// The planner on its own, over a StorageSession and without the server: what
// the HTTP tests check through `POST /api/imports` holds for any caller.

const open: Storage[] = []
afterEach(async () => {
  for (const storage of open.splice(0)) await storage.close()
})

async function library(): Promise<Storage> {
  const storage = await createSqliteStorage()
  open.push(storage)
  return storage
}

/** Rows as the server's reader makes them: without a prototype (decision 0608). */
function rows(...records: Array<Record<string, string>>): ImportRow[] {
  return records.map((r) => Object.assign(Object.create(null) as ImportRow, r))
}

describe('planImport and applyImport', () => {
  it('merges rows of one part, plans a create, and applies it in the caller’s transaction', async () => {
    const storage = await library()
    const file = rows(
      { ipn: 'R-1', name: 'R 10k', tags: 'smd; passive', stock: 'Shelf A/Bin 3=100' },
      { ipn: 'R-1', name: 'R 10k', tags: 'resistor' },
    )
    const mapping = proposeMapping(['ipn', 'name', 'tags', 'stock'], 'spreadsheet')
    const plan = await planImport(storage, file, mapping, 'ipn')
    expect(plan.errors).toEqual([])
    expect(plan.rows).toHaveLength(1)
    expect(plan.rows[0]).toMatchObject({ action: 'create', rows: [2, 3], extras: { stock: [{ path: ['Shelf A', 'Bin 3'], quantity: 100 }] } })
    // Planning writes nothing.
    expect((await storage.components.list({ limit: 10, sort: 'id', includeDeleted: true })).items).toEqual([])

    const result = await storage.transaction((tx) => applyImport(tx, plan.rows))
    expect(result).toMatchObject({ created: 1, updated: 0, unchanged: 0 })
    const component = await storage.components.getByIpn('R-1')
    expect([...component.tags].sort()).toEqual(['passive', 'resistor', 'smd'])
    expect(result.components.get(2)).toEqual({ id: component.id, ipn: 'R-1' })
    expect((await storage.locations.stockForComponent(component.id)).map((s) => s.quantity)).toEqual([100])
  })

  it('chunks applied with one set of lookups look a location up once, and stock every part there', async () => {
    const storage = await library()
    const file = rows(...Array.from({ length: 6 }, (_, i) => ({ ipn: `L-${i}`, name: `L ${i}`, stock: 'Shelf A/Bin 3=5' })))
    const plan = await planImport(storage, file, proposeMapping(['ipn', 'name', 'stock'], 'spreadsheet'), 'ipn')
    const lookups = importLookups()
    let listed = 0
    // The transaction's locations, counting its lists.
    const counted = (tx: StorageSession): StorageSession =>
      new Proxy(tx, { get: (t, k) => (k === 'locations' ? { ...t.locations, list: (...args: Parameters<typeof t.locations.list>) => (listed++, t.locations.list(...args)) } : Reflect.get(t, k)) })
    for (let at = 0; at < plan.rows.length; at += 2) await storage.transaction((tx) => applyImport(counted(tx), plan.rows.slice(at, at + 2), lookups))
    // Shelf A, then Bin 3 under it: once each for the three chunks.
    expect(listed).toBe(2)
    const [bin] = (await storage.locations.list({ q: 'Bin 3', limit: 10 })).items
    for (let i = 0; i < 6; i++) expect(await storage.locations.stockForComponent((await storage.components.getByIpn(`L-${i}`)).id)).toEqual([expect.objectContaining({ locationId: bin!.id, quantity: 5 })])
  })

  it('plans the same file again as unchanged, and its commit leaves the part alone', async () => {
    const storage = await library()
    const file = rows({ ipn: 'C-1', name: 'C 100n', description: 'X7R' })
    const mapping = proposeMapping(['ipn', 'name', 'description'], 'spreadsheet')
    await storage.transaction(async (tx) => applyImport(tx, (await planImport(tx, file, mapping, 'ipn')).rows))
    const before = await storage.components.getByIpn('C-1')

    const again = await planImport(storage, file, mapping, 'ipn')
    expect(again.rows).toMatchObject([{ action: 'update', componentId: before.id, changes: [] }])
    expect(toPlanView(again, mapping).summary).toEqual({ create: 0, update: 0, unchanged: 1, invalid: 0 })
    expect(await storage.transaction((tx) => applyImport(tx, again.rows))).toMatchObject({ created: 0, updated: 0, unchanged: 1 })
    expect((await storage.components.getByIpn('C-1')).version).toBe(before.version)
  })

  it('names the row and the column of a cell it cannot read, and plans nothing for that row', async () => {
    const storage = await library()
    const mapping = proposeMapping(['ipn', 'name', 'status'], 'spreadsheet')
    const plan = await planImport(storage, rows({ ipn: 'D-1', name: 'D', status: 'sometimes' }), mapping, 'ipn')
    expect(plan.rows).toEqual([])
    expect(plan.errors).toMatchObject([{ row: 2, path: 'status', column: 'status' }])
  })
})
