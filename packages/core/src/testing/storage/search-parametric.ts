import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** Parametric search: components whose parameters meet every condition. */
export function parametricSuite(storage: () => Storage): void {
  describe('parametric search', () => {
    it('compares numbers with SI prefixes, bounds included, the type in any case', async () => {
      const s = storage()
      const r4k7 = await s.components.create({ name: 'R 4k7', ipn: 'R-1', parameters: [{ type: 'Resistance', value: '4k7' }] })
      const r10k = await s.components.create({ name: 'R 10k', ipn: 'R-2', parameters: [{ type: 'Resistance', value: '10k', unit: 'Ω' }] })
      await s.components.create({ name: 'R 100k', ipn: 'R-3', parameters: [{ type: 'Resistance', value: '100k' }] })
      await s.components.create({ name: 'C 10n', ipn: 'C-1', parameters: [{ type: 'Capacitance', value: '10n' }] })
      const ids = async (min: string | number | undefined, max: string | number | undefined) =>
        (await s.search.parametric([{ type: 'RESISTANCE', min, max }], { limit: 10 })).items.map((c) => c.id)
      expect(await ids('4.7k', '10k')).toEqual([r4k7.id, r10k.id])
      expect(await ids(4701, 10_000)).toEqual([r10k.id])
      expect(await ids(undefined, '0.0047M')).toEqual([r4k7.id])
      expect(await ids('1M', undefined)).toEqual([])
    })

    it('requires every condition and matches eq as text in any case', async () => {
      const s = storage()
      const both = await s.components.create({ name: 'C 100n X7R', ipn: 'C-1', parameters: [{ type: 'Capacitance', value: '100n' }, { type: 'Dielectric', value: 'X7R' }] })
      await s.components.create({ name: 'C 100n C0G', ipn: 'C-2', parameters: [{ type: 'Capacitance', value: '100n' }, { type: 'Dielectric', value: 'C0G' }] })
      await s.components.create({ name: 'C 1u X7R', ipn: 'C-3', parameters: [{ type: 'Capacitance', value: '1u' }, { type: 'Dielectric', value: 'X7R' }] })
      const page = await s.search.parametric([{ type: 'capacitance', min: '10n', max: '220n' }, { type: 'dielectric', eq: 'x7r' }], { limit: 10 })
      expect(page.items.map((c) => c.id)).toEqual([both.id])
      expect(page.total).toBe(1)
      expect(page.items[0]!.parameters).toEqual([{ type: 'Capacitance', value: '100n' }, { type: 'Dielectric', value: 'X7R' }])
    })

    it('never puts a value that is not a number in a range', async () => {
      const s = storage()
      await s.components.create({ name: 'Odd', ipn: 'O-1', parameters: [{ type: 'Tolerance', value: 'tight' }] })
      const pct = await s.components.create({ name: 'Pct', ipn: 'O-2', parameters: [{ type: 'Tolerance', value: '1%' }] })
      expect((await s.search.parametric([{ type: 'Tolerance', max: 5 }], { limit: 10 })).items.map((c) => c.id)).toEqual([pct.id])
      expect((await s.search.parametric([{ type: 'Tolerance', eq: 'TIGHT' }], { limit: 10 })).total).toBe(1)
    })

    it('leaves deleted components out and pages by id with the total', async () => {
      const s = storage()
      const ids: string[] = []
      for (let i = 0; i < 7; i++) ids.push((await s.components.create({ name: `L ${i}`, ipn: `L-${i}`, parameters: [{ type: 'Inductance', value: `${i + 1}u` }] })).id)
      await s.components.delete(ids[2]!)
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const page = await s.search.parametric([{ type: 'Inductance', min: '1u' }], { limit: 4, cursor })
        expect(page.total).toBe(6)
        seen.push(...page.items.map((c) => c.id))
        cursor = page.nextCursor ?? undefined
      } while (cursor)
      expect(seen).toEqual(ids.filter((_, i) => i !== 2))
    })

    it('rejects a bound that is not a number, naming the condition', async () => {
      const s = storage()
      await s.components.create({ name: 'R', ipn: 'R-1', parameters: [{ type: 'Resistance', value: '1k' }] })
      await expect(s.search.parametric([{ type: 'Resistance', min: '1k' }, { type: 'Resistance', max: 'lots' }], { limit: 10 })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        errors: [{ path: 'body.conditions[1].max' }],
      })
      await expect(s.search.parametric([{ type: 'Resistance', min: '' }], { limit: 10 })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        errors: [{ path: 'body.conditions[0].min' }],
      })
    })
  })
}
