import { describe, expect, it } from 'vitest'
import { SAVED_VIEWS_PER_OWNER } from '../../schemas/saved-view'
import type { Storage } from '../../storage/types'

const ADA = 'usr_01JD7W3T9X4QF5B8S2M6K0N1PZ'
const BOB = 'usr_01JD7W3T9X4QF5B8S2M6K0N1PY'

/** Saved views: per owner, unique names, another owner's view as missing (decision 1508). */
export function savedViewStoreSuite(storage: () => Storage): void {
  describe('saved view store', () => {
    it('creates, lists by name, changes and deletes an owner\'s views', async () => {
      const s = storage().savedViews
      const state = { filters: { category: 'Passives', ranges: [{ type: 'Resistance', min: '1k' }] }, columns: ['name', 'stock'], sort: '-stock', note: 'Ω µ' }
      const b = await s.create(ADA, { name: 'Resistors', state })
      const a = await s.create(ADA, { name: 'Capacitors', state: {} })
      expect(b).toMatchObject({ name: 'Resistors', state, version: 1 })
      expect(b.id).toMatch(/^view_/)
      expect((await s.list(ADA)).map((v) => v.name)).toEqual(['Capacitors', 'Resistors'])
      expect(await s.get(ADA, b.id)).toEqual(b)
      const renamed = await s.update(ADA, a.id, { name: 'Caps', state: { sort: 'name' } })
      expect(renamed).toMatchObject({ name: 'Caps', state: { sort: 'name' }, version: 2 })
      expect(await s.update(ADA, a.id, { name: 'Caps' })).toMatchObject({ version: 2 })
      await expect(s.update(ADA, a.id, { name: 'x' }, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
      await s.delete(ADA, a.id)
      expect((await s.list(ADA)).map((v) => v.id)).toEqual([b.id])
      await expect(s.get(ADA, a.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('keeps names unique per owner, as identifiers compare', async () => {
      const s = storage().savedViews
      const v = await s.create(ADA, { name: 'Resistors', state: {} })
      await expect(s.create(ADA, { name: 'resistors', state: {} })).rejects.toMatchObject({ code: 'CONFLICT' })
      const other = await s.create(ADA, { name: 'Other', state: {} })
      await expect(s.update(ADA, other.id, { name: 'RESISTORS' })).rejects.toMatchObject({ code: 'CONFLICT' })
      // Another owner may use the name; renaming a view to its own name in another case is no conflict.
      await s.create(BOB, { name: 'Resistors', state: {} })
      expect(await s.update(ADA, v.id, { name: 'resistors' })).toMatchObject({ name: 'resistors', version: 2 })
    })

    it('shows and changes another owner\'s view as missing', async () => {
      const s = storage().savedViews
      const v = await s.create(ADA, { name: 'Mine', state: { a: 1 } })
      expect(await s.list(BOB)).toEqual([])
      await expect(s.get(BOB, v.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.update(BOB, v.id, { name: 'Taken' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.delete(BOB, v.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect(await s.get(ADA, v.id)).toMatchObject({ name: 'Mine', state: { a: 1 }, version: 1 })
    })

    it(`keeps at most ${SAVED_VIEWS_PER_OWNER} views per owner`, async () => {
      const s = storage().savedViews
      for (let i = 0; i < SAVED_VIEWS_PER_OWNER; i++) await s.create(ADA, { name: `v${i}`, state: {} })
      await expect(s.create(ADA, { name: 'one more', state: {} })).rejects.toMatchObject({ code: 'CONFLICT' })
      await s.create(BOB, { name: 'one more', state: {} })
    })
  })
}
