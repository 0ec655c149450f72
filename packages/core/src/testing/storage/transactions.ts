import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** Transactions: all or nothing, isolation from other callers, failed calls undo only themselves. */
export function transactionsSuite(storage: () => Storage): void {
  describe('transactions', () => {
    it('commits every write of a transaction together', async () => {
      const s = storage()
      const ids = await s.transaction(async (tx) => {
        const a = await tx.components.create({ name: 'A', ipn: 'T-1' })
        const b = await tx.components.create({ name: 'B', ipn: 'T-2' })
        return [a.id, b.id]
      })
      expect((await s.components.getMany(ids)).map((c) => c.name)).toEqual(['A', 'B'])
    })

    it('rolls back every write when the callback throws', async () => {
      const s = storage()
      await expect(
        s.transaction(async (tx) => {
          await tx.components.create({ name: 'A', ipn: 'T-1' })
          throw new Error('changed my mind')
        }),
      ).rejects.toThrow('changed my mind')
      expect((await s.components.list({ limit: 10, sort: 'id', includeDeleted: true })).total).toBe(0)
    })

    it('undoes only the failed call when the callback catches its error', async () => {
      const s = storage()
      const a = await s.components.create({ name: 'A', ipn: 'T-1' })
      await s.transaction(async (tx) => {
        await tx.components.create({ name: 'B', ipn: 'T-2' })
        // fails halfway: the ipn conflict is found after the name was written, or before; either way nothing of it stays
        await expect(tx.components.update(a.id, { name: 'A2', ipn: 'T-2' })).rejects.toMatchObject({ code: 'CONFLICT' })
      })
      const after = await s.components.get(a.id)
      expect(after).toMatchObject({ name: 'A', ipn: 'T-1', version: a.version })
      expect((await s.components.getByIpn('T-2')).name).toBe('B')
    })

    it('sees its own writes before it commits', async () => {
      const s = storage()
      await s.transaction(async (tx) => {
        const c = await tx.components.create({ name: 'A', ipn: 'T-1' })
        expect((await tx.components.get(c.id)).name).toBe('A')
      })
    })

    it('keeps other callers out until it commits', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A', ipn: 'T-1' })
      let release!: () => void
      const gate = new Promise<void>((r) => (release = r))
      const tx = s.transaction(async (t) => {
        await t.components.update(c.id, { name: 'inside' })
        await gate
        await t.components.update(c.id, { name: 'done' })
      })
      const outside = s.components.get(c.id)
      release()
      await tx
      // The read is isolated from the transaction: it sees the component as it was before
      // it or after it, never 'inside'. (The embedded engine makes the read wait for the
      // commit; PostgreSQL answers it from the snapshot before the transaction.)
      expect(['A', 'done']).toContain((await outside).name)
    })

    it('refuses calls on a transaction that has ended', async () => {
      const s = storage()
      let leaked: Parameters<Parameters<Storage['transaction']>[0]>[0] | undefined
      await s.transaction(async (tx) => {
        leaked = tx
      })
      await expect(leaked!.components.create({ name: 'late', ipn: 'T-9' })).rejects.toThrow(/already ended/)
      expect((await s.components.list({ limit: 10, sort: 'id', includeDeleted: true })).total).toBe(0)
    })
  })
}
