import { describe, expect, it } from 'vitest'
import { COMPONENT_SORT_FIELDS, ComponentListQuery } from '../../schemas/component'
import type { Storage } from '../../storage/types'

const q = (over: Record<string, unknown> = {}): ComponentListQuery => ComponentListQuery.parse({ limit: '100', ...over })

/** Every id of a query, page after page of `limit`, and the JSON pages beside them. */
async function pageThrough(s: Storage, over: Record<string, unknown>, limit: number): Promise<string[]> {
  const out: string[] = []
  let cursor: string | undefined
  do {
    const query = q({ ...over, limit: String(limit), ...(cursor ? { cursor } : {}) })
    const ids = await s.components.listIds(query)
    const json = JSON.parse(new TextDecoder().decode((await s.components.listJson(query)).json)) as Array<{ id: string }>
    expect(json.map((c) => c.id)).toEqual(ids.items)
    out.push(...ids.items)
    cursor = ids.nextCursor ?? undefined
  } while (cursor)
  return out
}

/**
 * The list's sort keys, filters and side reads of the library table
 * (decisions 0443, 0444, 0445): every sort pages through to the same order as
 * one big page, rows without a value last both ways.
 */
export function componentListSuite(storage: () => Storage): void {
  describe('component list: sorts, trash, parameter filters, extras', () => {
    async function library() {
      const s = storage()
      const shelf = await s.locations.create({ name: 'Shelf' })
      const bin = await s.locations.create({ name: 'Bin' })
      const made = []
      const specs = [
        { name: 'R1', category: 'Passives/Resistors', mpns: [{ manufacturer: 'Yageo', partNumber: 'RC1' }], parameters: [{ type: 'Resistance', value: '10k' }, { type: 'Package', value: '0603' }] },
        { name: 'R2', category: 'passives/resistors', mpns: [{ manufacturer: 'vishay', partNumber: 'CRCW1' }], parameters: [{ type: 'Resistance', value: '4.7k' }, { type: 'Package', value: '0402' }] },
        { name: 'R3', category: 'Passives/Resistors', parameters: [{ type: 'Resistance', value: '1M' }] },
        { name: 'R4', category: 'Passives/Resistors', mpns: [{ manufacturer: 'Yageo', partNumber: 'RC2' }], parameters: [{ type: 'Resistance', value: 'n/a' }, { type: 'Package', value: '0603' }] },
        { name: 'C1', category: 'Passives/Capacitors', status: 'draft' as const, mpns: [{ manufacturer: 'Murata', partNumber: 'GRM1' }], parameters: [{ type: 'Package', value: '0805' }] },
        { name: 'U1', status: 'obsolete' as const, mpns: [{ manufacturer: 'TI', partNumber: 'LM1' }] },
        { name: 'U2' },
        { name: 'U3', category: 'ICs' },
      ]
      for (const spec of specs) made.push(await s.components.create(spec))
      await s.locations.setStock(made[0]!.id, shelf.id, 5)
      await s.locations.setStock(made[0]!.id, bin.id, 7)
      await s.locations.setStock(made[2]!.id, bin.id, 100)
      await s.locations.setStock(made[5]!.id, shelf.id, 12)
      await s.locations.setStock(made[6]!.id, shelf.id, 5)
      return made
    }

    it('pages through every sort, both ways, to the order of one page', async () => {
      await library()
      const s = storage()
      const sorts = [...COMPONENT_SORT_FIELDS, 'parameter:Resistance', 'parameter:package', 'parameter:Nothing']
      for (const field of sorts) {
        for (const sort of [field, `-${field}`]) {
          const whole = (await s.components.listIds(q({ sort, limit: '1000' }))).items
          expect(whole).toHaveLength(8)
          for (const limit of [1, 2, 3]) expect(await pageThrough(s, { sort }, limit), `${sort} by ${limit}`).toEqual(whole)
        }
      }
    })

    it('sorts by number, text, and puts rows without a value last both ways', async () => {
      const made = await library()
      const s = storage()
      const names = async (sort: string) => {
        const ids = await pageThrough(s, { sort }, 2)
        return ids.map((id) => made.find((c) => c.id === id)!.name)
      }
      // Numbers by value (4.7k < 10k < 1M), not as text; `n/a` is no number: with the parts that lack it, last, by id in the sort's direction.
      expect(await names('parameter:Resistance')).toEqual(['R2', 'R1', 'R3', 'R4', 'C1', 'U1', 'U2', 'U3'])
      expect(await names('-parameter:Resistance')).toEqual(['R3', 'R1', 'R2', 'U3', 'U2', 'U1', 'C1', 'R4'])
      expect((await names('parameter:Package')).slice(0, 4)).toEqual(['R2', 'R1', 'R4', 'C1'])
      expect((await names('-parameter:Package')).slice(0, 4)).toEqual(['C1', 'R4', 'R1', 'R2'])
      expect(await names('stock')).toEqual(['R2', 'R4', 'C1', 'U3', 'U2', 'R1', 'U1', 'R3'])
      expect(await names('-stock')).toEqual(['R3', 'U1', 'R1', 'U2', 'U3', 'C1', 'R4', 'R2'])
      // Case-insensitive, the first part number's manufacturer; none last.
      expect(await names('manufacturer')).toEqual(['C1', 'U1', 'R2', 'R1', 'R4', 'R3', 'U2', 'U3'])
      expect(await names('-manufacturer')).toEqual(['R4', 'R1', 'R2', 'U1', 'C1', 'U3', 'U2', 'R3'])
      expect((await names('category')).slice(-2)).toEqual(['U1', 'U2'])
      expect((await names('-category')).slice(-2)).toEqual(['U2', 'U1'])
      expect((await names('-category'))[0]).toBe('R4')
      expect(await names('status')).toEqual(['R1', 'R2', 'R3', 'R4', 'U2', 'U3', 'C1', 'U1'])
      expect(await names('createdAt')).toEqual(made.map((c) => c.name))
    })

    it('sorts by a parameter type whose name has quotes, and by a registered number type', async () => {
      const s = storage()
      const a = await s.components.create({ name: 'a', parameters: [{ type: "It's \"odd\"", value: 'b' }, { type: 'Gain', value: '20' }] })
      const b = await s.components.create({ name: 'b', parameters: [{ type: "It's \"odd\"", value: 'A' }, { type: 'Gain', value: '3' }] })
      expect(await pageThrough(s, { sort: `parameter:It's "odd"` }, 1)).toEqual([b.id, a.id])
      await s.parameterTypes.create({ name: 'Gain', kind: 'number' })
      expect(await pageThrough(s, { sort: 'parameter:gain' }, 1)).toEqual([b.id, a.id])
      await s.parameterTypes.update((await s.parameterTypes.list({ limit: 10 })).items.find((t) => t.name === 'Gain')!.id, { kind: 'text' })
      expect(await pageThrough(s, { sort: 'parameter:gain' }, 1)).toEqual([a.id, b.id])
    })

    it('refuses a cursor of another sort with a 400 naming query.cursor', async () => {
      await library()
      const s = storage()
      const byStock = await s.components.listIds(q({ sort: 'stock', limit: '2' }))
      await expect(s.components.listIds(q({ sort: 'category', limit: '2', cursor: byStock.nextCursor }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('query.cursor') })
    })

    it('lists the trash only with deleted=only', async () => {
      const made = await library()
      const s = storage()
      await s.components.delete(made[1]!.id)
      await s.components.delete(made[6]!.id)
      const only = await s.components.listIds(q({ deleted: 'only' }))
      expect(only.items.sort()).toEqual([made[1]!.id, made[6]!.id].sort())
      expect(only.total).toBe(2)
      expect((await s.components.listIds(q({ deleted: 'include' }))).total).toBe(8)
      expect((await s.components.listIds(q({}))).total).toBe(6)
      expect((await s.components.listIds(q({ deleted: 'only', q: 'R2' }))).items).toEqual([made[1]!.id])
    })

    it('filters by parameter conditions as the parametric search does', async () => {
      const made = await library()
      const s = storage()
      const names = async (parameter: string | string[]) => (await s.components.list(q({ parameter, sort: 'name' }))).items.map((c) => c.name)
      expect(await names('Resistance:1k..10k')).toEqual(['R1', 'R2'])
      expect(await names('resistance:5k..')).toEqual(['R1', 'R3'])
      expect(await names('Resistance:..5k')).toEqual(['R2'])
      expect(await names(['Resistance:1k..10M', 'Package=0603'])).toEqual(['R1'])
      expect(await names('Package=0805')).toEqual(['C1'])
      const ids = await s.components.listIds(q({ parameter: 'Resistance:1k..10k', category: 'Passives', sort: '-name' }))
      expect(ids).toMatchObject({ items: [made[1]!.id, made[0]!.id], total: 2 })
      expect(() => q({ parameter: 'Resistance:ten..' })).toThrow()
      expect(() => q({ parameter: 'Resistance' })).toThrow()
    })

    it('lists the matches of a filter in its sort when they come after thousands of parts that do not match', { timeout: 60_000 }, async () => {
      // With this many matches an engine reads a page along the sort's index, expecting matches on
      // the way; here the first 2,100 parts by name match nothing, and both engines read at most
      // 2,040 so before they read every match (component-query.ts). Every filter still finds
      // exactly its parts, in order.
      const s = storage()
      await s.transaction(async (tx) => {
        for (let i = 0; i < 2_100; i++) await tx.components.create({ name: `A ${String(i).padStart(4, '0')}`, category: i % 2 ? 'Early' : 'Later' })
        for (let i = 0; i < 400; i++) {
          await tx.components.create({ name: `Z ${String(i).padStart(3, '0')}`, description: 'zygote', category: 'Late/Zed', tags: ['late'], parameters: [{ type: 'Resistance', value: '10k' }] })
        }
      })
      const late = Array.from({ length: 400 }, (_, i) => `Z ${String(i).padStart(3, '0')}`)
      // A category no part lies below is read along its own index in name order; one above it, not;
      // `Later` merely starts alike.
      for (const filter of [{ tag: 'late' }, { q: 'zygote' }, { parameter: 'Resistance:1k..100k' }, { category: 'late/zed' }, { category: 'Late' }]) {
        const first = await s.components.list(q({ ...filter, sort: 'name', limit: '50' }))
        expect(first.items.map((c) => c.name), JSON.stringify(filter)).toEqual(late.slice(0, 50))
        expect(first.total).toBe(400)
        expect(await pageThrough(s, { ...filter, sort: 'name' }, 100)).toHaveLength(400)
        const descending = await s.components.list(q({ ...filter, sort: '-name', limit: '10' }))
        expect(descending.items.map((c) => c.name)).toEqual(late.slice(-10).reverse())
      }
    })

    it('takes in a category and its descendants, any case, and no sibling that merely starts alike', async () => {
      const s = storage()
      for (const [name, category] of [
        ['A', 'Passives/Resistors'],
        ['B', 'passives/RESISTORS/Thick film'],
        ['C', 'Passives/Resistors/Thin film/0402'],
        ['D', 'Passives/ResistorsX'],
        ['E', 'Passives/Resistors0'],
        ['F', 'Passives/Resistor'],
        ['G', 'Passives'],
        ['H', 'Passives/Resistors.old'],
      ] as const) {
        await s.components.create({ name, category })
      }
      const names = async (category: string) => (await s.components.list(q({ category, sort: 'name' }))).items.map((c) => c.name)
      expect(await names('Passives/Resistors')).toEqual(['A', 'B', 'C'])
      expect(await names('PASSIVES/resistors/')).toEqual(['A', 'B', 'C'])
      expect(await names('passives/resistors/thin film')).toEqual(['C'])
      expect(await names('Passives')).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'])
      expect(await names('Passive')).toEqual([])
      expect((await s.components.listIds(q({ category: 'Passives/Resistors', limit: '1' }))).total).toBe(3)
    })

    it('reads stock totals and images of a page of parts', async () => {
      const made = await library()
      const s = storage()
      const photo = await s.attachments.create({ componentId: made[0]!.id, name: 'r1.png', kind: 'image', contentType: 'image/png', size: null, sha256: null, url: 'https://example.com/r1.png' })
      await s.attachments.create({ componentId: made[0]!.id, name: 'r1b.png', kind: 'image', contentType: 'image/png', size: null, sha256: null, url: 'https://example.com/r1b.png' })
      await s.attachments.create({ componentId: made[1]!.id, name: 'ds.pdf', kind: 'datasheet', contentType: 'application/pdf', size: null, sha256: null, url: 'https://example.com/ds.pdf' })
      const stored = await s.attachments.create({ componentId: made[2]!.id, name: 'r3.jpg', kind: 'image', contentType: 'image/jpeg', size: 3, sha256: 'a'.repeat(64), url: null })
      const extras = await s.components.extras([made[0]!.id, made[1]!.id, made[2]!.id, 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ'])
      expect(extras).toEqual({
        [made[0]!.id]: { stock: 12, image: { attachmentId: photo.id, url: 'https://example.com/r1.png' } },
        [made[1]!.id]: { stock: 0, image: null },
        [made[2]!.id]: { stock: 100, image: { attachmentId: stored.id, url: `/api/attachments/${stored.id}/content` } },
      })
    })
  })
}
