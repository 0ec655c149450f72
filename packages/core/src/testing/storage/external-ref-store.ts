import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** The peers' keys of imported records (decision 0640): one target per (source, kind, key). */
export function externalRefStoreSuite(storage: () => Storage): void {
  describe('external ref store', () => {
    it('finds the held keys of many at once, per source and kind', async () => {
      const s = storage()
      await s.externalRefs.upsert([
        { source: 'inventree', kind: 'part', key: '12', target: 'cmp_a' },
        { source: 'inventree', kind: 'part', key: '13', target: 'cmp_b' },
        { source: 'inventree', kind: 'company', key: '12', target: 'Yageo' },
        { source: 'partdb', kind: 'part', key: '12', target: 'cmp_c' },
      ])
      const found = await s.externalRefs.lookup('inventree', 'part', ['12', '13', '14', '12'])
      expect(found.map((r) => [r.key, r.target]).sort()).toEqual([
        ['12', 'cmp_a'],
        ['13', 'cmp_b'],
      ])
      expect(await s.externalRefs.lookup('inventree', 'company', ['12'])).toEqual([{ source: 'inventree', kind: 'company', key: '12', target: 'Yageo' }])
      expect(await s.externalRefs.lookup('partdb', 'company', ['12'])).toEqual([])
      expect(await s.externalRefs.lookup('inventree', 'part', [])).toEqual([])
    })

    it('answers what each upsert replaced, so that an undo can set it back', async () => {
      const s = storage()
      expect(await s.externalRefs.upsert([{ source: 'inventree', kind: 'company', key: '7', target: 'Murata' }])).toEqual([null])
      expect(await s.externalRefs.upsert([{ source: 'inventree', kind: 'company', key: '7', target: 'Murata Electronics' }, { source: 'inventree', kind: 'company', key: '8', target: 'TDK' }])).toEqual(['Murata', null])
      expect((await s.externalRefs.lookup('inventree', 'company', ['7'])).map((r) => r.target)).toEqual(['Murata Electronics'])
    })

    it('lists the refs of one component and removes refs by key', async () => {
      const s = storage()
      await s.externalRefs.upsert([
        { source: 'partdb', kind: 'part', key: '3', target: 'cmp_x' },
        { source: 'inventree', kind: 'part', key: '40', target: 'cmp_x' },
        { source: 'inventree', kind: 'part', key: '41', target: 'cmp_y' },
      ])
      expect((await s.externalRefs.listForTarget('part', 'cmp_x')).map((r) => [r.source, r.key])).toEqual([
        ['inventree', '40'],
        ['partdb', '3'],
      ])
      await s.externalRefs.remove([{ source: 'inventree', kind: 'part', key: '40' }, { source: 'inventree', kind: 'part', key: '99' }])
      expect((await s.externalRefs.listForTarget('part', 'cmp_x')).map((r) => r.key)).toEqual(['3'])
      expect(await s.externalRefs.listForTarget('company', 'cmp_x')).toEqual([])
    })

    it('writes inside a transaction that rolls back with it', async () => {
      const s = storage()
      await expect(
        s.transaction(async (tx) => {
          await tx.externalRefs.upsert([{ source: 'inventree', kind: 'part', key: '1', target: 'cmp_z' }])
          throw new Error('stop')
        }),
      ).rejects.toThrow('stop')
      expect(await s.externalRefs.lookup('inventree', 'part', ['1'])).toEqual([])
    })
  })
}
