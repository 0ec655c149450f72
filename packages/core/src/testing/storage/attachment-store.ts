import { describe, expect, it } from 'vitest'
import type { AttachmentInput, Storage } from '../../storage/types'
import { MISSING_COMPONENT } from './_fixtures'

const MISSING_ATTACHMENT = 'att_01JD7W3T9X4QF5B8S2M6K0N1PZ'

/** Attachments: files or links, attached to a component or not, and what the component shows of them. */
export function attachmentStoreSuite(storage: () => Storage): void {
  describe('attachment store', () => {
    it('creates an unattached attachment at version 1 and reads it back', async () => {
      const a = await storage().attachments.create(_input({ name: 'notes.txt', url: 'https://example.com/notes.txt', sha256: null, size: null }))
      expect(a).toMatchObject({ componentId: null, name: 'notes.txt', kind: 'datasheet', url: 'https://example.com/notes.txt', size: null, version: 1 })
      expect(a.id).toMatch(/^att_/)
      expect(await storage().attachments.get(a.id)).toEqual(a)
      await expect(storage().attachments.get(MISSING_ATTACHMENT)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('attaching to a component shows it there with a version bump and a history entry', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'R 10k' })
      const a = await s.attachments.create(_input({ componentId: c.id, name: 'ds.pdf' }))
      expect(await s.components.get(c.id)).toMatchObject({ attachments: [{ id: a.id, name: 'ds.pdf' }], version: c.version + 1 })
      expect((await s.components.history(c.id, { limit: 1 })).items[0]).toMatchObject({ op: 'update', changes: ['attachments'] })
    })

    it('rejects attaching to an unknown or deleted component with VALIDATION_FAILED on body.componentId, writing nothing', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'R 10k' })
      await s.components.delete(c.id)
      for (const componentId of [MISSING_COMPONENT, c.id]) {
        await expect(s.attachments.create(_input({ componentId }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body.componentId' }] })
      }
      expect((await s.attachments.list({ limit: 10 })).total).toBe(0)
      expect(await s.attachments.countBySha256('f00d')).toBe(0)
    })

    it('lists by id, filtered by component and kind, with totals and a cursor', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'R 10k' })
      const a1 = await s.attachments.create(_input({ componentId: c.id, kind: 'datasheet' }))
      const a2 = await s.attachments.create(_input({ componentId: null, kind: 'image' }))
      const a3 = await s.attachments.create(_input({ componentId: c.id, kind: 'image' }))
      const first = await s.attachments.list({ limit: 2 })
      expect([first.items.map((a) => a.id), first.total]).toEqual([[a1.id, a2.id], 3])
      const rest = await s.attachments.list({ limit: 2, cursor: first.nextCursor! })
      expect([rest.items.map((a) => a.id), rest.nextCursor]).toEqual([[a3.id], null])
      expect((await s.attachments.list({ limit: 10, componentId: c.id })).items.map((a) => a.id)).toEqual([a1.id, a3.id])
      const images = await s.attachments.list({ limit: 10, componentId: c.id, kind: 'image' })
      expect([images.items.map((a) => a.id), images.total]).toEqual([[a3.id], 1])
    })

    it('lists the attachments of a component by id, and answers NOT_FOUND for an unknown or deleted one', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'R 10k' })
      const other = await s.components.create({ name: 'C 1u' })
      const a1 = await s.attachments.create(_input({ componentId: c.id, name: 'z.pdf' }))
      await s.attachments.create(_input({ componentId: other.id }))
      const a2 = await s.attachments.create(_input({ componentId: c.id, name: 'a.pdf' }))
      expect((await s.attachments.listForComponent(c.id)).map((a) => a.id)).toEqual([a1.id, a2.id])
      await expect(s.attachments.listForComponent(MISSING_COMPONENT)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await s.components.delete(c.id)
      await expect(s.attachments.listForComponent(c.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('a rename shows in its component; a new kind bumps the attachment only', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'R 10k' })
      const a = await s.attachments.create(_input({ componentId: c.id, name: 'old.pdf' }))
      const attached = await s.components.get(c.id)
      const renamed = await s.attachments.update(a.id, { name: 'new.pdf' })
      expect(renamed).toMatchObject({ name: 'new.pdf', version: 2 })
      expect(await s.components.get(c.id)).toMatchObject({ attachments: [{ id: a.id, name: 'new.pdf' }], version: attached.version + 1 })
      expect((await s.attachments.update(a.id, { kind: 'image' })).version).toBe(3)
      expect((await s.components.get(c.id)).version).toBe(attached.version + 1)
    })

    it('moving between components touches both, and detaching touches the old one', async () => {
      const s = storage()
      const from = await s.components.create({ name: 'R 10k' })
      const to = await s.components.create({ name: 'R 22k' })
      const a = await s.attachments.create(_input({ componentId: from.id }))
      const fromBefore = (await s.components.get(from.id)).version
      expect(await s.attachments.update(a.id, { componentId: to.id })).toMatchObject({ componentId: to.id, version: 2 })
      expect(await s.components.get(from.id)).toMatchObject({ attachments: [], version: fromBefore + 1 })
      expect(await s.components.get(to.id)).toMatchObject({ attachments: [{ id: a.id }], version: to.version + 1 })
      await s.attachments.update(a.id, { componentId: null })
      expect(await s.components.get(to.id)).toMatchObject({ attachments: [], version: to.version + 2 })
    })

    it('rejects moving to an unknown component and a stale ifVersion, changing nothing', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'R 10k' })
      const a = await s.attachments.create(_input({ componentId: c.id }))
      await expect(s.attachments.update(a.id, { componentId: MISSING_COMPONENT })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        errors: [{ path: 'body.componentId' }],
      })
      await expect(s.attachments.update(a.id, { name: 'x.pdf' }, { ifVersion: 7 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
      await expect(s.attachments.update(MISSING_ATTACHMENT, { name: 'x.pdf' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect(await s.attachments.get(a.id)).toEqual(a)
      expect((await s.components.get(c.id)).attachments).toEqual([{ id: a.id, name: a.name }])
    })

    it('delete returns the deleted record and detaches it from its component', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'R 10k' })
      const a = await s.attachments.create(_input({ componentId: c.id }))
      const attached = await s.components.get(c.id)
      expect(await s.attachments.delete(a.id)).toEqual(a)
      await expect(s.attachments.get(a.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect(await s.components.get(c.id)).toMatchObject({ attachments: [], version: attached.version + 1 })
      await expect(s.attachments.delete(a.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('counts the attachments sharing stored bytes by digest', async () => {
      const s = storage()
      const first = await s.attachments.create(_input({ sha256: 'f00d' }))
      await s.attachments.create(_input({ sha256: 'f00d', name: 'copy.pdf' }))
      await s.attachments.create(_input({ sha256: 'beef' }))
      expect(await s.attachments.countBySha256('f00d')).toBe(2)
      expect(await s.attachments.countBySha256('cafe')).toBe(0)
      await s.attachments.delete(first.id)
      expect(await s.attachments.countBySha256('f00d')).toBe(1)
    })

    it('attaches to a live component, shows in it, and detaches on delete', async () => {
      const s = storage()
      const c = await s.components.create({ name: 'A' })
      const a = await s.attachments.create({ componentId: c.id, name: 'ds.pdf', kind: 'datasheet', contentType: 'application/pdf', size: 3, sha256: 'abc', url: null })
      expect((await s.components.get(c.id)).attachments).toEqual([{ id: a.id, name: 'ds.pdf' }])
      expect(await s.attachments.countBySha256('abc')).toBe(1)
      expect((await s.attachments.delete(a.id)).sha256).toBe('abc')
      expect((await s.components.get(c.id)).attachments).toEqual([])
    })

    it('rejects an attachment to a component that does not exist', async () => {
      await expect(
        storage().attachments.create({ componentId: 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ', name: 'x', kind: 'other', contentType: 'text/plain', size: 1, sha256: null, url: null }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body.componentId' }] })
      expect((await storage().attachments.list({ limit: 10 })).total).toBe(0)
    })
  })
}

function _input(overrides: Partial<AttachmentInput> = {}): AttachmentInput {
  return { componentId: null, name: 'datasheet.pdf', kind: 'datasheet', contentType: 'application/pdf', size: 1024, sha256: 'f00d', url: null, ...overrides }
}
