import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

const config = { url: 'http://127.0.0.1:9/hook', requestsPerSecond: 10, concurrency: 4, cron: null }
const input = { type: 'webhook', name: 'ERP', enabled: true, config, secret: 'whsec_one', code: null }

/** Connectors as stored: config, secrets and their rotation, versions. */
export function connectorStoreSuite(storage: () => Storage): void {
  describe('connector store', () => {
    it('creates a connector at version 1 with its config, secret and code as given', async () => {
      const s = storage()
      const c = await s.connectors.create({ ...input, enabled: false, code: 'export default {}' })
      expect(c).toMatchObject({ type: 'webhook', name: 'ERP', enabled: false, config, secret: 'whsec_one', previousSecret: null, previousSecretExpiresAt: null, code: 'export default {}', version: 1 })
      expect(c.id).toMatch(/^con_/)
      expect(c.createdAt).toBe(c.updatedAt)
      expect(await s.connectors.get(c.id)).toEqual(c)
    })

    it('replaces the config on update rather than merging it, and bumps the version', async () => {
      const s = storage()
      const c = await s.connectors.create({ ...input, code: 'old code' })
      const next = await s.connectors.update(c.id, { config: { url: 'https://example.com/in' }, enabled: false, code: null })
      expect(next).toMatchObject({ name: 'ERP', enabled: false, config: { url: 'https://example.com/in' }, code: null, secret: 'whsec_one', version: 2 })
      expect((await s.connectors.update(c.id, { name: 'ERP 2' }, { ifVersion: 2 })).version).toBe(3)
      expect(await s.connectors.get(c.id)).toMatchObject({ name: 'ERP 2', config: { url: 'https://example.com/in' }, version: 3 })
    })

    it('refuses an update at a stale version and changes nothing', async () => {
      const s = storage()
      const c = await s.connectors.create(input)
      await s.connectors.update(c.id, { name: 'Renamed' })
      await expect(s.connectors.update(c.id, { name: 'Lost update', config: {} }, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
      expect(await s.connectors.get(c.id)).toMatchObject({ name: 'Renamed', config, version: 2 })
    })

    it('answers NOT_FOUND for an unknown connector', async () => {
      const s = storage()
      const id = 'con_01JD7W3T9X4QF5B8S2M6K0N1PZ'
      await expect(s.connectors.get(id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.connectors.update(id, { name: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.connectors.delete(id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.connectors.rotateSecret(id, 'whsec_x', '2030-01-01T00:00:00.000Z')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('lists connectors by id, a page at a time, with the total', async () => {
      const s = storage()
      const ids: string[] = []
      for (let i = 0; i < 5; i++) ids.push((await s.connectors.create({ ...input, name: `Hook ${i}` })).id)
      const first = await s.connectors.list({ limit: 3 })
      expect(first.items.map((c) => c.id)).toEqual(ids.slice(0, 3))
      expect(first.total).toBe(5)
      const second = await s.connectors.list({ limit: 3, cursor: first.nextCursor! })
      expect(second.items.map((c) => c.id)).toEqual(ids.slice(3))
      expect(second.nextCursor).toBeNull()
      await expect(s.connectors.list({ limit: 3, cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
    })

    it('keeps the old secret, with its expiry, only until the next rotation', async () => {
      const s = storage()
      const c = await s.connectors.create(input)
      const once = await s.connectors.rotateSecret(c.id, 'whsec_two', '2030-01-01T00:00:00.000Z')
      expect(once).toMatchObject({ secret: 'whsec_two', previousSecret: 'whsec_one', previousSecretExpiresAt: '2030-01-01T00:00:00.000Z', version: 2 })
      const twice = await s.connectors.rotateSecret(c.id, 'whsec_three', '2030-02-01T00:00:00.000Z')
      expect(twice).toMatchObject({ secret: 'whsec_three', previousSecret: 'whsec_two', previousSecretExpiresAt: '2030-02-01T00:00:00.000Z', version: 3 })
      expect(twice.config).toEqual(config)
    })

    it('deletes a connector together with its runs', async () => {
      const s = storage()
      const c = await s.connectors.create(input)
      const other = await s.connectors.create({ ...input, name: 'Other' })
      const run = await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [{ webhookId: 'msg_1', ids: ['cmp_a'] }] })
      const kept = await s.runs.create({ connectorId: other.id, trigger: 'cron', batches: [] })
      await s.runs.update(run.id, { status: 'succeeded' })
      await s.connectors.delete(c.id)
      await expect(s.connectors.get(c.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.runs.get(run.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.runs.getBatchPayload(run.id, 0)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect((await s.runs.get(kept.id)).id).toBe(kept.id)
      expect((await s.connectors.list({ limit: 10 })).total).toBe(1)
    })

    it('refuses to delete a connector while a run of it is queued or running, changing nothing, and deletes it once the run ended', async () => {
      const s = storage()
      const c = await s.connectors.create(input)
      const run = await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [{ webhookId: 'msg_1', ids: ['cmp_a'] }] })
      await expect(s.connectors.delete(c.id)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining(run.id) })
      await s.runs.update(run.id, { status: 'running' })
      await expect(s.connectors.delete(c.id)).rejects.toMatchObject({ code: 'CONFLICT' })
      expect(await s.connectors.get(c.id)).toEqual(c)
      expect((await s.runs.get(run.id)).status).toBe('running')
      await s.runs.update(run.id, { status: 'cancelled' })
      await s.connectors.delete(c.id)
      await expect(s.runs.get(run.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('never both deletes a connector and starts a run of it, whichever is sent first and however they interleave', async () => {
      const s = storage()
      const runsBefore = (await s.stats()).runs
      let created = 0
      for (let round = 0; round < 40; round++) {
        const c = await s.connectors.create({ ...input, name: `Race ${round}` })
        const start = () => s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [{ webhookId: `msg_${round}`, ids: ['cmp_a'] }], exclusive: true })
        const remove = () => s.connectors.delete(c.id)
        // Either call first, the second sent at once or after a turn of the event loop.
        const later = <T>(f: () => Promise<T>) => (round % 4 < 2 ? f() : new Promise<void>((r) => setImmediate(r)).then(f))
        const [run, deleted] = round % 2 ? await Promise.allSettled([start(), later(remove)]) : (await Promise.allSettled([remove(), later(start)])).reverse()
        expect([run!.status, deleted!.status], `round ${round}`).toContain('fulfilled')
        expect([run!.status, deleted!.status], `round ${round}`).toContain('rejected')
        if (run!.status === 'fulfilled') {
          created++
          expect((deleted as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' })
          expect((await s.runs.get((run as PromiseFulfilledResult<{ id: string }>).value.id)).connectorId).toBe(c.id)
          expect((await s.connectors.get(c.id)).id).toBe(c.id)
        } else {
          expect(run!.reason).toMatchObject({ code: 'NOT_FOUND' })
          await expect(s.connectors.get(c.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        }
      }
      // Both orders happened: each outcome was checked.
      expect(created).toBeGreaterThan(0)
      expect(created).toBeLessThan(40)
      expect((await s.stats()).runs).toBe(runsBefore + created)
    })

    it('stores a connector and rotates its secret, keeping the old one for the grace period', async () => {
      const s = storage()
      const c = await s.connectors.create({ type: 'webhook', name: 'Hook', enabled: true, config, secret: 'whsec_old', code: null })
      expect(c).toMatchObject({ name: 'Hook', enabled: true, config, secret: 'whsec_old', version: 1 })
      const rotated = await s.connectors.rotateSecret(c.id, 'whsec_new', '2030-01-01T00:00:00.000Z')
      expect(rotated).toMatchObject({ secret: 'whsec_new', previousSecret: 'whsec_old', previousSecretExpiresAt: '2030-01-01T00:00:00.000Z', version: 2 })
      await expect(s.connectors.update(c.id, { name: 'x' }, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
    })
  })
}
