import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

const UNKNOWN_COMPONENT = 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ'
const UNKNOWN_MANUFACTURER = 'mfr_01JD7W3T9X4QF5B8S2M6K0N1PZ'

/** Manufacturer part numbers (as records, and the BOM lookup) and manufacturers. */
export function mpnsSuite(storage: () => Storage): void {
  describe('mpns', () => {
    it('adds an MPN at the end, creating its manufacturer, and bumps the component', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A', mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603' }] })
      const mpn = await s.mpns.create(c.id, { manufacturer: 'Vishay', partNumber: 'CRCW0603' })
      expect(mpn).toMatchObject({ componentId: c.id, manufacturer: 'Vishay', partNumber: 'CRCW0603', version: 1 })
      expect(mpn.id).toMatch(/^mpn_/)
      expect(await s.manufacturers.get(mpn.manufacturerId)).toMatchObject({ name: 'Vishay', partCount: 1 })
      expect(await s.components.get(c.id)).toMatchObject({
        version: 2,
        mpns: [
          { manufacturer: 'Yageo', partNumber: 'RC0603' },
          { manufacturer: 'Vishay', partNumber: 'CRCW0603' },
        ],
      })
      expect((await s.mpns.listForComponent(c.id)).map((m) => m.partNumber)).toEqual(['RC0603', 'CRCW0603'])
    })

    it('refuses a duplicate on the same component with CONFLICT, case-insensitively; another component may share it', async () => {
      const s = storage()
      const a = await s.components.create({ name: 'A', mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603' }] })
      const b = await s.components.create({ name: 'B' })
      await expect(s.mpns.create(a.id, { manufacturer: 'yageo', partNumber: 'rc0603' })).rejects.toMatchObject({ code: 'CONFLICT' })
      expect(await s.components.get(a.id)).toMatchObject({ version: 1, mpns: [{ partNumber: 'RC0603' }] })
      expect(await s.mpns.create(b.id, { manufacturer: 'Yageo', partNumber: 'RC0603' })).toMatchObject({ componentId: b.id })
    })

    it('adding to an unknown or deleted component is NOT_FOUND and creates no manufacturer', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A' })
      await s.components.delete(c.id)
      await expect(s.mpns.create(c.id, { manufacturer: 'New Co', partNumber: 'X' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.mpns.create(UNKNOWN_COMPONENT, { manufacturer: 'New Co', partNumber: 'X' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.mpns.listForComponent(UNKNOWN_COMPONENT)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect((await s.manufacturers.list({ limit: 10 })).total).toBe(0)
    })

    it('lists MPNs of live components only, filtered by part number and manufacturer', async () => {
      const s = storage()
      await s.components.create({ name: 'A', mpns: [{ manufacturer: 'TI', partNumber: 'LM358DR' }, { manufacturer: 'ST', partNumber: 'LM358N' }] })
      await s.components.create({ name: 'B', mpns: [{ manufacturer: 'TI', partNumber: 'XLM358' }] })
      const gone = await s.components.create({ name: 'C', mpns: [{ manufacturer: 'TI', partNumber: 'LM358P' }] })
      await s.components.delete(gone.id)
      const all = await s.mpns.list({ limit: 10 })
      expect(all.total).toBe(3)
      // Prefix matches come before those that only contain the text.
      const byText = await s.mpns.list({ limit: 10, q: 'lm358' })
      expect(byText.items.map((m) => m.partNumber)).toEqual(['LM358DR', 'LM358N', 'XLM358'])
      const ti = (await s.manufacturers.list({ limit: 10, q: 'TI' })).items[0]!
      const byMaker = await s.mpns.list({ limit: 10, manufacturerId: ti.id })
      expect(byMaker.items.map((m) => m.partNumber)).toEqual(['LM358DR', 'XLM358'])
      expect(byMaker.total).toBe(2)
    })

    it('refuses a filter by an unknown manufacturer with VALIDATION_FAILED', async () => {
      await expect(storage().mpns.list({ limit: 10, manufacturerId: UNKNOWN_MANUFACTURER })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        errors: [{ path: 'query.manufacturerId' }],
      })
    })

    it('pages MPNs with a cursor, each once, total unchanged', async () => {
      const s = storage()
      await s.components.create({ name: 'A', mpns: ['P5', 'P1', 'P4', 'P2', 'P3'].map((partNumber) => ({ manufacturer: 'M', partNumber })) })
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const page = await s.mpns.list({ limit: 2, cursor, q: 'p' })
        expect(page.total).toBe(5)
        seen.push(...page.items.map((m) => m.partNumber))
        cursor = page.nextCursor ?? undefined
      } while (cursor)
      expect(seen).toEqual(['P1', 'P2', 'P3', 'P4', 'P5'])
    })

    it('updates the part number and, by name, the manufacturer (creating it when new)', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A', mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603' }] })
      const [m] = await s.mpns.listForComponent(c.id)
      expect(await s.mpns.update(m!.id, { partNumber: 'RC0603FR' })).toMatchObject({ partNumber: 'RC0603FR', version: 2 })
      const moved = await s.mpns.update(m!.id, { manufacturer: 'Panasonic' })
      expect(moved).toMatchObject({ manufacturer: 'Panasonic', version: 3 })
      expect(await s.manufacturers.get(moved.manufacturerId)).toMatchObject({ name: 'Panasonic', partCount: 1 })
      expect(await s.components.get(c.id)).toMatchObject({ version: 3, mpns: [{ manufacturer: 'Panasonic', partNumber: 'RC0603FR' }] })
    })

    it('refuses an update that duplicates another MPN of the component with CONFLICT, changing nothing', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A', mpns: [{ manufacturer: 'TI', partNumber: 'A1' }, { manufacturer: 'TI', partNumber: 'B2' }] })
      const [, second] = await s.mpns.listForComponent(c.id)
      await expect(s.mpns.update(second!.id, { partNumber: 'a1' })).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.partNumber' }] })
      expect(await s.mpns.get(second!.id)).toMatchObject({ partNumber: 'B2', version: 1 })
      expect((await s.components.get(c.id)).version).toBe(1)
    })

    it('refuses a stale ifVersion with PRECONDITION_FAILED', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A', mpns: [{ manufacturer: 'TI', partNumber: 'A1' }] })
      const [m] = await s.mpns.listForComponent(c.id)
      await expect(s.mpns.update(m!.id, { partNumber: 'A2' }, { ifVersion: 7 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
      expect(await s.mpns.get(m!.id)).toMatchObject({ partNumber: 'A1', version: 1 })
    })

    it('deletes an MPN and bumps the component; the MPN of a deleted component is hidden', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A', mpns: [{ manufacturer: 'TI', partNumber: 'A1' }, { manufacturer: 'TI', partNumber: 'B2' }] })
      const [a, b] = await s.mpns.listForComponent(c.id)
      await s.mpns.delete(a!.id)
      await expect(s.mpns.get(a!.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.mpns.delete(a!.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect(await s.components.get(c.id)).toMatchObject({ version: 2, mpns: [{ partNumber: 'B2' }] })
      await s.components.delete(c.id)
      await expect(s.mpns.get(b!.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('resolves a BOM in input order: case-insensitive part numbers, manufacturer by name or alias, live components only', async () => {
      const s = storage()
      const a = await s.components.create({ name: 'Op-amp', ipn: 'IC-1', mpns: [{ manufacturer: 'Texas Instruments', partNumber: 'LM358DR' }] })
      const b = await s.components.create({ name: 'Op-amp ST', ipn: 'IC-2', mpns: [{ manufacturer: 'ST', partNumber: 'lm358dr' }] })
      const gone = await s.components.create({ name: 'Old', ipn: 'IC-3', mpns: [{ manufacturer: 'ST', partNumber: 'NE555' }] })
      await s.components.delete(gone.id)
      const ti = (await s.manufacturers.list({ limit: 10, q: 'Texas' })).items[0]!
      await s.manufacturers.update(ti.id, { aliases: ['TI'] })
      const results = await s.mpns.resolve([
        { partNumber: 'NOPE' },
        { partNumber: 'Lm358dR' },
        { partNumber: 'LM358DR', manufacturer: 'ti' },
        { partNumber: 'LM358DR', manufacturer: 'Nobody' },
        { partNumber: 'NE555' },
      ])
      expect(results.map((r) => [r.partNumber, r.manufacturer])).toEqual([
        ['NOPE', null],
        ['Lm358dR', null],
        ['LM358DR', 'ti'],
        ['LM358DR', 'Nobody'],
        ['NE555', null],
      ])
      expect(results[0]!.matches).toEqual([])
      expect(results[1]!.matches).toEqual([
        { componentId: a.id, ipn: 'IC-1', name: 'Op-amp', manufacturer: 'Texas Instruments', partNumber: 'LM358DR' },
        { componentId: b.id, ipn: 'IC-2', name: 'Op-amp ST', manufacturer: 'ST', partNumber: 'lm358dr' },
      ])
      expect(results[2]!.matches.map((m) => m.componentId)).toEqual([a.id])
      expect(results[3]!.matches).toEqual([])
      expect(results[4]!.matches).toEqual([])
    })
  })

  describe('manufacturers', () => {
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
      await expect(s.manufacturers.merge(a.id, [b.id, UNKNOWN_MANUFACTURER])).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body.sourceIds[1]' }] })
      await expect(s.manufacturers.merge(UNKNOWN_MANUFACTURER, [b.id])).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect(await s.manufacturers.get(a.id)).toMatchObject({ aliases: [], version: 1 })
      expect(await s.manufacturers.get(b.id)).toMatchObject({ name: 'B' })
    })
  })
}
