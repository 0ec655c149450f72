import { describe, expect, it } from 'vitest'
import { copyLibrary } from '../src/storage/copy'
import { createSqliteStorage } from '../src/storage/sqlite'

describe('copyLibrary', () => {
  it('copies a tree whose parents come after their children in id order, one row per chunk', async () => {
    const source = await createSqliteStorage()
    const target = await createSqliteStorage()
    try {
      const a = await source.locations.create({ name: 'Drawer A' })
      const b = await source.locations.create({ name: 'Shelf B' })
      const c = await source.locations.create({ name: 'Cabinet C' })
      // A and B move under C, made after them: their parent comes later in the copy's order.
      await source.locations.update(a.id, { parentId: c.id })
      await source.locations.update(b.id, { parentId: a.id })
      await copyLibrary(source, target, { chunk: 1 })
      const parents = async (s: typeof source) => Object.fromEntries((await Promise.all([a, b, c].map((l) => s.locations.get(l.id)))).map((l) => [l.name, l.parentId]))
      expect(await parents(target)).toEqual(await parents(source))
      expect(await parents(target)).toEqual({ 'Drawer A': c.id, 'Shelf B': a.id, 'Cabinet C': null })
    } finally {
      await target.close()
      await source.close()
    }
  })
})
