import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** Suggest ranking, grouped search and parametric search. */
export function searchSuite(storage: () => Storage): void {
  describe('search', () => {
    it('ranks a whole-field prefix before a word prefix before a substring', async () => {
      const s = storage()
      const substring = await s.components.create({ name: 'Xres thing', ipn: 'A-1' })
      const word = await s.components.create({ name: 'Big Resistor', ipn: 'A-2' })
      const prefix = await s.components.create({ name: 'Resistor 10k', ipn: 'A-3' })
      const hits = await s.search.suggest('components', 'res', 5)
      expect(hits.map((h) => h.id)).toEqual([prefix.id, word.id, substring.id])
      expect(hits[0]).toEqual({ id: prefix.id, entity: 'components', label: 'Resistor 10k', detail: 'A-3' })
    })

    it('matches every word of a query, in the description too', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'R 10k', description: 'Resistor 10k in 0603' })
      await s.components.create({ name: 'C 100n', description: 'Capacitor in 0603' })
      expect((await s.search.suggest('components', 'resistor 0603', 5)).map((h) => h.id)).toEqual([c.id])
    })

    it('finds components by ipn and part number, never deleted ones', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'Op amp', ipn: 'IC-7', mpns: [{ manufacturer: 'TI', partNumber: 'LM358DR' }] })
      const gone = await s.components.create({ name: 'Op amp old', ipn: 'IC-8', mpns: [{ manufacturer: 'TI', partNumber: 'LM358P' }] })
      await s.components.delete(gone.id)
      expect((await s.search.suggest('components', 'lm358', 5)).map((h) => h.id)).toEqual([c.id])
      expect((await s.search.suggest('components', 'ic-', 5)).map((h) => h.id)).toEqual([c.id])
      const mpns = await s.search.suggest('mpns', 'LM35', 5)
      expect(mpns.map((h) => h.label)).toEqual(['LM358DR'])
      expect(mpns[0]!.detail).toBe('TI · IC-7')
    })

    it('keeps the ranking over a few thousand components', async () => {
      const s = storage()
      await s.transaction(async (tx) => {
        for (let i = 0; i < 3000; i++) await tx.components.create({ name: `Part ${i} capacitor`, ipn: `C-${i}` })
      })
      const target = await s.components.create({ name: 'Capacitor special', ipn: 'Z-1' })
      const hits = await s.search.suggest('components', 'capac', 5)
      expect(hits).toHaveLength(5)
      expect(hits[0]!.id).toBe(target.id)
    })

    it('suggests tags, locations and manufacturers by name', async () => {
      const s = storage()
      await s.components.create({ name: 'A', tags: ['smd'], mpns: [{ manufacturer: 'Murata', partNumber: 'X' }] })
      const shelf = await s.locations.create({ name: 'Shelf' })
      await s.locations.create({ name: 'Small bin', parentId: shelf.id })
      expect(await s.search.suggest('tags', 'sm', 5)).toEqual([expect.objectContaining({ label: 'smd', detail: '1 components' })])
      expect((await s.search.suggest('locations', 'sm', 5)).map((h) => h.detail)).toEqual(['Shelf / Small bin'])
      expect((await s.search.suggest('manufacturers', 'mur', 5)).map((h) => h.label)).toEqual(['Murata'])
      const grouped = await s.search.search('sm', 5)
      expect(grouped.tags).toHaveLength(1)
      expect(grouped.components).toEqual([])
    })

    it('finds components by parameter ranges with SI prefixes', async () => {
      const s = storage()
      const r1 = await s.components.create({ name: 'R1', parameters: [{ type: 'Resistance', value: '4k7' }, { type: 'Package', value: '0603' }] })
      await s.components.create({ name: 'R2', parameters: [{ type: 'Resistance', value: '100k' }, { type: 'Package', value: '0603' }] })
      const page = await s.search.parametric([{ type: 'resistance', min: '1k', max: 10_000 }, { type: 'Package', eq: '0603' }], { limit: 10 })
      expect(page.items.map((c) => c.id)).toEqual([r1.id])
      expect(page.total).toBe(1)
      await expect(s.search.parametric([{ type: 'Resistance', min: 'lots' }], { limit: 10 })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        errors: [{ path: 'body.conditions[0].min' }],
      })
    })
  })
}
