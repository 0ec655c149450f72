import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** Variants that read the same as `base` (foldKey): case beyond ASCII, composed and decomposed, full-width, Kelvin sign. */
const LOOKALIKES: ReadonlyArray<[string, string]> = [
  ['ÀX-1', 'àx-1'],
  ['\u00c9-1', 'E\u0301-1'],
  ['R-123', 'r-１２３'],
  ['KR-1', '\u212aR-1'],
]

/**
 * Identifiers compare as people read them (decision 0420 and decision 0421):
 * ipn, and the names of tags, manufacturers (and aliases), locations (among
 * siblings) and parameter types are the same when their foldKey is; the
 * stored value stays as it was given.
 */
export function identifiersSuite(storage: () => Storage): void {
  describe('identifiers', () => {
    it('refuses an ipn that reads as a live component’s with CONFLICT naming body.ipn and that component', async () => {
      for (const [taken, variant] of LOOKALIKES) {
        const a = await storage().components.create({ name: 'A', ipn: taken })
        await expect(storage().components.create({ name: 'B', ipn: variant })).rejects.toMatchObject({
          code: 'CONFLICT',
          errors: [{ path: 'body.ipn' }],
          detail: expect.stringContaining(a.id),
        })
        expect((await storage().components.getByIpn(variant)).id).toBe(a.id)
      }
    })

    it('refuses a change of ipn onto a non-ASCII case variant of another component’s, with CONFLICT, as a create is refused', async () => {
      const a = await storage().components.create({ name: 'A', ipn: 'àX-1' })
      const b = await storage().components.create({ name: 'B', ipn: 'ÀY-1' })
      await expect(storage().components.update(b.id, { ipn: 'ÀX-1' })).rejects.toMatchObject({ code: 'CONFLICT', detail: expect.stringContaining(a.id) })
      const k = await storage().components.create({ name: 'K', ipn: 'kx-2' })
      const c = await storage().components.create({ name: 'C', ipn: '\u212aY-2' })
      await expect(storage().components.update(c.id, { ipn: '\u212aX-2' })).rejects.toMatchObject({ code: 'CONFLICT', detail: expect.stringContaining(k.id) })
      expect((await storage().components.get(b.id)).ipn).toBe('ÀY-1')
    })

    it('keeps an ipn as given, lets a component change its own ipn’s case, and frees it on delete', async () => {
      const a = await storage().components.create({ name: 'A', ipn: 'àX-1' })
      expect((await storage().components.update(a.id, { ipn: 'ÀX-1' })).ipn).toBe('ÀX-1')
      await storage().components.delete(a.id)
      const b = await storage().components.create({ name: 'B', ipn: 'àx-1' })
      expect(b.ipn).toBe('àx-1')
      await expect(storage().components.restore(a.id)).rejects.toMatchObject({ code: 'CONFLICT' })
    })

    it('finds and refuses tags, manufacturers, aliases and parameter types by the same rule', async () => {
      const s = storage()
      const tag = await s.tags.create({ name: 'Résistor' })
      await expect(s.tags.create({ name: 'RE\u0301SISTOR' })).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.name' }], detail: expect.stringContaining(tag.id) })
      const ti = await s.manufacturers.create({ name: 'Texas Instruments', aliases: ['TI', 'ｔｉ', 'TEXAS INSTRUMENTS', 'Texas Inst.'] })
      expect(ti.aliases).toEqual(['TI', 'Texas Inst.'])
      await expect(s.manufacturers.create({ name: 'ＴＥＸＡＳ INSTRUMENTS' })).rejects.toMatchObject({ code: 'CONFLICT', detail: expect.stringContaining(ti.id) })
      const part = await s.components.create({ name: 'P', tags: ['résistor', 'RÉSISTOR'], mpns: [{ manufacturer: 'ｔｉ', partNumber: 'NE555' }] })
      expect(part.tags).toEqual(['Résistor'])
      expect(part.mpns).toEqual([{ manufacturer: 'Texas Instruments', partNumber: 'NE555' }])
      expect((await s.components.list({ limit: 10, sort: 'id', includeDeleted: false, tag: 'RE\u0301SISTOR', manufacturer: 'texas instruments' })).total).toBe(1)
      const [resolved] = await s.mpns.resolve([{ partNumber: 'NE555', manufacturer: 'Ｔi' }])
      expect(resolved?.matches.map((m) => m.componentId)).toEqual([part.id])
      const type = await s.parameterTypes.create({ name: 'Ω Rating', kind: 'text' })
      await expect(s.parameterTypes.create({ name: 'ω rating', kind: 'text' })).rejects.toMatchObject({ code: 'CONFLICT', detail: expect.stringContaining(type.id) })
    })

    it('refuses a location name that reads as a sibling’s, and allows it under another parent', async () => {
      const s = storage()
      const shelf = await s.locations.create({ name: 'Shelf' })
      const bin = await s.locations.create({ name: 'Bin É', parentId: shelf.id })
      await expect(s.locations.create({ name: 'bin e\u0301', parentId: shelf.id })).rejects.toMatchObject({ code: 'CONFLICT', detail: expect.stringContaining(bin.id) })
      const other = await s.locations.create({ name: 'bin e\u0301' })
      await expect(s.locations.update(other.id, { parentId: shelf.id })).rejects.toMatchObject({ code: 'CONFLICT' })
      expect((await s.locations.update(bin.id, { name: 'BIN É' })).name).toBe('BIN É')
    })
  })
}
