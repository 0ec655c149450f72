import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../../schemas/settings'
import type { Storage } from '../../storage/types'

/** Server settings: the defaults until an admin changes one, then the stored keys over them. */
export function settingsStoreSuite(storage: () => Storage): void {
  describe('settings store', () => {
    it('answers the defaults, never changed, before any update', async () => {
      expect(await storage().settings.get()).toEqual(DEFAULT_SETTINGS)
      expect(DEFAULT_SETTINGS.updatedAt).toBeNull()
    })

    it('stores the patched keys only, keeps the others at their defaults, and stamps the time', async () => {
      const s = storage()
      const before = new Date().toISOString()
      const updated = await s.settings.update({ auditRetentionDays: 90 })
      expect(updated).toMatchObject({ auditRetentionDays: 90, outbound: DEFAULT_SETTINGS.outbound })
      expect(updated.updatedAt! >= before).toBe(true)
      expect(await s.settings.get()).toEqual(updated)
    })

    it('replaces a key on a later update and keeps the rest as stored', async () => {
      const s = storage()
      await s.settings.update({ auditRetentionDays: 90, outbound: { blockMetadata: true, allowedHosts: ['hooks.example.com'] } })
      const next = await s.settings.update({ outbound: { blockMetadata: false, allowedHosts: ['10.0.0.0/8'] } })
      expect(next).toMatchObject({ auditRetentionDays: 90, outbound: { blockMetadata: false, allowedHosts: ['10.0.0.0/8'] } })
      // null is a value (keep all entries), not "unchanged".
      expect(await s.settings.update({ auditRetentionDays: null })).toMatchObject({ auditRetentionDays: null, outbound: { blockMetadata: false, allowedHosts: ['10.0.0.0/8'] } })
      expect(await s.settings.get()).toMatchObject({ auditRetentionDays: null, outbound: { allowedHosts: ['10.0.0.0/8'] } })
    })

    it('leaves the defaults themselves unchanged', async () => {
      const s = storage()
      const got = await s.settings.get()
      got.outbound.allowedHosts.push('mutated.example.com')
      await s.settings.update({ auditRetentionDays: 7 })
      expect(DEFAULT_SETTINGS.outbound.allowedHosts).toEqual([])
      expect((await s.settings.get()).outbound.allowedHosts).toEqual([])
    })
  })
}
