import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'
import { MISSING_COMPONENT, MISSING_MANUFACTURER } from './_fixtures'

/** Manufacturer part numbers: as records of a component, listed across the library, and the BOM lookup. */
export function mpnStoreSuite(storage: () => Storage): void {
  describe('mpn store', () => {
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
      await expect(s.mpns.create(MISSING_COMPONENT, { manufacturer: 'New Co', partNumber: 'X' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.mpns.listForComponent(MISSING_COMPONENT)).rejects.toMatchObject({ code: 'NOT_FOUND' })
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
      await expect(storage().mpns.list({ limit: 10, manufacturerId: MISSING_MANUFACTURER })).rejects.toMatchObject({
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
  })
}
