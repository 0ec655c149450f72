import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'
import { MISSING_MANUFACTURER } from './_fixtures'

/** Manufacturers: names and aliases, part counts, renames shown by their MPNs, deletes and merges. */
export function manufacturerStoreSuite(storage: () => Storage): void {
  describe('manufacturer store', () => {
    it('creates a manufacturer; aliases lose repeats and the name itself', async () => {
      const m = await storage().manufacturers.create({ name: 'Texas Instruments', website: 'https://ti.com', aliases: ['TI', 'ti', 'texas instruments', 'TI Inc'] })
      expect(m).toMatchObject({ name: 'Texas Instruments', website: 'https://ti.com', aliases: ['TI', 'TI Inc'], partCount: 0, version: 1 })
      expect(m.id).toMatch(/^mfr_/)
      expect(await storage().manufacturers.get(m.id)).toEqual(m)
    })

    it('rejects a duplicate name with CONFLICT naming body.name, regardless of case', async () => {
      await storage().manufacturers.create({ name: 'Yageo' })
      await expect(storage().manufacturers.create({ name: 'YAGEO' })).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.name' }] })
      expect((await storage().manufacturers.list({ limit: 10 })).total).toBe(1)
    })

    it('lists by name, matching q in names or aliases, with part counts of live components', async () => {
      const s = storage()
      await s.manufacturers.create({ name: 'Texas Instruments', aliases: ['TI'] })
      await s.manufacturers.create({ name: 'analog devices', aliases: ['ADI'] })
      await s.components.create({ name: 'A', mpns: [{ manufacturer: 'TI', partNumber: 'X1' }, { manufacturer: 'ti', partNumber: 'X2' }] })
      const gone = await s.components.create({ name: 'B', mpns: [{ manufacturer: 'Texas Instruments', partNumber: 'X3' }] })
      await s.components.delete(gone.id)
      const all = await s.manufacturers.list({ limit: 10 })
      expect(all.items.map((m) => [m.name, m.partCount])).toEqual([
        ['analog devices', 0],
        ['Texas Instruments', 2],
      ])
      expect((await s.manufacturers.list({ limit: 10, q: 'adi' })).items.map((m) => m.name)).toEqual(['analog devices'])
      const page = await s.manufacturers.list({ limit: 1 })
      expect((await s.manufacturers.list({ limit: 1, cursor: page.nextCursor! })).items.map((m) => m.name)).toEqual(['Texas Instruments'])
    })

    it('renaming a manufacturer bumps the components and MPN records that show it', async () => {
      const s = storage()
      const a = await s.components.create({ name: 'A', mpns: [{ manufacturer: 'Yageo', partNumber: 'RC1' }] })
      const b = await s.components.create({ name: 'B', mpns: [{ manufacturer: 'Vishay', partNumber: 'CR1' }] })
      const [mpn] = await s.mpns.listForComponent(a.id)
      const renamed = await s.manufacturers.update(mpn!.manufacturerId, { name: 'YAGEO Corp' })
      expect(renamed).toMatchObject({ name: 'YAGEO Corp', version: 2 })
      expect(await s.components.get(a.id)).toMatchObject({ version: 2, mpns: [{ manufacturer: 'YAGEO Corp', partNumber: 'RC1' }] })
      expect((await s.components.get(b.id)).version).toBe(1)
      expect(await s.mpns.get(mpn!.id)).toMatchObject({ manufacturer: 'YAGEO Corp', version: 2 })
    })

    it('replaces aliases without touching components, and refuses a taken name with CONFLICT', async () => {
      const s = storage()
      const a = await s.components.create({ name: 'A', mpns: [{ manufacturer: 'Yageo', partNumber: 'RC1' }] })
      await s.manufacturers.create({ name: 'Vishay' })
      const [mpn] = await s.mpns.listForComponent(a.id)
      await s.manufacturers.update(mpn!.manufacturerId, { aliases: ['YAG', 'Yageo Corp'] })
      expect(await s.manufacturers.update(mpn!.manufacturerId, { aliases: ['Y'] })).toMatchObject({ aliases: ['Y'], version: 3 })
      await expect(s.manufacturers.update(mpn!.manufacturerId, { name: 'vishay' })).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.name' }] })
      await expect(s.manufacturers.update(mpn!.manufacturerId, { website: null }, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
      expect(await s.manufacturers.get(mpn!.manufacturerId)).toMatchObject({ name: 'Yageo', version: 3 })
      expect((await s.components.get(a.id)).version).toBe(1)
    })

    it('deletes an unused manufacturer and refuses one in use with CONFLICT, even by a deleted component', async () => {
      const s = storage()
      const unused = await s.manufacturers.create({ name: 'Unused' })
      await s.manufacturers.delete(unused.id)
      await expect(s.manufacturers.get(unused.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.manufacturers.delete(unused.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      const c = await s.components.create({ name: 'A', mpns: [{ manufacturer: 'Used', partNumber: 'P' }] })
      const [mpn] = await s.mpns.listForComponent(c.id)
      await s.components.delete(c.id)
      await expect(s.manufacturers.delete(mpn!.manufacturerId)).rejects.toMatchObject({ code: 'CONFLICT' })
      expect(await s.manufacturers.get(mpn!.manufacturerId)).toMatchObject({ name: 'Used', partCount: 0 })
    })

    it('merges manufacturers: MPNs move, duplicates drop, names and aliases become aliases, components bump', async () => {
      const s = storage()
      const target = await s.manufacturers.create({ name: 'Texas Instruments', aliases: ['TXN'] })
      await s.manufacturers.create({ name: 'TI', aliases: ['T.I.', 'txn'] })
      await s.manufacturers.create({ name: 'Burr-Brown' })
      const both = await s.components.create({ name: 'both', mpns: [{ manufacturer: 'TI', partNumber: 'LM358' }, { manufacturer: 'Texas Instruments', partNumber: 'lm358' }] })
      const moved = await s.components.create({ name: 'moved', mpns: [{ manufacturer: 'Burr-Brown', partNumber: 'OPA2134' }] })
      const other = await s.components.create({ name: 'other', mpns: [{ manufacturer: 'Texas Instruments', partNumber: 'NE555' }] })
      const sources = (await s.manufacturers.list({ limit: 10 })).items.filter((m) => m.id !== target.id)
      const merged = await s.manufacturers.merge(target.id, sources.map((m) => m.id))
      expect(merged).toMatchObject({ name: 'Texas Instruments', aliases: ['TXN', 'Burr-Brown', 'TI', 'T.I.'], partCount: 3, version: 2 })
      expect(await s.components.get(both.id)).toMatchObject({ version: 2, mpns: [{ manufacturer: 'Texas Instruments', partNumber: 'lm358' }] })
      expect(await s.components.get(moved.id)).toMatchObject({ version: 2, mpns: [{ manufacturer: 'Texas Instruments', partNumber: 'OPA2134' }] })
      expect((await s.components.get(other.id)).version).toBe(1)
      for (const source of sources) await expect(s.manufacturers.get(source.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      // A new MPN naming a merged-away manufacturer lands on the target through its alias.
      expect(await s.mpns.create(other.id, { manufacturer: 'burr-brown', partNumber: 'OPA1' })).toMatchObject({ manufacturerId: target.id })
    })

    it('refuses a merge into itself or from an unknown manufacturer with VALIDATION_FAILED, changing nothing', async () => {
      const s = storage()
      const a = await s.manufacturers.create({ name: 'A' })
      const b = await s.manufacturers.create({ name: 'B' })
      await expect(s.manufacturers.merge(a.id, [a.id])).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body.sourceIds[0]' }] })
      await expect(s.manufacturers.merge(a.id, [b.id, MISSING_MANUFACTURER])).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body.sourceIds[1]' }] })
      await expect(s.manufacturers.merge(MISSING_MANUFACTURER, [b.id])).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect(await s.manufacturers.get(a.id)).toMatchObject({ aliases: [], version: 1 })
      expect(await s.manufacturers.get(b.id)).toMatchObject({ name: 'B' })
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
