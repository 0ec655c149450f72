import { describe, expect, it } from 'vitest'
import { withChange, type ChangeContext } from '../../change-context'
import type { ComponentListQuery } from '../../schemas/component'
import type { Storage } from '../../storage/types'
import { MISSING_COMPONENT } from './_fixtures'

/** UTF-8 bytes as text. */
const text = (json: Uint8Array) => new TextDecoder().decode(json)
const q = (over: Partial<ComponentListQuery> = {}): ComponentListQuery => ({ limit: 100, sort: 'id', includeDeleted: false, ...over })
const ada: ChangeContext = { actor: { kind: 'user', id: 'usr_01JD7W3T9X4QF5B8S2M6K0N1PZ', name: 'ada' }, channel: 'web', requestId: 'req-1', comment: 'datasheet rev C' }

/** Components: create, read, list, change, lifecycle, history and change feed. */
export function componentStoreSuite(storage: () => Storage): void {
  describe('component store', () => {
    it('creates with defaults, a generated ipn and its children', async () => {
      const c = await storage().components.create({
        name: 'R 10k',
        tags: ['passive', 'smd', 'Passive'],
        parameters: [{ type: 'Resistance', value: '10k', unit: 'Ω' }, { type: 'Package', value: '0603' }],
        mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' }],
      })
      expect(c).toMatchObject({ ipn: 'CMP-00001', status: 'active', description: null, version: 1, deletedAt: null, tags: ['passive', 'smd'] })
      expect(c.parameters).toEqual([{ type: 'Resistance', value: '10k', unit: 'Ω' }, { type: 'Package', value: '0603' }])
      expect(c.mpns).toEqual([{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' }])
      expect(await storage().components.get(c.id)).toEqual(c)
    })

    it('rejects a duplicate ipn among live components, case-insensitively, with CONFLICT', async () => {
      await storage().components.create({ name: 'A', ipn: 'RES-1' })
      await expect(storage().components.create({ name: 'B', ipn: 'res-1' })).rejects.toMatchObject({ code: 'CONFLICT' })
      expect((await storage().components.list(q())).total).toBe(1)
    })

    it('frees the ipn of a deleted component, and refuses to restore it once taken', async () => {
      const a = await storage().components.create({ name: 'A', ipn: 'X-1' })
      await storage().components.delete(a.id)
      const b = await storage().components.create({ name: 'B', ipn: 'X-1' })
      await expect(storage().components.restore(a.id)).rejects.toMatchObject({ code: 'CONFLICT' })
      expect((await storage().components.get(a.id, { includeDeleted: true })).deletedAt).not.toBeNull()
      expect((await storage().components.getByIpn('x-1')).id).toBe(b.id)
    })

    it('pages 250 components by 100 with a cursor: 3 pages, none twice, total 250', async () => {
      await storage().transaction(async (tx) => {
        for (let i = 0; i < 250; i++) await tx.components.create({ name: `part ${String(i).padStart(3, '0')}`, ipn: `P-${i}` })
      })
      const seen: string[] = []
      let cursor: string | undefined
      let pages = 0
      do {
        const page = await storage().components.list(q({ limit: 100, cursor }))
        expect(page.total).toBe(250)
        seen.push(...page.items.map((c) => c.id))
        cursor = page.nextCursor ?? undefined
        pages++
      } while (cursor)
      expect(pages).toBe(3)
      expect(new Set(seen).size).toBe(250)
    })

    it('sorts by name both ways, stable across pages', async () => {
      for (const name of ['b', 'C', 'a', 'B']) await storage().components.create({ name })
      const asc = await storage().components.list(q({ sort: 'name', limit: 2 }))
      const rest = await storage().components.list(q({ sort: 'name', limit: 2, cursor: asc.nextCursor! }))
      expect([...asc.items, ...rest.items].map((c) => c.name.toLowerCase())).toEqual(['a', 'b', 'b', 'c'])
      const desc = await storage().components.list(q({ sort: '-name' }))
      expect(desc.items.map((c) => c.name.toLowerCase())).toEqual(['c', 'b', 'b', 'a'])
    })

    it('filters by text, status, tag, category and manufacturer', async () => {
      const s = storage()
      const r = await s.components.create({ name: 'Resistor 10k', tags: ['passive'], category: 'Resistors', mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' }] })
      const c = await s.components.create({ name: 'Capacitor 100n', status: 'draft', category: 'Capacitors', mpns: [{ manufacturer: 'Murata', partNumber: 'GRM188R71H104KA93D' }] })
      const ids = async (over: Partial<ComponentListQuery>) => (await s.components.list(q(over))).items.map((x) => x.id)
      expect(await ids({ q: 'resis' })).toEqual([r.id])
      expect(await ids({ q: 'GRM188' })).toEqual([c.id])
      expect(await ids({ q: '"; DROP' })).toEqual([])
      expect(await ids({ status: ['draft'] })).toEqual([c.id])
      expect(await ids({ tag: 'PASSIVE' })).toEqual([r.id])
      expect(await ids({ category: 'capacitors' })).toEqual([c.id])
      expect(await ids({ manufacturer: 'yageo' })).toEqual([r.id])
    })

    it('lists ids only, with the same page as list', async () => {
      for (let i = 0; i < 5; i++) await storage().components.create({ name: `p${i}` })
      const full = await storage().components.list(q({ limit: 3 }))
      const ids = await storage().components.listIds(q({ limit: 3 }))
      expect(ids.items).toEqual(full.items.map((c) => c.id))
      expect(ids.nextCursor).toBe(full.nextCursor)
      expect(ids.total).toBe(5)
    })

    it('lists JSON texts with the same pages as list, in every sort and with filters', async () => {
      // Views with multi-byte characters (Ω, µ, an emoji): the embedded engine cuts a page's extra view off by its length in bytes.
      for (const name of ['b Ω', 'A µ', 'c 🔌', 'a', 'B']) await storage().components.create({ name, tags: name === name.toLowerCase() ? ['lower'] : [] })
      const gone = await storage().components.create({ name: 'Aa' })
      await storage().components.delete(gone.id)
      for (const sort of ['name', '-name', 'id', '-id', 'ipn', '-updatedAt'] as const) {
        for (const extra of [{}, { tag: 'lower' }, { includeDeleted: true }]) {
          let cursor: string | undefined
          do {
            const query = q({ limit: 2, sort, ...extra, ...(cursor ? { cursor } : {}) })
            // listIds and getManyJson are the independent route to the same page.
            const ids = await storage().components.listIds(query)
            const expected = await storage().components.getManyJson(ids.items, { includeDeleted: true })
            const json = await storage().components.listJson(query)
            const full = await storage().components.list(query)
            expect(new TextDecoder().decode(json.json)).toBe(`[${expected.join(',')}]`)
            expect(full.items.map((c) => JSON.stringify(c))).toEqual(expected)
            expect([json.total, json.nextCursor]).toEqual([ids.total, ids.nextCursor])
            cursor = ids.nextCursor ?? undefined
          } while (cursor)
        }
      }
      const byName = JSON.parse(new TextDecoder().decode((await storage().components.listJson(q({ limit: 10, sort: 'name' }))).json)) as Array<{ name: string }>
      expect(byName.map((c) => c.name[0]!.toLowerCase())).toEqual(['a', 'a', 'b', 'b', 'c'])
      const none = await storage().components.listJson(q({ q: 'nothing-matches-this' }))
      expect([new TextDecoder().decode(none.json), none.total, none.nextCursor]).toEqual(['[]', 0, null])
    })

    it('updates only what changed, bumping the version and recording history', async () => {
      const c = await storage().components.create({ name: 'A', description: 'x' })
      const same = await storage().components.update(c.id, { name: 'A', description: 'x' })
      expect(same.version).toBe(1)
      const changed = await storage().components.update(c.id, { description: null, tags: ['new'] })
      expect(changed).toMatchObject({ version: 2, description: null, tags: ['new'] })
      const history = await storage().components.history(c.id, { limit: 10 })
      expect(history.items.map((h) => [h.op, h.version])).toEqual([
        ['update', 2],
        ['create', 1],
      ])
      expect(history.items[0]!.changes.sort()).toEqual(['description', 'tags'])
    })

    it('refuses a stale ifVersion with PRECONDITION_FAILED and changes nothing', async () => {
      const c = await storage().components.create({ name: 'A' })
      await storage().components.update(c.id, { name: 'B' })
      await expect(storage().components.update(c.id, { name: 'C' }, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
      expect(await storage().components.get(c.id)).toMatchObject({ name: 'B', version: 2 })
    })

    it('follows the status lifecycle and refuses other moves with INVALID_TRANSITION', async () => {
      const c = await storage().components.create({ name: 'A', status: 'draft' })
      await expect(storage().components.update(c.id, { status: 'nrnd' })).rejects.toMatchObject({ code: 'INVALID_TRANSITION', status: 409 })
      for (const status of ['active', 'nrnd', 'obsolete', 'active'] as const) {
        expect((await storage().components.update(c.id, { status })).status).toBe(status)
      }
    })

    it('rejects a link to a symbol that does not exist, changing nothing', async () => {
      const c = await storage().components.create({ name: 'A' })
      await expect(storage().components.update(c.id, { name: 'B', symbols: ['sym_01JD7W3T9X4QF5B8S2M6K0N1PZ'] })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
      expect((await storage().components.get(c.id)).name).toBe('A')
    })

    it('soft-deletes, hides, and restores', async () => {
      const c = await storage().components.create({ name: 'A' })
      await storage().components.delete(c.id)
      // Not "does not exist": it says the component is deleted and how to bring it back.
      const deleted = { code: 'NOT_FOUND', detail: expect.stringMatching(new RegExp(`${c.id} was deleted at .*restore`)) }
      await expect(storage().components.get(c.id)).rejects.toMatchObject(deleted)
      await expect(storage().components.getJson(c.id)).rejects.toMatchObject(deleted)
      await expect(storage().components.delete(c.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect((await storage().components.list(q())).total).toBe(0)
      expect((await storage().components.list(q({ includeDeleted: true }))).total).toBe(1)
      expect(await storage().components.liveIds()).toEqual([])
      expect((await storage().components.restore(c.id)).deletedAt).toBeNull()
      expect(await storage().components.liveIds()).toEqual([c.id])
    })

    it('keeps the unfiltered total right through create, delete, restore, purge and a failed transaction', async () => {
      const s = storage()
      const total = async () => (await s.components.list({ limit: 1, sort: 'id', includeDeleted: false })).total
      const [a, b, c] = [await s.components.create({ name: 'A' }), await s.components.create({ name: 'B' }), await s.components.create({ name: 'C' })]
      expect(await total()).toBe(3)
      await s.components.delete(a.id)
      expect(await total()).toBe(2)
      await s.components.restore(a.id)
      expect(await total()).toBe(3)
      await s.components.delete(b.id)
      await s.components.purge(b.id)
      await s.components.purge(c.id)
      expect(await total()).toBe(1)
      await expect(
        s.transaction(async (tx) => {
          await tx.components.create({ name: 'D' })
          throw new Error('rolled back')
        }),
      ).rejects.toThrow('rolled back')
      expect(await total()).toBe(1)
      expect((await s.components.list({ limit: 10, sort: 'id', includeDeleted: true })).total).toBe(1)
    })

    it('purges for good and keeps the change feed in sequence', async () => {
      const c = await storage().components.create({ name: 'A' })
      await storage().components.purge(c.id)
      await expect(storage().components.get(c.id, { includeDeleted: true })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(storage().components.history(c.id, { limit: 5 })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      const feed = await storage().components.changes(0, 10)
      expect(feed.items.map((e) => e.op)).toEqual(['create', 'purge'])
      expect(feed.lastSeq).toBe(feed.items[1]!.seq)
      expect((await storage().components.changes(feed.lastSeq, 10)).items).toEqual([])
    })

    it('returns getMany in the order asked, skipping unknown and deleted ids', async () => {
      const a = await storage().components.create({ name: 'A' })
      const b = await storage().components.create({ name: 'B' })
      const d = await storage().components.create({ name: 'D' })
      await storage().components.delete(d.id)
      expect((await storage().components.getMany([b.id, 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ', a.id, d.id])).map((c) => c.name)).toEqual(['B', 'A'])
      expect((await storage().components.getMany([d.id], { includeDeleted: true })).map((c) => c.name)).toEqual(['D'])
      // The JSON texts are those records, exactly.
      const one = await storage().components.getJson(a.id)
      expect([text(one.json), one.version]).toEqual([JSON.stringify(await storage().components.get(a.id)), 1])
      await expect(storage().components.getJson(d.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(storage().components.getJson('cmp_unknown')).rejects.toMatchObject({ code: 'NOT_FOUND' })
      const wide = await storage().components.create({ name: 'Résistance 4,7 kΩ 🙂', description: 'ä\u0001"\\' })
      expect(text((await storage().components.getJson(wide.id)).json)).toBe(JSON.stringify(await storage().components.get(wide.id)))
      const wideList = await storage().components.listJson({ limit: 100, sort: 'name', includeDeleted: false })
      expect(JSON.parse(text(wideList.json))).toEqual(await storage().components.getMany([a.id, b.id, wide.id]))
      expect(text((await storage().components.getJson(d.id, { includeDeleted: true })).json)).toBe(JSON.stringify(await storage().components.get(d.id, { includeDeleted: true })))
      const asked = [b.id, 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ', a.id, d.id]
      expect(await storage().components.getManyJson(asked)).toEqual((await storage().components.getMany(asked)).map((c) => JSON.stringify(c)))
      expect(await storage().components.getManyJson(asked, { includeDeleted: true })).toEqual((await storage().components.getMany(asked, { includeDeleted: true })).map((c) => JSON.stringify(c)))
    })

    it('reads for a delivery with a mark, and rereads the same texts at that mark whatever changed since', async () => {
      const s = storage()
      const [a, b, c] = [await s.components.create({ name: 'A Ω 🔌', tags: ['x'] }), await s.components.create({ name: 'B' }), await s.components.create({ name: 'C' })]
      await s.components.delete(c.id)
      const first = await s.components.readForDelivery([b.id, c.id, a.id])
      const records = await s.components.getManyJson([b.id, a.id])
      // One JSON array of the stored texts, byte for byte (a multi-byte name included).
      expect(text(first.json)).toBe(`[${records.join(',')}]`)
      expect(first.count).toBe(2)
      await s.components.update(a.id, { description: 'changed', tags: ['y'] })
      await s.tags.update((await s.tags.list({ limit: 10 })).items.find((t) => t.name === 'y')!.id, { name: 'z' })
      await s.components.delete(b.id)
      await s.components.restore(c.id)
      await s.components.create({ name: 'D' })
      const again = await s.components.rereadForDelivery([b.id, c.id, a.id], first.mark)
      expect({ json: text(again.json), count: again.count }).toEqual({ json: text(first.json), count: 2 })
      // A purge erases the history a reread needs: the purged component is left out.
      await s.components.purge(b.id)
      const purged = await s.components.rereadForDelivery([b.id, c.id, a.id], first.mark)
      expect({ json: text(purged.json), count: purged.count }).toEqual({ json: `[${records[1]}]`, count: 1 })
      // Nothing asked, or nothing live: an empty array.
      const none = await s.components.readForDelivery([b.id, 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ'])
      expect({ json: text(none.json), count: none.count }).toEqual({ json: '[]', count: 0 })
      expect(text((await s.components.readForDelivery([])).json)).toBe('[]')
    })

    it('numbers ipns after the highest ever used, deleted ones included', async () => {
      const a = await storage().components.create({ name: 'A', ipn: 'RES-00041' })
      await storage().components.delete(a.id)
      expect(await storage().components.nextIpn('RES-')).toBe('RES-00042')
      await storage().components.create({ name: 'B', ipn: 'RES-1234567' })
      expect(await storage().components.nextIpn('RES-')).toBe('RES-1234568')
    })

    it('lists categories of live components with counts', async () => {
      await storage().components.create({ name: 'A', category: 'Resistors' })
      await storage().components.create({ name: 'B', category: 'resistors' })
      await storage().components.create({ name: 'C', category: 'Capacitors' })
      const gone = await storage().components.create({ name: 'D', category: 'ICs' })
      await storage().components.delete(gone.id)
      expect(await storage().components.categories()).toEqual([
        { name: 'Capacitors', count: 1 },
        { name: 'Resistors', count: 2 },
      ])
    })

    it('keeps the KiCad value and exclusion flags: defaults, create, a patch changes only what it names', async () => {
      const plain = await storage().components.create({ name: 'A' })
      expect(plain).toMatchObject({ kicadValue: null, excludeFromBom: false, excludeFromBoard: false, excludeFromSim: false })
      const c = await storage().components.create({ name: 'TP1', kicadValue: 'TestPoint', excludeFromBom: true, excludeFromSim: true })
      expect(c).toMatchObject({ kicadValue: 'TestPoint', excludeFromBom: true, excludeFromBoard: false, excludeFromSim: true })
      const patched = await storage().components.update(c.id, { excludeFromBoard: true, excludeFromSim: false })
      expect(patched).toMatchObject({ kicadValue: 'TestPoint', excludeFromBom: true, excludeFromBoard: true, excludeFromSim: false, version: 2 })
      const cleared = await storage().components.update(c.id, { kicadValue: null })
      expect(cleared).toMatchObject({ kicadValue: null, excludeFromBom: true, version: 3 })
      // The same values again are no change: no new version.
      expect((await storage().components.update(c.id, { excludeFromBom: true, kicadValue: null })).version).toBe(3)
      const history = await storage().components.history(c.id, { limit: 10 })
      expect(history.items.map((e) => e.changes)).toEqual([['kicadValue'], ['excludeFromBoard', 'excludeFromSim'], expect.any(Array)])
      expect(await storage().components.get(c.id)).toEqual(cleared)
      const copy = await storage().components.duplicate(c.id)
      expect(copy).toMatchObject({ kicadValue: null, excludeFromBom: true, excludeFromBoard: true, excludeFromSim: false })
    })

    it('records who made each change, how and why, in history; nulls for a change made without a change context', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A' })
      // A patch of the row's own columns, a patch of children, a delete and a restore: each path writes its event its own way.
      await withChange(ada, () => s.components.update(c.id, { name: 'B' }))
      await withChange({ ...ada, channel: 'kicad', comment: null, requestId: null }, () => s.components.update(c.id, { tags: ['t'] }))
      const bot: ChangeContext = { actor: { kind: 'token', id: 'tok_01JD7W3T9X4QF5B8S2M6K0N1PZ', name: 'ci' }, channel: 'api', requestId: 'req-2', comment: 'sweep' }
      await withChange(bot, () => s.transaction(async (tx) => await tx.components.delete(c.id)))
      await s.components.restore(c.id)
      const history = await s.components.history(c.id, { limit: 10 })
      expect(history.items.map((h) => [h.version, h.op, h.actor, h.channel, h.comment, h.revertedTo])).toEqual([
        [5, 'restore', null, null, null, null],
        [4, 'delete', bot.actor, 'api', 'sweep', null],
        [3, 'update', ada.actor, 'kicad', null, null],
        [2, 'update', ada.actor, 'web', 'datasheet rev C', null],
        [1, 'create', null, null, null, null],
      ])
    })

    it('reverts to an older version: its fields back, as a new version recording which one it restored', async () => {
      const s = storage()
      const sym = await s.symbols.create({ name: 'R', library: 'Device' })
      const c = await s.components.create({
        name: 'R 10k', ipn: 'RES-1', description: 'thick film', category: 'Passives/Resistors', tags: ['smd', 'e96'],
        parameters: [{ type: 'Resistance', value: '10k', unit: 'Ω' }, { type: 'Package', value: '0603' }], mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603' }],
        symbols: [sym.id], kicadValue: '10k', excludeFromBom: true,
      })
      await s.components.update(c.id, {
        name: 'R 22k', ipn: 'RES-2', description: null, status: 'nrnd', category: null, tags: ['tht'], parameters: [], mpns: [],
        symbols: [], kicadValue: null, excludeFromBom: false, excludeFromSim: true,
      })
      const back = await withChange(ada, () => s.components.revert(c.id, 1))
      const same = (x: typeof c) => ({ ...x, version: 0, updatedAt: '' })
      expect(same(back)).toEqual(same(c))
      expect(back.version).toBe(3)
      expect(await s.components.get(c.id)).toEqual(back)
      const [reverted] = (await s.components.history(c.id, { limit: 1 })).items
      expect(reverted).toMatchObject({ version: 3, op: 'update', actor: ada.actor, channel: 'web', comment: ada.comment, revertedTo: 1 })
      expect(reverted!.changes.sort()).toEqual(['category', 'description', 'excludeFromBom', 'excludeFromSim', 'ipn', 'kicadValue', 'mpns', 'name', 'parameters', 'status', 'symbols', 'tags'])
      // Without a change context the system is recorded; a version equal to the current fields is still a new version.
      await s.components.revert(c.id, 3)
      expect((await s.components.history(c.id, { limit: 1 })).items[0]).toMatchObject({
        version: 4, changes: [], actor: { kind: 'system', id: null, name: 'system' }, channel: 'system', comment: null, revertedTo: 3,
      })
      expect(same(await s.components.get(c.id))).toEqual(same(c))
    })

    it('refuses a revert the library can no longer take, naming the field, and changes nothing', async () => {
      const s = storage()
      const sym = await s.symbols.create({ name: 'R', library: 'Device' })
      const c = await s.components.create({ name: 'A', ipn: 'X-1', symbols: [sym.id] })
      await s.components.update(c.id, { name: 'B', ipn: 'X-2' })
      const taken = await s.components.create({ name: 'C', ipn: 'x-1' })
      await expect(s.components.revert(c.id, 1)).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.ipn' }] })
      await s.components.delete(taken.id)
      await s.components.update(c.id, { symbols: [] })
      await s.symbols.delete(sym.id)
      // A symbol deleted since is a conflict with the library now, not a missing record.
      await expect(s.components.revert(c.id, 1)).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.symbols[0]' }] })
      await expect(s.components.revert(c.id, 2, { ifVersion: 2 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
      await expect(s.components.revert(c.id, 9)).rejects.toMatchObject({ code: 'NOT_FOUND', detail: expect.stringContaining('version 9') })
      expect(await s.components.get(c.id)).toMatchObject({ name: 'B', ipn: 'X-2', symbols: [], version: 3 })
      expect((await s.components.history(c.id, { limit: 10 })).total).toBe(3)
      // The status lifecycle holds: nrnd cannot go back to draft.
      const d = await s.components.create({ name: 'D', status: 'draft' })
      await s.components.update(d.id, { status: 'active' })
      await s.components.update(d.id, { status: 'nrnd' })
      await expect(s.components.revert(d.id, 1)).rejects.toMatchObject({ code: 'INVALID_TRANSITION' })
      await expect(s.components.revert(MISSING_COMPONENT, 1)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await s.components.delete(d.id)
      await expect(s.components.revert(d.id, 2)).rejects.toMatchObject({ code: 'NOT_FOUND', detail: expect.stringContaining('was deleted') })
    })

    it('duplicates as a draft copy without MPNs', async () => {
      const c = await storage().components.create({ name: 'A', tags: ['t'], mpns: [{ manufacturer: 'M', partNumber: 'P1' }] })
      const copy = await storage().components.duplicate(c.id)
      expect(copy).toMatchObject({ name: 'A (copy)', status: 'draft', tags: ['t'], mpns: [] })
      expect(copy.ipn).not.toBe(c.ipn)
    })
  })
}
