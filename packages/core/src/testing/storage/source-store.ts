import { describe, expect, it } from 'vitest'
import type { SupplierOffer } from '../../schemas/source'
import type { Storage } from '../../storage/types'

const OFFER: SupplierOffer = {
  supplier: 'Mouser',
  sku: '595-LM358DR',
  url: 'https://example.test/p/595-LM358DR',
  stock: 12_345_678_901,
  minimumQuantity: 1,
  multiple: 1,
  packaging: 'Cut Tape',
  currency: 'USD',
  priceBreaks: [
    { quantity: 1, price: 0.52 },
    { quantity: 100, price: 0.2 },
  ],
  fetchedAt: '2026-11-26T12:00:00.000Z',
}

/** Configured sources with their secrets apart, offers per component and source, provenance per field (decisions 1600, 1603, 1604). */
export function sourceStoreSuite(storage: () => Storage): void {
  describe('source store', () => {
    it('creates, lists, changes and deletes a source, secrets kept apart from the config', async () => {
      const s = storage().sources
      const created = await s.create({ type: 'mouser', name: 'Mouser EU', config: { baseUrl: 'https://api.mouser.com' }, secrets: { apiKey: 'k-1234567890' } })
      expect(created).toMatchObject({ type: 'mouser', name: 'Mouser EU', config: { baseUrl: 'https://api.mouser.com' }, secrets: { apiKey: 'k-1234567890' }, version: 1 })
      expect(created.id).toMatch(/^src_/)
      expect((await s.list({ limit: 10 })).items.map((x) => x.id)).toEqual([created.id])
      const renamed = await s.update(created.id, { name: 'Mouser', secrets: { apiKey: 'k-new' } })
      expect(renamed).toMatchObject({ name: 'Mouser', config: { baseUrl: 'https://api.mouser.com' }, secrets: { apiKey: 'k-new' }, version: 2 })
      await expect(s.update(created.id, { name: 'x' }, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
      await s.delete(created.id)
      await expect(s.get(created.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.delete(created.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it("replaces one source's offers whole, keeps another's, and keeps them once the source is deleted", async () => {
      const st = storage()
      const c = await st.components.create({ name: 'LM358' })
      const a = await st.sources.create({ type: 'mouser', name: 'A', config: {}, secrets: {} })
      const b = await st.sources.create({ type: 'tme', name: 'B', config: {}, secrets: {} })
      await st.offers.replace(c.id, a.id, '595-LM358DR', [OFFER, { ...OFFER, sku: '595-LM358DRG4', priceBreaks: [] }])
      await st.offers.replace(c.id, b.id, 'LM358D', [{ ...OFFER, supplier: 'TME', sku: 'LM358D', currency: 'EUR' }])
      expect((await st.offers.list(c.id)).map((o) => [o.supplier, o.sku, o.sourceId])).toEqual([
        ['Mouser', '595-LM358DR', a.id],
        ['Mouser', '595-LM358DRG4', a.id],
        ['TME', 'LM358D', b.id],
      ])
      expect((await st.offers.list(c.id))[0]).toEqual({ ...OFFER, sourceId: a.id, ref: '595-LM358DR' })
      await st.offers.replace(c.id, a.id, '595-LM358DR', [{ ...OFFER, stock: 0 }])
      expect((await st.offers.list(c.id)).map((o) => [o.sku, o.stock])).toEqual([
        ['595-LM358DR', 0],
        ['LM358D', OFFER.stock],
      ])
      await st.sources.delete(b.id)
      expect((await st.offers.list(c.id)).map((o) => o.sourceId)).toEqual([a.id, null])
    })

    it('records where each field came from, the latest winning, and forgets it with a purged component', async () => {
      const st = storage()
      const c = await st.components.create({ name: 'LM358' })
      const src = await st.sources.create({ type: 'digikey', name: 'DigiKey', config: {}, secrets: {} })
      const entry = { sourceId: src.id, sourceType: 'digikey', sourceName: 'DigiKey', ref: '296-1395-5-ND', at: '2026-11-26T12:00:00.000Z' }
      await st.provenance.record(c.id, [
        { ...entry, field: 'parameters' },
        { ...entry, field: 'description' },
      ])
      await st.provenance.record(c.id, [{ ...entry, field: 'description', ref: 'other', at: '2026-11-27T12:00:00.000Z' }])
      expect(await st.provenance.list(c.id)).toEqual([
        { ...entry, field: 'description', ref: 'other', at: '2026-11-27T12:00:00.000Z' },
        { ...entry, field: 'parameters' },
      ])
      await st.offers.replace(c.id, src.id, 'x', [OFFER])
      await st.components.delete(c.id)
      await st.components.purge(c.id)
      expect(await st.provenance.list(c.id)).toEqual([])
      expect(await st.offers.list(c.id)).toEqual([])
    })
  })
}
