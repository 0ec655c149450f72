import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'
import { MISSING_COMPONENT } from './_fixtures'

const MISSING_LOCATION = 'loc_01JD7W3T9X4QF5B8S2M6K0N1PZ'

/** Locations (a tree with paths) and the stock of components in them. */
export function locationStoreSuite(storage: () => Storage): void {
  describe('location store', () => {
    describe('locations', () => {
      it('creates nested locations with their path from the root', async () => {
        const s = storage()
        const shelf = await s.locations.create({ name: 'Shelf A', description: 'left wall' })
        const box = await s.locations.create({ name: 'Box 2', parentId: shelf.id })
        const bin = await s.locations.create({ name: 'Bin 3', parentId: box.id })
        expect(shelf).toMatchObject({ parentId: null, path: 'Shelf A', description: 'left wall', version: 1 })
        expect(shelf.id).toMatch(/^loc_/)
        expect(await s.locations.get(bin.id)).toMatchObject({ parentId: box.id, path: 'Shelf A / Box 2 / Bin 3' })
        await expect(s.locations.get(MISSING_LOCATION)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      })

      it('lists roots, the children of one location, or all, by name regardless of case', async () => {
        const s = storage()
        const b = await s.locations.create({ name: 'b shelf' })
        const a = await s.locations.create({ name: 'A shelf' })
        await s.locations.create({ name: 'bin 2', parentId: a.id })
        await s.locations.create({ name: 'Bin 1', parentId: a.id })
        await s.locations.create({ name: 'drawer', parentId: b.id })
        const names = async (parentId?: string | null, q?: string) => (await s.locations.list({ limit: 10, parentId, q })).items.map((l) => l.path)
        expect(await names(null)).toEqual(['A shelf', 'b shelf'])
        expect(await names(a.id)).toEqual(['A shelf / Bin 1', 'A shelf / bin 2'])
        expect(await names()).toEqual(['A shelf', 'b shelf', 'A shelf / Bin 1', 'A shelf / bin 2', 'b shelf / drawer'])
        expect(await names(undefined, 'SHELF')).toEqual(['A shelf', 'b shelf'])
        const page = await s.locations.list({ limit: 10, q: 'bin', parentId: a.id })
        expect(page.total).toBe(2)
      })

      it('pages with a cursor: every location once, the total unchanged', async () => {
        const s = storage()
        for (const name of ['e', 'B', 'a', 'D', 'c']) await s.locations.create({ name })
        const seen: string[] = []
        let cursor: string | undefined
        do {
          const page = await s.locations.list({ limit: 2, cursor })
          expect(page.total).toBe(5)
          seen.push(...page.items.map((l) => l.name))
          cursor = page.nextCursor ?? undefined
        } while (cursor)
        expect(seen).toEqual(['a', 'B', 'c', 'D', 'e'])
      })

      it('returns the whole tree, children by name', async () => {
        const s = storage()
        const shelf = await s.locations.create({ name: 'Shelf' })
        await s.locations.create({ name: 'Attic' })
        await s.locations.create({ name: 'z bin', parentId: shelf.id })
        const box = await s.locations.create({ name: 'A box', parentId: shelf.id })
        await s.locations.create({ name: 'slot', parentId: box.id })
        const tree = await s.locations.tree()
        const shape = (nodes: typeof tree): unknown => nodes.map((n) => [n.name, shape(n.children)])
        expect(shape(tree)).toEqual([
          ['Attic', []],
          ['Shelf', [['A box', [['slot', []]]], ['z bin', []]]],
        ])
        expect(tree[1]!.children[0]!.children[0]!.path).toBe('Shelf / A box / slot')
        expect(await storage().locations.tree()).toHaveLength(2)
      })

      it('rejects an unknown parent with VALIDATION_FAILED on body.parentId, creating nothing', async () => {
        await expect(storage().locations.create({ name: 'Bin', parentId: MISSING_LOCATION })).rejects.toMatchObject({
          code: 'VALIDATION_FAILED',
          errors: [{ path: 'body.parentId' }],
        })
        expect((await storage().locations.list({ limit: 10 })).total).toBe(0)
      })

      it('rejects a sibling with the same name regardless of case, but allows it under another parent', async () => {
        const s = storage()
        const a = await s.locations.create({ name: 'A' })
        const b = await s.locations.create({ name: 'B' })
        await s.locations.create({ name: 'Bin', parentId: a.id })
        await expect(s.locations.create({ name: 'BIN', parentId: a.id })).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.name' }] })
        await expect(s.locations.create({ name: 'a' })).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.name' }] })
        expect((await s.locations.create({ name: 'bin', parentId: b.id })).path).toBe('B / bin')
        expect((await s.locations.list({ limit: 10 })).total).toBe(4)
      })

      it('a rename shows in the paths of its descendants; a patch that changes nothing keeps the version', async () => {
        const s = storage()
        const shelf = await s.locations.create({ name: 'Shelf' })
        const bin = await s.locations.create({ name: 'Bin', parentId: shelf.id })
        expect(await s.locations.update(shelf.id, { name: 'Rack' })).toMatchObject({ path: 'Rack', version: 2 })
        expect((await s.locations.get(bin.id)).path).toBe('Rack / Bin')
        expect((await s.locations.update(shelf.id, { name: 'Rack', parentId: null })).version).toBe(2)
        await expect(s.locations.update(shelf.id, { name: 'X' }, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
        await expect(s.locations.update(MISSING_LOCATION, { name: 'X' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
        expect((await s.locations.get(shelf.id)).name).toBe('Rack')
      })

      it('moves a location under another and back to the root', async () => {
        const s = storage()
        const a = await s.locations.create({ name: 'A' })
        const b = await s.locations.create({ name: 'B' })
        expect(await s.locations.update(b.id, { parentId: a.id })).toMatchObject({ parentId: a.id, path: 'A / B' })
        expect(await s.locations.update(b.id, { parentId: null })).toMatchObject({ parentId: null, path: 'B' })
        await expect(s.locations.update(b.id, { parentId: MISSING_LOCATION })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body.parentId' }] })
      })

      it('rejects moving a location under itself or a descendant with CONFLICT on body.parentId', async () => {
        const s = storage()
        const a = await s.locations.create({ name: 'A' })
        const b = await s.locations.create({ name: 'B', parentId: a.id })
        const c = await s.locations.create({ name: 'C', parentId: b.id })
        for (const parentId of [a.id, b.id, c.id]) {
          await expect(s.locations.update(a.id, { parentId })).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.parentId' }] })
        }
        expect(await s.locations.get(a.id)).toEqual(a)
        expect((await s.locations.get(c.id)).path).toBe('A / B / C')
      })

      it('rejects a rename or a move onto a sibling name with CONFLICT on body.name', async () => {
        const s = storage()
        const a = await s.locations.create({ name: 'A' })
        const b = await s.locations.create({ name: 'B' })
        await s.locations.create({ name: 'Bin', parentId: a.id })
        const other = await s.locations.create({ name: 'bin', parentId: b.id })
        await expect(s.locations.update(b.id, { name: 'a' })).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.name' }] })
        await expect(s.locations.update(other.id, { parentId: a.id })).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.name' }] })
        // A change of case of its own name is no clash.
        expect((await s.locations.update(other.id, { name: 'BIN' })).name).toBe('BIN')
      })

      it('rejects deleting a location with children or stock with CONFLICT, and deletes an empty one', async () => {
        const s = storage()
        const shelf = await s.locations.create({ name: 'Shelf' })
        const bin = await s.locations.create({ name: 'Bin', parentId: shelf.id })
        const c = await s.components.create({ name: 'R 10k' })
        await s.locations.setStock(c.id, bin.id, 5)
        await expect(s.locations.delete(shelf.id)).rejects.toMatchObject({ code: 'CONFLICT' })
        await expect(s.locations.delete(bin.id)).rejects.toMatchObject({ code: 'CONFLICT' })
        expect((await s.locations.stockForComponent(c.id)).map((e) => e.quantity)).toEqual([5])
        await s.locations.setStock(c.id, bin.id, 0)
        await s.locations.delete(bin.id)
        await s.locations.delete(shelf.id)
        expect(await s.locations.tree()).toEqual([])
        await expect(s.locations.delete(shelf.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      })

      it('nests locations with paths and a tree', async () => {
        const s = storage()
        const shelf = await s.locations.create({ name: 'Shelf A' })
        const bin = await s.locations.create({ name: 'Bin 3', parentId: shelf.id })
        expect(bin.path).toBe('Shelf A / Bin 3')
        const tree = await s.locations.tree()
        expect(tree).toHaveLength(1)
        expect(tree[0]!.children.map((n) => n.name)).toEqual(['Bin 3'])
        expect((await s.locations.list({ limit: 10, parentId: null })).items.map((l) => l.name)).toEqual(['Shelf A'])
      })

      it('refuses a cycle and a sibling with the same name', async () => {
        const s = storage()
        const a = await s.locations.create({ name: 'A' })
        const b = await s.locations.create({ name: 'B', parentId: a.id })
        await expect(s.locations.update(a.id, { parentId: b.id })).rejects.toMatchObject({ code: 'CONFLICT' })
        await expect(s.locations.create({ name: 'b', parentId: a.id })).rejects.toMatchObject({ code: 'CONFLICT' })
        await expect(s.locations.create({ name: 'C', parentId: 'loc_01JD7W3T9X4QF5B8S2M6K0N1PZ' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
      })
    })

    describe('stock', () => {
      it('sets stock per location and lists it by path, with location name and path', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R 10k' })
        const shelf = await s.locations.create({ name: 'Shelf' })
        const bin = await s.locations.create({ name: 'Bin', parentId: shelf.id })
        const attic = await s.locations.create({ name: 'Attic' })
        expect(await s.locations.setStock(c.id, bin.id, 10)).toMatchObject({ componentId: c.id, locationId: bin.id, locationName: 'Bin', path: 'Shelf / Bin', quantity: 10 })
        await s.locations.setStock(c.id, attic.id, 3)
        await s.locations.setStock(c.id, bin.id, 7)
        expect((await s.locations.stockForComponent(c.id)).map((e) => [e.path, e.locationName, e.quantity])).toEqual([
          ['Attic', 'Attic', 3],
          ['Shelf / Bin', 'Bin', 7],
        ])
      })

      it('setting a quantity of 0 removes the entry and returns it with quantity 0', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R 10k' })
        const bin = await s.locations.create({ name: 'Bin' })
        await s.locations.setStock(c.id, bin.id, 4)
        expect(await s.locations.setStock(c.id, bin.id, 0)).toMatchObject({ locationId: bin.id, quantity: 0 })
        expect(await s.locations.stockForComponent(c.id)).toEqual([])
      })

      it('answers NOT_FOUND for stock of an unknown or deleted component or an unknown location', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R 10k' })
        const bin = await s.locations.create({ name: 'Bin' })
        await expect(s.locations.setStock(MISSING_COMPONENT, bin.id, 1)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        await expect(s.locations.setStock(c.id, MISSING_LOCATION, 1)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        await expect(s.locations.adjust({ componentId: c.id, locationId: MISSING_LOCATION, delta: 1 })).rejects.toMatchObject({ code: 'NOT_FOUND' })
        await expect(s.locations.stockForComponent(MISSING_COMPONENT)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        await s.components.delete(c.id)
        await expect(s.locations.setStock(c.id, bin.id, 1)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        await expect(s.locations.stockForComponent(c.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      })

      it('adjusts up from nothing and down to zero, and refuses to go below zero with CONFLICT on body.delta', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R 10k' })
        const bin = await s.locations.create({ name: 'Bin' })
        expect((await s.locations.adjust({ componentId: c.id, locationId: bin.id, delta: 5, reason: 'received' })).quantity).toBe(5)
        await expect(s.locations.adjust({ componentId: c.id, locationId: bin.id, delta: -6 })).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.delta' }] })
        expect((await s.locations.stockForComponent(c.id)).map((e) => e.quantity)).toEqual([5])
        expect((await s.locations.adjust({ componentId: c.id, locationId: bin.id, delta: -5 })).quantity).toBe(0)
        expect(await s.locations.stockForComponent(c.id)).toEqual([])
      })

      it('moves stock between locations and returns both ends', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R 10k' })
        const a = await s.locations.create({ name: 'A' })
        const b = await s.locations.create({ name: 'B' })
        await s.locations.setStock(c.id, a.id, 10)
        await s.locations.setStock(c.id, b.id, 1)
        const moved = await s.locations.move({ componentId: c.id, fromLocationId: a.id, toLocationId: b.id, quantity: 4 })
        expect(moved).toMatchObject({ from: { locationId: a.id, quantity: 6 }, to: { locationId: b.id, quantity: 5 } })
        await s.locations.move({ componentId: c.id, fromLocationId: a.id, toLocationId: b.id, quantity: 6 })
        expect((await s.locations.stockForComponent(c.id)).map((e) => [e.locationName, e.quantity])).toEqual([['B', 11]])
      })

      it('rejects moving more than there is with CONFLICT on body.quantity, changing nothing', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R 10k' })
        const a = await s.locations.create({ name: 'A' })
        const b = await s.locations.create({ name: 'B' })
        await s.locations.setStock(c.id, a.id, 3)
        await expect(s.locations.move({ componentId: c.id, fromLocationId: a.id, toLocationId: b.id, quantity: 4 })).rejects.toMatchObject({
          code: 'CONFLICT',
          errors: [{ path: 'body.quantity' }],
        })
        await expect(s.locations.move({ componentId: c.id, fromLocationId: b.id, toLocationId: a.id, quantity: 1 })).rejects.toMatchObject({ code: 'CONFLICT' })
        expect((await s.locations.stockForComponent(c.id)).map((e) => [e.locationName, e.quantity])).toEqual([['A', 3]])
      })

      it('rejects a move onto the same location instead of counting the stock twice', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R 10k' })
        const a = await s.locations.create({ name: 'A' })
        await s.locations.setStock(c.id, a.id, 3)
        await expect(s.locations.move({ componentId: c.id, fromLocationId: a.id, toLocationId: a.id, quantity: 2 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
        expect((await s.locations.stockForComponent(c.id))[0]!.quantity).toBe(3)
      })

      it('stock writes leave the component untouched: no version bump, no history', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R 10k' })
        const a = await s.locations.create({ name: 'A' })
        const b = await s.locations.create({ name: 'B' })
        await s.locations.setStock(c.id, a.id, 5)
        await s.locations.adjust({ componentId: c.id, locationId: a.id, delta: 2 })
        await s.locations.move({ componentId: c.id, fromLocationId: a.id, toLocationId: b.id, quantity: 1 })
        expect(await s.components.get(c.id)).toEqual(c)
        expect((await s.components.history(c.id, { limit: 10 })).total).toBe(1)
      })

      it('sets, adjusts and moves stock, never below zero', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'A' })
        const a = await s.locations.create({ name: 'A' })
        const b = await s.locations.create({ name: 'B' })
        await s.locations.setStock(c.id, a.id, 10)
        await expect(s.locations.adjust({ componentId: c.id, locationId: a.id, delta: -11 })).rejects.toMatchObject({ code: 'CONFLICT' })
        expect((await s.locations.adjust({ componentId: c.id, locationId: a.id, delta: -4 })).quantity).toBe(6)
        await expect(s.locations.move({ componentId: c.id, fromLocationId: a.id, toLocationId: b.id, quantity: 7 })).rejects.toMatchObject({ code: 'CONFLICT' })
        const moved = await s.locations.move({ componentId: c.id, fromLocationId: a.id, toLocationId: b.id, quantity: 6 })
        expect([moved.from.quantity, moved.to.quantity]).toEqual([0, 6])
        expect((await s.locations.stockForComponent(c.id)).map((e) => [e.locationName, e.quantity])).toEqual([['B', 6]])
        await expect(s.locations.delete(b.id)).rejects.toMatchObject({ code: 'CONFLICT' })
        await s.locations.delete(a.id)
      })
    })
  })
}
