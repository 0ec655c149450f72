import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

const config = { url: 'http://127.0.0.1:9/hook', requestsPerSecond: 10, concurrency: 4, cron: null }

/** Connectors, runs, jobs and import documents, stats. */
export function operationsSuite(storage: () => Storage): void {
  describe('connectors and runs', () => {
    it('stores a connector and rotates its secret, keeping the old one for the grace period', async () => {
      const s = storage()
      const c = await s.connectors.create({ type: 'webhook', name: 'Hook', enabled: true, config, secret: 'whsec_old', code: null })
      expect(c).toMatchObject({ name: 'Hook', enabled: true, config, secret: 'whsec_old', version: 1 })
      const rotated = await s.connectors.rotateSecret(c.id, 'whsec_new', '2030-01-01T00:00:00.000Z')
      expect(rotated).toMatchObject({ secret: 'whsec_new', previousSecret: 'whsec_old', previousSecretExpiresAt: '2030-01-01T00:00:00.000Z', version: 2 })
      await expect(s.connectors.update(c.id, { name: 'x' }, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
    })

    it('records a run with its batches, attempts and bounded logs', async () => {
      const s = storage()
      const c = await s.connectors.create({ type: 'webhook', name: 'Hook', enabled: true, config, secret: 'whsec_x', code: null })
      const run = await s.runs.create({
        connectorId: c.id,
        trigger: 'manual',
        batches: [
          { webhookId: 'msg_1', ids: ['cmp_a', 'cmp_b'] },
          { webhookId: 'msg_2', ids: ['cmp_c'] },
        ],
      })
      expect(run).toMatchObject({ status: 'queued', total: 3, batchesTotal: 2 })
      expect(run.batches.map((b) => [b.webhookId, b.size, b.status])).toEqual([
        ['msg_1', 2, 'pending'],
        ['msg_2', 1, 'pending'],
      ])
      expect((await s.runs.listActive()).map((r) => r.id)).toEqual([run.id])
      await s.runs.updateBatch(run.id, 0, { status: 'sending', body: new Uint8Array([1, 2, 3]), appendAttempt: { at: new Date().toISOString(), status: 500, durationMs: 3, error: null } })
      const payload = await s.runs.getBatchPayload(run.id, 0)
      expect(payload.ids).toEqual(['cmp_a', 'cmp_b'])
      expect([...payload.body!]).toEqual([1, 2, 3])
      await s.runs.update(run.id, { status: 'running', appendLogs: Array.from({ length: 1005 }, (_, i) => `line ${i}`) })
      const detail = await s.runs.get(run.id)
      expect(detail.logs).toHaveLength(1000)
      expect(detail.logs[0]).toBe('line 5')
      expect(detail.batches[0]!.attempts).toHaveLength(1)
      await expect(s.runs.updateBatch(run.id, 9, { status: 'failed' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await s.connectors.delete(c.id)
      await expect(s.runs.get(run.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })
  })

  describe('documents and stats', () => {
    it('keeps jobs and imports apart, with versions', async () => {
      const s = storage()
      const job = await s.jobs.create({ kind: 'bulk-patch', status: 'running', data: { done: 0 } })
      expect((await s.jobs.update(job.id, { status: 'succeeded', data: { done: 5 } })).version).toBe(2)
      await expect(s.imports.get(job.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await s.jobs.delete(job.id)
      await expect(s.jobs.get(job.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('counts the library', async () => {
      const s = storage()
      await s.components.create({ name: 'A', tags: ['t'], mpns: [{ manufacturer: 'M', partNumber: 'P' }] })
      const b = await s.components.create({ name: 'B' })
      await s.components.delete(b.id)
      expect(await s.stats()).toMatchObject({ components: 1, deletedComponents: 1, tags: 1, manufacturers: 1, mpns: 1, symbols: 0 })
    })
  })
}
