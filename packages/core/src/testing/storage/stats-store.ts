import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** The library counts: live and deleted components apart, every other record, and the size of the database. */
export function statsStoreSuite(storage: () => Storage): void {
  describe('stats store', () => {
    it('counts an empty library as zeros', async () => {
      const { databaseBytes, ...counts } = await storage().stats()
      expect(Object.values(counts).every((n) => n === 0)).toBe(true)
      expect(Object.keys(counts).sort()).toEqual(
        ['attachments', 'components', 'connectors', 'deletedComponents', 'footprints', 'locations', 'manufacturers', 'mpns', 'parameterTypes', 'runs', 'symbols', 'tags'],
      )
      // The size of the database as the storage holds it: an empty one still has its schema.
      expect(databaseBytes).toBeGreaterThan(0)
    })

    it('counts live and deleted components apart, and every other record', async () => {
      const s = storage()
      await s.components.create({ name: 'R 10k', ipn: 'RES-1', tags: ['smd', 'passive'], mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' }, { manufacturer: 'Vishay', partNumber: 'CRCW060310K0FKEA' }] })
      const gone = await s.components.create({ name: 'R 22k', ipn: 'RES-2', mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0722KL' }] })
      await s.components.delete(gone.id)
      await s.symbols.create({ name: 'R' })
      await s.footprints.create({ name: 'R_0603' })
      await s.locations.create({ name: 'Shelf' })
      const c = await s.connectors.create({ type: 'webhook', name: 'Hook', enabled: true, config: {}, secret: null, code: null })
      await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [] })
      expect(await s.stats()).toEqual({
        components: 1,
        deletedComponents: 1,
        symbols: 1,
        footprints: 1,
        attachments: 0,
        manufacturers: 2,
        mpns: 3,
        parameterTypes: 0,
        tags: 2,
        locations: 1,
        connectors: 1,
        runs: 1,
        databaseBytes: expect.any(Number),
      })
    })

    it('counts the library', async () => {
      const s = storage()
      await s.components.create({ name: 'A', tags: ['t'], mpns: [{ manufacturer: 'M', partNumber: 'P' }] })
      const b = await s.components.create({ name: 'B' })
      await s.components.delete(b.id)
      expect(await s.stats()).toMatchObject({ components: 1, deletedComponents: 1, tags: 1, manufacturers: 1, mpns: 1, symbols: 0 })
    })
  })
}
