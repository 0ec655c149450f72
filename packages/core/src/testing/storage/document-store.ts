import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** Jobs and import sessions: JSON documents in collections of their own, with versions. */
export function documentStoreSuite(storage: () => Storage): void {
  describe('document store', () => {
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

    it('keeps jobs and imports apart, with versions', async () => {
      const s = storage()
      const job = await s.jobs.create({ kind: 'bulk-patch', status: 'running', data: { done: 0 } })
      expect((await s.jobs.update(job.id, { status: 'succeeded', data: { done: 5 } })).version).toBe(2)
      await expect(s.imports.get(job.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await s.jobs.delete(job.id)
      await expect(s.jobs.get(job.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })
  })
}
