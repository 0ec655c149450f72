import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'
import { MISSING_COMPONENT } from './_fixtures'

/** Symbols and footprints: the same contract, run once for each. */
export function libraryItemStoreSuite(storage: () => Storage): void {
  describe('library item store', () => {
    for (const kind of ['symbols', 'footprints'] as const) {
      const extension = kind === 'symbols' ? '.kicad_sym' : '.kicad_mod'
      const missingItem = kind === 'symbols' ? 'sym_01JD7W3T9X4QF5B8S2M6K0N1PZ' : 'fp_01JD7W3T9X4QF5B8S2M6K0N1PZ'

      describe(kind, () => {
        it('creates an item at version 1 and reads it back', async () => {
          const item = await storage()[kind].create({ name: 'R_0603', library: 'Device', description: 'Resistor' })
          expect(item).toMatchObject({ name: 'R_0603', library: 'Device', description: 'Resistor', fileName: null, fileSize: null, version: 1 })
          expect(item.id).toMatch(kind === 'symbols' ? /^sym_/ : /^fp_/)
          expect(await storage()[kind].get(item.id)).toEqual(item)
        })

        it('names a file after the item when none is given, and sizes it in UTF-8 bytes', async () => {
          // 'Ω' is two bytes in UTF-8: the size is bytes, not characters.
          const item = await storage()[kind].create({ name: 'R_0603', content: '(Ω)' })
          expect(item).toMatchObject({ fileName: `R_0603${extension}`, fileSize: 4 })
          expect(await storage()[kind].getFile(item.id)).toEqual({ fileName: `R_0603${extension}`, content: '(Ω)' })
        })

        it('keeps a given file name', async () => {
          const item = await storage()[kind].create({ name: 'R', fileName: 'custom.txt', content: 'x' })
          expect((await storage()[kind].getFile(item.id)).fileName).toBe('custom.txt')
        })

        it('answers NOT_FOUND for the file of an item without content, and for an unknown item', async () => {
          const bare = await storage()[kind].create({ name: 'X' })
          await expect(storage()[kind].getFile(bare.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
          await expect(storage()[kind].get(missingItem)).rejects.toMatchObject({ code: 'NOT_FOUND' })
          await expect(storage()[kind].getFile(missingItem)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        })

        it('never includes the file content in records or lists', async () => {
          const item = await storage()[kind].create({ name: 'R', content: 'SECRET-BODY' })
          const page = await storage()[kind].list({ limit: 10 })
          expect(JSON.stringify([item, page.items, await storage()[kind].get(item.id)])).not.toContain('SECRET-BODY')
          expect(page.items[0]).not.toHaveProperty('content')
        })

        it('filters by a case-insensitive substring of name or library, and by exact library', async () => {
          const s = storage()
          await s[kind].create({ name: 'R_0603', library: 'Device' })
          await s[kind].create({ name: 'C_0402', library: 'Device' })
          await s[kind].create({ name: 'LM358', library: 'Amplifier_Operational' })
          await s[kind].create({ name: '100%_fill', library: null })
          const byName = await s[kind].list({ limit: 10, q: 'r_06' })
          expect(byName.items.map((i) => i.name)).toEqual(['R_0603'])
          const byLibrary = await s[kind].list({ limit: 10, q: 'DEVICE' })
          expect([byLibrary.items.map((i) => i.name), byLibrary.total]).toEqual([['C_0402', 'R_0603'], 2])
          expect((await s[kind].list({ limit: 10, library: 'Device' })).total).toBe(2)
          expect((await s[kind].list({ limit: 10, library: 'device' })).total).toBe(0)
          expect((await s[kind].list({ limit: 10, q: '%' })).items.map((i) => i.name)).toEqual(['100%_fill'])
        })

        it('pages by name regardless of case, ties by id, every item once and the total unchanged', async () => {
          const s = storage()
          const created = []
          for (const name of ['b', 'A', 'c', 'a', 'B']) created.push(await s[kind].create({ name }))
          const seen: string[] = []
          let cursor: string | undefined
          do {
            const page = await s[kind].list({ limit: 2, cursor })
            expect(page.total).toBe(5)
            seen.push(...page.items.map((i) => i.id))
            cursor = page.nextCursor ?? undefined
          } while (cursor)
          // Same name but for case: the older id (created first) comes first.
          const [b, A, c, a, B] = created.map((i) => i.id)
          expect(seen).toEqual([A, a, b, B, c])
        })

        it('rejects a cursor it did not issue with VALIDATION_FAILED', async () => {
          await expect(storage()[kind].list({ limit: 2, cursor: 'nope' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
        })

        it('updates fields with a version bump, and keeps the version for a patch that changes nothing', async () => {
          const item = await storage()[kind].create({ name: 'R', library: 'Device' })
          const updated = await storage()[kind].update(item.id, { library: null, description: 'Resistor' })
          expect(updated).toMatchObject({ name: 'R', library: null, description: 'Resistor', version: 2 })
          expect((await storage()[kind].update(item.id, { name: 'R', library: null })).version).toBe(2)
        })

        it('replaces and clears the file content through update', async () => {
          const item = await storage()[kind].create({ name: 'R' })
          const withFile = await storage()[kind].update(item.id, { content: 'abc' })
          expect(withFile).toMatchObject({ fileName: `R${extension}`, fileSize: 3 })
          expect((await storage()[kind].getFile(item.id)).content).toBe('abc')
          expect(await storage()[kind].update(item.id, { content: null })).toMatchObject({ fileSize: null })
          await expect(storage()[kind].getFile(item.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        })

        it('rejects a stale ifVersion with PRECONDITION_FAILED and changes nothing', async () => {
          const item = await storage()[kind].create({ name: 'R' })
          await storage()[kind].update(item.id, { name: 'R2' })
          await expect(storage()[kind].update(item.id, { name: 'R3' }, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
          await expect(storage()[kind].delete(item.id, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
          expect(await storage()[kind].get(item.id)).toMatchObject({ name: 'R2', version: 2 })
          expect((await storage()[kind].update(item.id, { name: 'R3' }, { ifVersion: 2 })).version).toBe(3)
        })

        it('answers NOT_FOUND when updating or deleting an unknown item', async () => {
          await expect(storage()[kind].update(missingItem, { name: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
          await expect(storage()[kind].delete(missingItem)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        })

        it('a rename shows in live linked components with a version bump and a history entry', async () => {
          const s = storage()
          const item = await s[kind].create({ name: 'old' })
          const live = await s.components.create({ name: 'A', [kind]: [item.id] })
          const gone = await s.components.create({ name: 'B', [kind]: [item.id] })
          const deleted = await s.components.delete(gone.id)
          await s[kind].update(item.id, { name: 'new' })
          expect(await s.components.get(live.id)).toMatchObject({ [kind]: [{ id: item.id, name: 'new' }], version: live.version + 1 })
          expect((await s.components.history(live.id, { limit: 1 })).items[0]).toMatchObject({ op: 'update', changes: [kind] })
          expect((await s.components.get(gone.id, { includeDeleted: true })).version).toBe(deleted.version)
        })

        it('a change other than the name leaves linked components alone', async () => {
          const s = storage()
          const item = await s[kind].create({ name: 'R' })
          const c = await s.components.create({ name: 'A', [kind]: [item.id] })
          await s[kind].update(item.id, { description: 'now described', content: 'x' })
          expect((await s.components.get(c.id)).version).toBe(c.version)
        })

        it('deletes an unlinked item', async () => {
          const item = await storage()[kind].create({ name: 'R' })
          await storage()[kind].delete(item.id)
          await expect(storage()[kind].get(item.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
          expect((await storage()[kind].list({ limit: 10 })).total).toBe(0)
        })

        it('rejects deleting a linked item with CONFLICT, also when only a deleted component links it', async () => {
          const s = storage()
          const item = await s[kind].create({ name: 'R' })
          const c = await s.components.create({ name: 'A', [kind]: [item.id] })
          await expect(s[kind].delete(item.id)).rejects.toMatchObject({ code: 'CONFLICT' })
          await s.components.delete(c.id)
          await expect(s[kind].delete(item.id)).rejects.toMatchObject({ code: 'CONFLICT' })
          expect((await s[kind].get(item.id)).version).toBe(1)
          expect((await s.components.restore(c.id))[kind]).toEqual([{ id: item.id, name: 'R' }])
        })

        it('deletes a linked item when forced: the links go and live components are touched', async () => {
          const s = storage()
          const item = await s[kind].create({ name: 'R' })
          const other = await s[kind].create({ name: 'S' })
          const c = await s.components.create({ name: 'A', [kind]: [item.id, other.id] })
          await s[kind].delete(item.id, { force: true })
          expect(await s.components.get(c.id)).toMatchObject({ [kind]: [{ id: other.id, name: 'S' }], version: c.version + 1 })
          await expect(s[kind].get(item.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        })

        it('lists the live components linking an item, by id, with a cursor', async () => {
          const s = storage()
          const item = await s[kind].create({ name: 'R' })
          const ids: string[] = []
          for (const name of ['C', 'A', 'B']) ids.push((await s.components.create({ name, [kind]: [item.id] })).id)
          await s.components.create({ name: 'unlinked' })
          await s.components.delete(ids[2]!)
          const first = await s[kind].components(item.id, { limit: 1 })
          expect([first.items.map((c) => c.id), first.total]).toEqual([[ids[0]], 2])
          const second = await s[kind].components(item.id, { limit: 1, cursor: first.nextCursor! })
          expect([second.items.map((c) => c.id), second.nextCursor]).toEqual([[ids[1]], null])
          expect(second.items[0]![kind]).toEqual([{ id: item.id, name: 'R' }])
          await expect(s[kind].components(missingItem, { limit: 1 })).rejects.toMatchObject({ code: 'NOT_FOUND' })
        })

        it('links at the end of the list with one version bump, and a repeated link changes nothing', async () => {
          const s = storage()
          const first = await s[kind].create({ name: 'Z first' })
          const second = await s[kind].create({ name: 'A second' })
          const c = await s.components.create({ name: 'A', [kind]: [first.id] })
          const linked = await s[kind].link(c.id, second.id)
          expect(linked).toMatchObject({ version: c.version + 1, [kind]: [{ id: first.id, name: 'Z first' }, { id: second.id, name: 'A second' }] })
          expect((await s.components.history(c.id, { limit: 1 })).items[0]).toMatchObject({ changes: [kind] })
          expect(await s[kind].link(c.id, second.id)).toEqual(linked)
          expect((await s.components.history(c.id, { limit: 10 })).total).toBe(2)
        })

        it('answers NOT_FOUND when linking to an unknown or deleted component or an unknown item', async () => {
          const s = storage()
          const item = await s[kind].create({ name: 'R' })
          const c = await s.components.create({ name: 'A' })
          await expect(s[kind].link(MISSING_COMPONENT, item.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
          await expect(s[kind].link(c.id, missingItem)).rejects.toMatchObject({ code: 'NOT_FOUND' })
          await s.components.delete(c.id)
          await expect(s[kind].link(c.id, item.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
          expect((await s[kind].components(item.id, { limit: 10 })).total).toBe(0)
        })

        it('unlinks one item, keeping the order of the rest, and answers NOT_FOUND when not linked', async () => {
          const s = storage()
          const [a, b, c] = [await s[kind].create({ name: 'a' }), await s[kind].create({ name: 'b' }), await s[kind].create({ name: 'c' })]
          const component = await s.components.create({ name: 'X', [kind]: [c.id, a.id, b.id] })
          const after = await s[kind].unlink(component.id, a.id)
          expect(after).toMatchObject({ version: component.version + 1, [kind]: [{ id: c.id, name: 'c' }, { id: b.id, name: 'b' }] })
          await expect(s[kind].unlink(component.id, a.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
          await expect(s[kind].unlink(MISSING_COMPONENT, b.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
          expect((await s.components.get(component.id)).version).toBe(after.version)
        })

        it('creates with a file, serves the file, and never lists its content', async () => {
          const item = await storage()[kind].create({ name: 'R_0603', library: 'Device', content: '(kicad)' })
          expect(item).toMatchObject({ name: 'R_0603', library: 'Device', fileSize: 7 })
          expect(item.fileName).toMatch(kind === 'symbols' ? /\.kicad_sym$/ : /\.kicad_mod$/)
          expect(await storage()[kind].getFile(item.id)).toEqual({ fileName: item.fileName, content: '(kicad)' })
          expect(JSON.stringify((await storage()[kind].list({ limit: 10 })).items)).not.toContain('(kicad)')
          const bare = await storage()[kind].create({ name: 'X' })
          await expect(storage()[kind].getFile(bare.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        })

        it('links idempotently, unlinks, and refuses to unlink what is not linked', async () => {
          const s = storage()
          const item = await s[kind].create({ name: 'S' })
          const c = await s.components.create({ name: 'A' })
          const linked = await s[kind].link(c.id, item.id)
          expect(linked[kind]).toEqual([{ id: item.id, name: 'S' }])
          expect((await s[kind].link(c.id, item.id)).version).toBe(linked.version)
          expect((await s[kind].components(item.id, { limit: 10 })).items.map((x) => x.id)).toEqual([c.id])
          expect((await s[kind].unlink(c.id, item.id))[kind]).toEqual([])
          await expect(s[kind].unlink(c.id, item.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        })

        it('refuses to delete a linked item unless forced', async () => {
          const s = storage()
          const item = await s[kind].create({ name: 'S' })
          const c = await s.components.create({ name: 'A', [kind]: [item.id] })
          await expect(s[kind].delete(item.id)).rejects.toMatchObject({ code: 'CONFLICT' })
          await s[kind].delete(item.id, { force: true })
          expect((await s.components.get(c.id))[kind]).toEqual([])
        })

        it('renaming shows in linked components with a version bump', async () => {
          const s = storage()
          const item = await s[kind].create({ name: 'old' })
          const c = await s.components.create({ name: 'A', [kind]: [item.id] })
          await s[kind].update(item.id, { name: 'new' })
          expect(await s.components.get(c.id)).toMatchObject({ [kind]: [{ id: item.id, name: 'new' }], version: 2 })
        })
      })
    }
  })
}
