import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** Tags, parameters and their types, MPNs and manufacturers. */
export function catalogSuite(storage: () => Storage): void {
  describe('catalog: tags', () => {
    it('lists tags by name with counts of live components', async () => {
      const s = storage()
      await s.components.create({ name: 'A', tags: ['smd', 'passive'] })
      const b = await s.components.create({ name: 'B', tags: ['smd'] })
      await s.components.delete(b.id)
      const page = await s.tags.list({ limit: 10 })
      expect(page.items.map((t) => [t.name, t.count])).toEqual([
        ['passive', 1],
        ['smd', 1],
      ])
    })

    it('rejects a duplicate name with CONFLICT', async () => {
      await storage().tags.create({ name: 'SMD' })
      await expect(storage().tags.create({ name: 'smd' })).rejects.toMatchObject({ code: 'CONFLICT' })
    })

    it('renaming a tag bumps the components that show it', async () => {
      const c = await storage().components.create({ name: 'A', tags: ['old'] })
      const tag = (await storage().tags.list({ limit: 1 })).items[0]!
      await storage().tags.update(tag.id, { name: 'new' })
      expect(await storage().components.get(c.id)).toMatchObject({ tags: ['new'], version: 2 })
    })

    it('merges tags: carriers get the target once, sources go', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A', tags: ['smd', 'SMT'] })
      const tags = (await s.tags.list({ limit: 10 })).items
      const smd = tags.find((t) => t.name === 'smd')!
      const smt = tags.find((t) => t.name === 'SMT')!
      const merged = await s.tags.merge(smd.id, [smt.id])
      expect(merged.count).toBe(1)
      expect((await s.components.get(c.id)).tags).toEqual(['smd'])
      await expect(s.tags.get(smt.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.tags.merge(smd.id, [smd.id])).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
    })

    it('sets and removes tags of a component', async () => {
      const c = await storage().components.create({ name: 'A' })
      const after = await storage().tags.setForComponent(c.id, ['x', 'y'])
      expect(after.tags).toEqual(['x', 'y'])
      const x = (await storage().tags.list({ limit: 10, q: 'x' })).items[0]!
      expect((await storage().tags.removeFromComponent(c.id, x.id)).tags).toEqual(['y'])
      await expect(storage().tags.removeFromComponent(c.id, x.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })
  })

  describe('catalog: parameters', () => {
    it('adds, reads numbers with SI prefixes, updates and deletes parameters', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'C', parameters: [{ type: 'Capacitance', value: '100n', unit: 'F' }] })
      const [first] = await s.parameters.listForComponent(c.id)
      expect(first).toMatchObject({ type: 'Capacitance', value: '100n', numeric: 1e-7 })
      const added = await s.parameters.add(c.id, { type: 'Voltage', value: '50', unit: 'V' })
      expect(added.numeric).toBe(50)
      expect((await s.parameters.update(added.id, { value: '4k7' })).numeric).toBe(4700)
      await s.parameters.delete(first!.id)
      expect((await s.components.get(c.id)).parameters).toEqual([{ type: 'Voltage', value: '4k7', unit: 'V' }])
      await expect(s.parameters.get(first!.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('keeps parameter type names unique', async () => {
      await storage().parameterTypes.create({ name: 'Resistance', unit: 'Ω', kind: 'number' })
      await expect(storage().parameterTypes.create({ name: 'resistance', kind: 'number' })).rejects.toMatchObject({ code: 'CONFLICT' })
      expect((await storage().parameterTypes.list({ limit: 10 })).items.map((t) => t.name)).toEqual(['Resistance'])
    })
  })

  describe('catalog: mpns and manufacturers', () => {
    it('adds an MPN, creating its manufacturer, and refuses a duplicate', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A' })
      const mpn = await s.mpns.create(c.id, { manufacturer: 'Yageo', partNumber: 'RC0603' })
      expect(mpn).toMatchObject({ manufacturer: 'Yageo', partNumber: 'RC0603', componentId: c.id })
      await expect(s.mpns.create(c.id, { manufacturer: 'yageo', partNumber: 'rc0603' })).rejects.toMatchObject({ code: 'CONFLICT' })
      expect((await s.components.get(c.id)).mpns).toHaveLength(1)
    })

    it('resolves a BOM by part number, and by manufacturer name or alias', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A', ipn: 'R-1', mpns: [{ manufacturer: 'Texas Instruments', partNumber: 'LM358DR' }] })
      const ti = (await s.manufacturers.list({ limit: 1 })).items[0]!
      await s.manufacturers.update(ti.id, { aliases: ['TI'] })
      const [hit, byAlias, miss] = await s.mpns.resolve([{ partNumber: 'lm358dr' }, { partNumber: 'LM358DR', manufacturer: 'ti' }, { partNumber: 'NOPE' }])
      expect(hit!.matches).toEqual([{ componentId: c.id, ipn: 'R-1', name: 'A', manufacturer: 'Texas Instruments', partNumber: 'LM358DR' }])
      expect(byAlias!.matches).toHaveLength(1)
      expect(miss!.matches).toEqual([])
    })

    it('refuses to delete a manufacturer in use', async () => {
      await storage().components.create({ name: 'A', mpns: [{ manufacturer: 'M', partNumber: 'P' }] })
      const m = (await storage().manufacturers.list({ limit: 1 })).items[0]!
      expect(m.partCount).toBe(1)
      await expect(storage().manufacturers.delete(m.id)).rejects.toMatchObject({ code: 'CONFLICT' })
    })

    it('merges manufacturers: MPNs move, duplicates drop, names become aliases', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A', mpns: [{ manufacturer: 'TI', partNumber: 'LM358' }, { manufacturer: 'Texas Instruments', partNumber: 'LM358' }] })
      const all = (await s.manufacturers.list({ limit: 10 })).items
      const target = all.find((m) => m.name === 'Texas Instruments')!
      const source = all.find((m) => m.name === 'TI')!
      const merged = await s.manufacturers.merge(target.id, [source.id])
      expect(merged.aliases).toEqual(['TI'])
      expect((await s.components.get(c.id)).mpns).toEqual([{ manufacturer: 'Texas Instruments', partNumber: 'LM358' }])
      await expect(s.manufacturers.get(source.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      // New MPNs naming the alias land on the merged manufacturer.
      const d = await s.components.create({ name: 'D', mpns: [{ manufacturer: 'ti', partNumber: 'NE555' }] })
      expect((await s.components.get(d.id)).mpns[0]!.manufacturer).toBe('Texas Instruments')
    })
  })
}
