import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** Tags: the vocabulary, its counts, renames, merges, and the tags of one component. */
export function tagStoreSuite(storage: () => Storage): void {
  describe('tag store', () => {
    it('lists tags by name regardless of case, with counts of live components only', async () => {
      const s = storage()
      await s.components.create({ name: 'A', tags: ['smd', 'Passive'] })
      const b = await s.components.create({ name: 'B', tags: ['smd', 'active'] })
      await s.components.create({ name: 'C', tags: ['smd'] })
      await s.components.delete(b.id)
      const page = await s.tags.list({ limit: 10 })
      expect(page.items.map((t) => [t.name, t.count])).toEqual([
        ['active', 0],
        ['Passive', 1],
        ['smd', 2],
      ])
      expect(page.total).toBe(3)
      expect(page.nextCursor).toBeNull()
    })

    it('filters by a case-insensitive substring and counts only the matches', async () => {
      const s = storage()
      for (const name of ['SMD', 'thd', 'smd-0603', '100%']) await s.tags.create({ name })
      const page = await s.tags.list({ limit: 10, q: 'md' })
      expect(page.items.map((t) => t.name)).toEqual(['SMD', 'smd-0603'])
      expect(page.total).toBe(2)
      // `%` is a literal character, not a wildcard.
      expect((await s.tags.list({ limit: 10, q: '%' })).items.map((t) => t.name)).toEqual(['100%'])
    })

    it('pages with a cursor: every tag once, in name order, total unchanged', async () => {
      const s = storage()
      for (const name of ['e', 'B', 'a', 'D', 'c']) await s.tags.create({ name })
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const page = await s.tags.list({ limit: 2, cursor })
        expect(page.total).toBe(5)
        seen.push(...page.items.map((t) => t.name))
        cursor = page.nextCursor ?? undefined
      } while (cursor)
      expect(seen).toEqual(['a', 'B', 'c', 'D', 'e'])
    })

    it('rejects a cursor it did not issue with VALIDATION_FAILED', async () => {
      await expect(storage().tags.list({ limit: 2, cursor: 'bogus' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
    })

    it('creates a tag with its color and description at version 1', async () => {
      const tag = await storage().tags.create({ name: 'power', color: '#ff0000', description: 'Power parts' })
      expect(tag).toMatchObject({ name: 'power', color: '#ff0000', description: 'Power parts', count: 0, version: 1 })
      expect(tag.id).toMatch(/^tag_/)
      expect(await storage().tags.get(tag.id)).toEqual(tag)
    })

    it('rejects a duplicate name with CONFLICT naming body.name, regardless of case', async () => {
      await storage().tags.create({ name: 'SMD' })
      await expect(storage().tags.create({ name: 'smd' })).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.name' }] })
      expect((await storage().tags.list({ limit: 10 })).total).toBe(1)
    })

    it('answers NOT_FOUND for an unknown tag', async () => {
      const id = 'tag_01JD7W3T9X4QF5B8S2M6K0N1PZ'
      await expect(storage().tags.get(id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(storage().tags.update(id, { name: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(storage().tags.delete(id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('renaming a tag bumps every live component that shows it, and only those', async () => {
      const s = storage()
      const a = await s.components.create({ name: 'A', tags: ['old', 'keep'] })
      const b = await s.components.create({ name: 'B', tags: ['keep'] })
      const old = await _tag(s, 'old')
      const renamed = await s.tags.update(old.id, { name: 'new' })
      expect(renamed).toMatchObject({ name: 'new', version: 2, count: 1 })
      expect(await s.components.get(a.id)).toMatchObject({ tags: ['new', 'keep'], version: 2 })
      expect((await s.components.get(b.id)).version).toBe(1)
      const history = await s.components.history(a.id, { limit: 1 })
      expect(history.items[0]).toMatchObject({ version: 2, changes: ['tags'] })
    })

    it('changing only color or description leaves components alone', async () => {
      const s = storage()
      const a = await s.components.create({ name: 'A', tags: ['x'] })
      const x = await _tag(s, 'x')
      expect(await s.tags.update(x.id, { color: '#00ff00', description: 'green' })).toMatchObject({ color: '#00ff00', description: 'green', version: 2 })
      expect((await s.components.get(a.id)).version).toBe(1)
    })

    it('refuses a rename onto another tag with CONFLICT and changes nothing', async () => {
      const s = storage()
      const a = await s.components.create({ name: 'A', tags: ['one', 'two'] })
      const one = await _tag(s, 'one')
      await expect(s.tags.update(one.id, { name: 'TWO' })).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.name' }] })
      expect(await s.tags.get(one.id)).toMatchObject({ name: 'one', version: 1 })
      expect(await s.components.get(a.id)).toMatchObject({ tags: ['one', 'two'], version: 1 })
    })

    it('allows a rename that only changes case', async () => {
      const s = storage()
      const a = await s.components.create({ name: 'A', tags: ['smd'] })
      await s.tags.update((await _tag(s, 'smd')).id, { name: 'SMD' })
      expect(await s.components.get(a.id)).toMatchObject({ tags: ['SMD'], version: 2 })
    })

    it('refuses a stale ifVersion with PRECONDITION_FAILED and changes nothing', async () => {
      const s = storage()
      const tag = await s.tags.create({ name: 'x' })
      await s.tags.update(tag.id, { color: '#000000' }, { ifVersion: 1 })
      await expect(s.tags.update(tag.id, { name: 'y' }, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
      expect(await s.tags.get(tag.id)).toMatchObject({ name: 'x', version: 2 })
    })

    it('deleting a tag removes it from its components and bumps them', async () => {
      const s = storage()
      const a = await s.components.create({ name: 'A', tags: ['gone', 'stays'] })
      const gone = await _tag(s, 'gone')
      await s.tags.delete(gone.id)
      await expect(s.tags.get(gone.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect(await s.components.get(a.id)).toMatchObject({ tags: ['stays'], version: 2 })
    })

    it('merges tags: carriers get the target once, sources go, affected components bump', async () => {
      const s = storage()
      const both = await s.components.create({ name: 'both', tags: ['SMT', 'x', 'smd'] })
      const source = await s.components.create({ name: 'source', tags: ['surface-mount'] })
      const other = await s.components.create({ name: 'other', tags: ['x'] })
      const smd = await _tag(s, 'smd')
      const smt = await _tag(s, 'SMT')
      const sm = await _tag(s, 'surface-mount')
      const merged = await s.tags.merge(smd.id, [smt.id, sm.id])
      expect(merged).toMatchObject({ name: 'smd', count: 2 })
      expect(await s.components.get(both.id)).toMatchObject({ tags: ['x', 'smd'], version: 2 })
      expect(await s.components.get(source.id)).toMatchObject({ tags: ['smd'], version: 2 })
      expect((await s.components.get(other.id)).version).toBe(1)
      await expect(s.tags.get(smt.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect((await s.tags.list({ limit: 10 })).items.map((t) => t.name)).toEqual(['smd', 'x'])
    })

    it('refuses a merge into itself or from an unknown tag with VALIDATION_FAILED naming the source, changing nothing', async () => {
      const s = storage()
      const a = await s.components.create({ name: 'A', tags: ['a', 'b'] })
      const ta = await _tag(s, 'a')
      const tb = await _tag(s, 'b')
      await expect(s.tags.merge(ta.id, [tb.id, ta.id])).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body.sourceIds[1]' }] })
      await expect(s.tags.merge(ta.id, [tb.id, 'tag_01JD7W3T9X4QF5B8S2M6K0N1PZ'])).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        errors: [{ path: 'body.sourceIds[1]' }],
      })
      expect(await s.tags.get(tb.id)).toMatchObject({ count: 1 })
      expect(await s.components.get(a.id)).toMatchObject({ tags: ['a', 'b'], version: 1 })
    })

    it('refuses a merge into an unknown tag with NOT_FOUND', async () => {
      const b = await storage().tags.create({ name: 'b' })
      await expect(storage().tags.merge('tag_01JD7W3T9X4QF5B8S2M6K0N1PZ', [b.id])).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect(await storage().tags.get(b.id)).toMatchObject({ name: 'b' })
    })

    it('sets the tags of a component by names: new names become tags, repeats collapse, known tags keep their spelling', async () => {
      const s = storage()
      await s.tags.create({ name: 'SMD' })
      const c = await s.components.create({ name: 'A', tags: ['old'] })
      const after = await s.tags.setForComponent(c.id, ['smd', 'new', 'NEW'])
      expect(after).toMatchObject({ tags: ['SMD', 'new'], version: 2 })
      expect((await s.tags.list({ limit: 10 })).items.map((t) => [t.name, t.count])).toEqual([
        ['new', 1],
        ['old', 0],
        ['SMD', 1],
      ])
    })

    it('setting the same tags again does not bump the component', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A', tags: ['a', 'b'] })
      expect(await s.tags.setForComponent(c.id, ['A', 'b'])).toMatchObject({ tags: ['a', 'b'], version: 1 })
      expect((await s.tags.setForComponent(c.id, ['b', 'a'])).version).toBe(2)
    })

    it('setting tags of a deleted or unknown component is NOT_FOUND and creates no tag', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A' })
      await s.components.delete(c.id)
      await expect(s.tags.setForComponent(c.id, ['x'])).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.tags.setForComponent('cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ', ['x'])).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect((await s.tags.list({ limit: 10 })).total).toBe(0)
    })

    it('removes one tag from a component, and answers NOT_FOUND when it does not carry it', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A', tags: ['x', 'y'] })
      const x = await _tag(s, 'x')
      expect(await s.tags.removeFromComponent(c.id, x.id)).toMatchObject({ tags: ['y'], version: 2 })
      await expect(s.tags.removeFromComponent(c.id, x.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect((await s.components.get(c.id)).version).toBe(2)
      expect(await s.tags.get(x.id)).toMatchObject({ count: 0 })
    })

    it('lists tags by name with counts of live components', async () => {
      const s = storage()
      await s.components.create({ name: 'A', tags: ['smd', 'passive'] })
      const b = await s.components.create({ name: 'B', tags: ['smd'] })
      await s.components.delete(b.id)
      const page = await s.tags.list({ limit: 10 })
      expect(page.items.map((t) => [t.name, t.count])).toEqual([
        ['passive', 1],
        ['smd', 1],
      ])
    })

    it('rejects a duplicate name with CONFLICT', async () => {
      await storage().tags.create({ name: 'SMD' })
      await expect(storage().tags.create({ name: 'smd' })).rejects.toMatchObject({ code: 'CONFLICT' })
    })

    it('renaming a tag bumps the components that show it', async () => {
      const c = await storage().components.create({ name: 'A', tags: ['old'] })
      const tag = (await storage().tags.list({ limit: 1 })).items[0]!
      await storage().tags.update(tag.id, { name: 'new' })
      expect(await storage().components.get(c.id)).toMatchObject({ tags: ['new'], version: 2 })
    })

    it('merges tags: carriers get the target once, sources go', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A', tags: ['smd', 'SMT'] })
      const tags = (await s.tags.list({ limit: 10 })).items
      const smd = tags.find((t) => t.name === 'smd')!
      const smt = tags.find((t) => t.name === 'SMT')!
      const merged = await s.tags.merge(smd.id, [smt.id])
      expect(merged.count).toBe(1)
      expect((await s.components.get(c.id)).tags).toEqual(['smd'])
      await expect(s.tags.get(smt.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.tags.merge(smd.id, [smd.id])).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
    })

    it('sets and removes tags of a component', async () => {
      const c = await storage().components.create({ name: 'A' })
      const after = await storage().tags.setForComponent(c.id, ['x', 'y'])
      expect(after.tags).toEqual(['x', 'y'])
      const x = (await storage().tags.list({ limit: 10, q: 'x' })).items[0]!
      expect((await storage().tags.removeFromComponent(c.id, x.id)).tags).toEqual(['y'])
      await expect(storage().tags.removeFromComponent(c.id, x.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })
  })
}

async function _tag(s: Storage, name: string) {
  const found = (await s.tags.list({ limit: 100, q: name })).items.find((t) => t.name === name)
  if (!found) throw new Error(`no tag named ${name}`)
  return found
}
