import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** The rows of import sessions: one record per row, with their outcomes, kept apart per import. */
export function importRowStoreSuite(storage: () => Storage): void {
  describe('import row store', () => {
    it('appends rows and reads them back in row order, a page after a row number', async () => {
      const s = storage()
      const session = await s.imports.create({ kind: 'components', status: 'pending', data: {} })
      const rows = Array.from({ length: 250 }, (_, i) => ({ rowNo: i + 2, cells: { name: `Part ${i}`, tags: ['a', 'b'] } }))
      await s.importRows.append(session.id, rows.slice(0, 120))
      await s.importRows.append(session.id, rows.slice(120))
      expect(await s.importRows.count(session.id)).toBe(250)
      const first = await s.importRows.read(session.id, { after: 0, limit: 100 })
      expect(first.map((r) => r.rowNo)).toEqual(rows.slice(0, 100).map((r) => r.rowNo))
      expect({ ...first[0]!.cells }).toEqual({ name: 'Part 0', tags: ['a', 'b'] })
      const last = await s.importRows.read(session.id, { after: 201, limit: 100 })
      expect(last.map((r) => r.rowNo)).toEqual(Array.from({ length: 50 }, (_, i) => i + 202))
    })

    it('reads a column named __proto__ as a cell, never as a prototype', async () => {
      const s = storage()
      const session = await s.imports.create({ kind: 'components', status: 'pending', data: {} })
      await s.importRows.append(session.id, [{ rowNo: 2, cells: JSON.parse('{"__proto__":"x","name":"A"}') as Record<string, unknown> }])
      const [row] = await s.importRows.read(session.id, { after: 0, limit: 10 })
      expect(Object.hasOwn(row!.cells, '__proto__')).toBe(true)
      expect(Object.getPrototypeOf(row!.cells)).toBe(null)
    })

    it('refuses a row number the import has, changing nothing', async () => {
      const s = storage()
      const session = await s.imports.create({ kind: 'components', status: 'pending', data: {} })
      await s.importRows.append(session.id, [{ rowNo: 2, cells: { name: 'A' } }])
      await expect(s.importRows.append(session.id, [{ rowNo: 3, cells: { name: 'B' } }, { rowNo: 2, cells: { name: 'C' } }])).rejects.toMatchObject({ code: 'CONFLICT' })
      expect((await s.importRows.read(session.id, { after: 0, limit: 10 })).map((r) => r.cells.name)).toEqual(['A'])
    })

    it('keeps outcomes per row, lists them by kind with the total, and replaces them', async () => {
      const s = storage()
      const session = await s.imports.create({ kind: 'components', status: 'pending', data: {} })
      await s.importRows.append(session.id, Array.from({ length: 10 }, (_, i) => ({ rowNo: i + 2, cells: { name: `P${i}` } })))
      expect(await s.importRows.listOutcomes(session.id, { after: 0, limit: 100 })).toEqual({ items: [], total: 0 })
      await s.importRows.setOutcomes(session.id, Array.from({ length: 10 }, (_, i) => ({ rowNo: i + 2, kind: i % 3 === 0 ? 'invalid' : 'create', outcome: { row: i + 2 } })))
      const invalid = await s.importRows.listOutcomes(session.id, { after: 0, limit: 2, kind: 'invalid' })
      expect(invalid).toEqual({ total: 4, items: [{ rowNo: 2, kind: 'invalid', outcome: { row: 2 } }, { rowNo: 5, kind: 'invalid', outcome: { row: 5 } }] })
      expect((await s.importRows.listOutcomes(session.id, { after: 5, limit: 10, kind: 'invalid' })).items.map((o) => o.rowNo)).toEqual([8, 11])
      await s.importRows.setOutcomes(session.id, [{ rowNo: 2, kind: 'create', outcome: { row: 2, again: true } }])
      const all = await s.importRows.listOutcomes(session.id, { after: 0, limit: 1 })
      expect(all).toEqual({ total: 10, items: [{ rowNo: 2, kind: 'create', outcome: { row: 2, again: true } }] })
    })

    it('keeps the rows of two imports apart, and deletes one import’s rows only', async () => {
      const s = storage()
      const a = await s.imports.create({ kind: 'components', status: 'pending', data: {} })
      const b = await s.imports.create({ kind: 'components', status: 'pending', data: {} })
      await s.importRows.append(a.id, [{ rowNo: 2, cells: { name: 'A' } }])
      await s.importRows.append(b.id, [{ rowNo: 2, cells: { name: 'B' } }, { rowNo: 3, cells: { name: 'C' } }])
      await s.importRows.deleteAll(a.id)
      expect(await s.importRows.count(a.id)).toBe(0)
      expect((await s.importRows.read(b.id, { after: 0, limit: 10 })).map((r) => r.cells.name)).toEqual(['B', 'C'])
    })

    it('finds the import sessions in given statuses, oldest first, and no jobs', async () => {
      const s = storage()
      const planning = await s.imports.create({ kind: 'components', status: 'planning', data: {} })
      await s.imports.create({ kind: 'components', status: 'pending', data: {} })
      const committing = await s.imports.create({ kind: 'components', status: 'committing', data: {} })
      await s.jobs.create({ kind: 'bulk-patch', status: 'committing', data: {} })
      expect(await s.importRows.sessionsIn(['planning', 'committing'])).toEqual([planning.id, committing.id])
      expect(await s.importRows.sessionsIn([])).toEqual([])
    })

    it('a transaction that fails leaves no rows behind', async () => {
      const s = storage()
      const session = await s.imports.create({ kind: 'components', status: 'pending', data: {} })
      await expect(
        s.transaction(async (tx) => {
          await tx.importRows.append(session.id, [{ rowNo: 2, cells: { name: 'A' } }])
          throw new Error('stop')
        }),
      ).rejects.toThrow('stop')
      expect(await s.importRows.count(session.id)).toBe(0)
    })
  })
}
