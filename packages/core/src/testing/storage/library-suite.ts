import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** Symbols and footprints, attachments, locations and stock. */
export function librarySuite(storage: () => Storage): void {
  for (const kind of ['symbols', 'footprints'] as const) {
    describe(kind, () => {
      it('creates with a file, serves the file, and never lists its content', async () => {
        const item = await storage()[kind].create({ name: 'R_0603', library: 'Device', content: '(kicad)' })
        expect(item).toMatchObject({ name: 'R_0603', library: 'Device', fileSize: 7 })
        expect(item.fileName).toMatch(kind === 'symbols' ? /\.kicad_sym$/ : /\.kicad_mod$/)
        expect(await storage()[kind].getFile(item.id)).toEqual({ fileName: item.fileName, content: '(kicad)' })
        expect(JSON.stringify((await storage()[kind].list({ limit: 10 })).items)).not.toContain('(kicad)')
        const bare = await storage()[kind].create({ name: 'X' })
        await expect(storage()[kind].getFile(bare.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      })

      it('links idempotently, unlinks, and refuses to unlink what is not linked', async () => {
        const s = storage()
        const item = await s[kind].create({ name: 'S' })
        const c = await s.components.create({ name: 'A' })
        const linked = await s[kind].link(c.id, item.id)
        expect(linked[kind]).toEqual([{ id: item.id, name: 'S' }])
        expect((await s[kind].link(c.id, item.id)).version).toBe(linked.version)
        expect((await s[kind].components(item.id, { limit: 10 })).items.map((x) => x.id)).toEqual([c.id])
        expect((await s[kind].unlink(c.id, item.id))[kind]).toEqual([])
        await expect(s[kind].unlink(c.id, item.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      })

      it('refuses to delete a linked item unless forced', async () => {
        const s = storage()
        const item = await s[kind].create({ name: 'S' })
        const c = await s.components.create({ name: 'A', [kind]: [item.id] })
        await expect(s[kind].delete(item.id)).rejects.toMatchObject({ code: 'CONFLICT' })
        await s[kind].delete(item.id, { force: true })
        expect((await s.components.get(c.id))[kind]).toEqual([])
      })

      it('renaming shows in linked components with a version bump', async () => {
        const s = storage()
        const item = await s[kind].create({ name: 'old' })
        const c = await s.components.create({ name: 'A', [kind]: [item.id] })
        await s[kind].update(item.id, { name: 'new' })
        expect(await s.components.get(c.id)).toMatchObject({ [kind]: [{ id: item.id, name: 'new' }], version: 2 })
      })
    })
  }

  describe('attachments', () => {
    it('attaches to a live component, shows in it, and detaches on delete', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A' })
      const a = await s.attachments.create({ componentId: c.id, name: 'ds.pdf', kind: 'datasheet', contentType: 'application/pdf', size: 3, sha256: 'abc', url: null })
      expect((await s.components.get(c.id)).attachments).toEqual([{ id: a.id, name: 'ds.pdf' }])
      expect(await s.attachments.countBySha256('abc')).toBe(1)
      expect((await s.attachments.delete(a.id)).sha256).toBe('abc')
      expect((await s.components.get(c.id)).attachments).toEqual([])
    })

    it('rejects an attachment to a component that does not exist', async () => {
      await expect(
        storage().attachments.create({ componentId: 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ', name: 'x', kind: 'other', contentType: 'text/plain', size: 1, sha256: null, url: null }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body.componentId' }] })
      expect((await storage().attachments.list({ limit: 10 })).total).toBe(0)
    })
  })

  describe('locations and stock', () => {
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
}
