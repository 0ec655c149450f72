import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** Jobs and import sessions (JSON documents), and the library counts. */
export function documentsSuite(storage: () => Storage): void {
  describe('documents', () => {
    it('stores a job and an import with their data, at version 1', async () => {
      const s = storage()
      const job = await s.jobs.create({ kind: 'bulk-patch', status: 'running', data: { done: 0, ids: ['cmp_1'], nested: { ok: true } } })
      expect(job).toMatchObject({ kind: 'bulk-patch', status: 'running', data: { done: 0, ids: ['cmp_1'], nested: { ok: true } }, version: 1 })
      expect(job.id).toMatch(/^job_/)
      expect(await s.jobs.get(job.id)).toEqual(job)
      const session = await s.imports.create({ kind: 'csv', status: 'preview', data: { columns: ['name', 'ipn'] } })
      expect(session.id).toMatch(/^imp_/)
      expect(await s.imports.get(session.id)).toEqual(session)
    })

    it('updates the status or the data alone, keeping the other, and bumps the version', async () => {
      const s = storage()
      const job = await s.jobs.create({ kind: 'bulk-delete', status: 'queued', data: { done: 0 } })
      const running = await s.jobs.update(job.id, { status: 'running' })
      expect(running).toMatchObject({ status: 'running', data: { done: 0 }, version: 2 })
      const progressed = await s.jobs.update(job.id, { data: { done: 40 } }, { ifVersion: 2 })
      expect(progressed).toMatchObject({ status: 'running', data: { done: 40 }, version: 3 })
      expect(progressed.createdAt).toBe(job.createdAt)
      expect(progressed.updatedAt >= job.updatedAt).toBe(true)
    })

    it('refuses an update at a stale version and changes nothing', async () => {
      const s = storage()
      const session = await s.imports.create({ kind: 'json', status: 'preview', data: { mapping: {} } })
      await s.imports.update(session.id, { data: { mapping: { Name: 'name' } } })
      await expect(s.imports.update(session.id, { status: 'committed' }, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
      expect(await s.imports.get(session.id)).toMatchObject({ status: 'preview', data: { mapping: { Name: 'name' } }, version: 2 })
    })

    it('keeps jobs and imports apart, naming the collection when one is missing', async () => {
      const s = storage()
      const job = await s.jobs.create({ kind: 'bulk-patch', status: 'running', data: {} })
      const session = await s.imports.create({ kind: 'csv', status: 'preview', data: {} })
      await expect(s.imports.get(job.id)).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('import') })
      await expect(s.jobs.get(session.id)).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('job') })
      await expect(s.imports.update(job.id, { status: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.imports.delete(job.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect((await s.jobs.get(job.id)).status).toBe('running')
    })

    it('deletes a document for good', async () => {
      const s = storage()
      const job = await s.jobs.create({ kind: 'bulk-patch', status: 'succeeded', data: {} })
      await s.jobs.delete(job.id)
      await expect(s.jobs.get(job.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.jobs.delete(job.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })
  })

  describe('stats', () => {
    it('counts an empty library as zeros', async () => {
      const { databaseBytes, ...counts } = await storage().stats()
      expect(Object.values(counts).every((n) => n === 0)).toBe(true)
      expect(Object.keys(counts).sort()).toEqual(
        ['attachments', 'components', 'connectors', 'deletedComponents', 'footprints', 'locations', 'manufacturers', 'mpns', 'parameterTypes', 'runs', 'symbols', 'tags'],
      )
      // The size of the database as the storage holds it: an empty one still has its schema.
      expect(databaseBytes).toBeGreaterThan(0)
    })

    it('counts live and deleted components apart, and every other record', async () => {
      const s = storage()
      await s.components.create({ name: 'R 10k', ipn: 'RES-1', tags: ['smd', 'passive'], mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' }, { manufacturer: 'Vishay', partNumber: 'CRCW060310K0FKEA' }] })
      const gone = await s.components.create({ name: 'R 22k', ipn: 'RES-2', mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0722KL' }] })
      await s.components.delete(gone.id)
      await s.symbols.create({ name: 'R' })
      await s.footprints.create({ name: 'R_0603' })
      await s.locations.create({ name: 'Shelf' })
      const c = await s.connectors.create({ type: 'webhook', name: 'Hook', enabled: true, config: {}, secret: null, code: null })
      await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [] })
      expect(await s.stats()).toEqual({
        components: 1,
        deletedComponents: 1,
        symbols: 1,
        footprints: 1,
        attachments: 0,
        manufacturers: 2,
        mpns: 3,
        parameterTypes: 0,
        tags: 2,
        locations: 1,
        connectors: 1,
        runs: 1,
        databaseBytes: expect.any(Number),
      })
    })
  })
}
