import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'
import { categoryTemplatesSuite } from './category-templates-store'

/** The category tree: records made from the paths components name, renamed with their components. */
export function categoryStoreSuite(storage: () => Storage): void {
  describe('category store', () => {
    categoryTemplatesSuite(storage)
    it('makes a record per path segment when a component names a path, and reuses them in any spelling', async () => {
      const s = storage()
      await s.components.create({ name: 'R', category: 'Passives/Resistors/Thick film' })
      const c = await s.components.create({ name: 'C', category: 'passives/CAPACITORS' })
      const again = await s.components.create({ name: 'R2', category: 'PASSIVES/resistors' })
      expect(c.category).toBe('Passives/CAPACITORS')
      expect(again.category).toBe('Passives/Resistors')
      const tree = await s.categories.list()
      expect(tree.map((t) => [t.path, t.count])).toEqual([
        ['Passives', 3],
        ['Passives/CAPACITORS', 1],
        ['Passives/Resistors', 2],
        ['Passives/Resistors/Thick film', 1],
      ])
      const resistors = tree.find((t) => t.path === 'Passives/Resistors')!
      expect(resistors.parentId).toBe(tree[0]!.id)
      expect(await s.categories.get(resistors.id)).toEqual(resistors)
    })

    it('renames keeping the id; every component in it and below it follows with a new version', async () => {
      const s = storage()
      const r = await s.components.create({ name: 'R', category: 'Passives/Resistors/Thick film' })
      const r2 = await s.components.create({ name: 'R2', category: 'Passives/Resistors' })
      const other = await s.components.create({ name: 'X', category: 'Passives/Resistor networks' })
      const gone = await s.components.create({ name: 'G', category: 'Passives/Resistors' })
      await s.components.delete(gone.id)
      const resistors = (await s.categories.list()).find((t) => t.path === 'Passives/Resistors')!
      const renamed = await s.categories.update(resistors.id, { name: 'Resistors (fixed)' }, { ifVersion: 1 })
      expect(renamed).toMatchObject({ id: resistors.id, name: 'Resistors (fixed)', path: 'Passives/Resistors (fixed)', version: 2, count: 2 })
      expect(await s.components.get(r.id)).toMatchObject({ category: 'Passives/Resistors (fixed)/Thick film', version: 2 })
      expect(await s.components.get(r2.id)).toMatchObject({ category: 'Passives/Resistors (fixed)', version: 2 })
      expect(await s.components.get(other.id)).toMatchObject({ category: 'Passives/Resistor networks', version: 1 })
      expect((await s.components.history(r.id, { limit: 10 })).items[0]).toMatchObject({ op: 'update', changes: ['category'] })
      // A deleted component takes the new path when restored.
      expect((await s.components.restore(gone.id)).category).toBe('Passives/Resistors (fixed)')
      const thick = (await s.categories.list()).find((t) => t.name === 'Thick film')!
      expect(thick.path).toBe('Passives/Resistors (fixed)/Thick film')
      const ids = (await s.components.list({ limit: 10, sort: 'id', includeDeleted: false, category: 'passives/resistors (fixed)' })).items.map((c) => c.id)
      expect(ids.sort()).toEqual([r.id, r2.id, gone.id].sort())
    })

    it('refuses a sibling name that reads the same, a stale version, and deleting a category in use', async () => {
      const s = storage()
      await s.components.create({ name: 'R', category: 'Passives/Resistors' })
      const tree = await s.categories.list()
      const passives = tree.find((t) => t.path === 'Passives')!
      const caps = await s.categories.create({ name: 'Capacitors', parentId: passives.id })
      expect(caps).toMatchObject({ path: 'Passives/Capacitors', count: 0, version: 1 })
      await expect(s.categories.create({ name: 'RESISTORS', parentId: passives.id })).rejects.toMatchObject({ code: 'CONFLICT' })
      await expect(s.categories.update(caps.id, { name: 'resistors' })).rejects.toMatchObject({ code: 'CONFLICT' })
      await expect(s.categories.update(caps.id, { name: 'Caps' }, { ifVersion: 7 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
      await expect(s.categories.delete(passives.id)).rejects.toMatchObject({ code: 'CONFLICT' })
      const resistors = tree.find((t) => t.path === 'Passives/Resistors')!
      await expect(s.categories.delete(resistors.id)).rejects.toMatchObject({ code: 'CONFLICT' })
      await s.categories.delete(caps.id)
      await expect(s.categories.get(caps.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.categories.create({ name: 'X', parentId: caps.id })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })
  })
}
