import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

const MISSING_USER = 'usr_01JD7W3T9X4QF5B8S2M6K0N1PZ'
const HOUR = 3_600_000

/** Accounts: names, roles, password hashes, and what a password change or a disable ends. */
export function userStoreSuite(storage: () => Storage): void {
  describe('user store', () => {
    it('creates a user at version 1, enabled and never signed in, without showing the hash', async () => {
      const s = storage()
      const user = await s.users.create({ username: 'ada', displayName: 'Ada Lovelace', role: 'admin', passwordHash: 'hash-1' })
      expect(user).toMatchObject({ username: 'ada', displayName: 'Ada Lovelace', role: 'admin', disabled: false, lastLoginAt: null, version: 1 })
      expect(user.id).toMatch(/^usr_/)
      expect(user.createdAt).toBe(user.updatedAt)
      expect(user).not.toHaveProperty('passwordHash')
      expect(await s.users.get(user.id)).toEqual(user)
      expect(await s.users.passwordHash(user.id)).toBe('hash-1')
    })

    it('refuses a taken user name with CONFLICT naming body.username, and compares names as stored', async () => {
      const s = storage()
      await s.users.create({ username: 'ada', displayName: 'Ada', role: 'editor', passwordHash: 'h' })
      await expect(s.users.create({ username: 'ada', displayName: 'Other', role: 'viewer', passwordHash: 'h' })).rejects.toMatchObject({
        code: 'CONFLICT',
        errors: [{ path: 'body.username' }],
      })
      expect(await s.users.count()).toBe(1)
      // Names arrive folded (the schema lowers them); the store does not fold again.
      await s.users.create({ username: 'Ada', displayName: 'Capital', role: 'viewer', passwordHash: 'h' })
      expect(await s.users.count()).toBe(2)
      expect((await s.users.findCredentials('Ada'))?.user.displayName).toBe('Capital')
    })

    it('answers NOT_FOUND for an unknown user', async () => {
      const s = storage()
      await expect(s.users.get(MISSING_USER)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.users.passwordHash(MISSING_USER)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.users.update(MISSING_USER, { role: 'admin' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.users.recordLogin(MISSING_USER, '2030-01-01T00:00:00.000Z')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('finds credentials by name, disabled accounts too, and null for an unknown name', async () => {
      const s = storage()
      const ada = await s.users.create({ username: 'ada', displayName: 'Ada', role: 'editor', passwordHash: 'hash-ada' })
      expect(await s.users.findCredentials('ada')).toEqual({ user: ada, passwordHash: 'hash-ada' })
      expect(await s.users.findCredentials('bob')).toBeNull()
      const disabled = await s.users.update(ada.id, { disabled: true })
      expect(await s.users.findCredentials('ada')).toEqual({ user: disabled, passwordHash: 'hash-ada' })
    })

    it('lists users by name, a page at a time, with the total', async () => {
      const s = storage()
      for (const username of ['eve', 'bob', 'ada', 'dan', 'cy']) await s.users.create({ username, displayName: username.toUpperCase(), role: 'viewer', passwordHash: 'h' })
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const page = await s.users.list({ limit: 2, cursor })
        expect(page.total).toBe(5)
        seen.push(...page.items.map((u) => u.username))
        cursor = page.nextCursor ?? undefined
      } while (cursor)
      expect(seen).toEqual(['ada', 'bob', 'cy', 'dan', 'eve'])
      await expect(s.users.list({ limit: 2, cursor: 'bogus' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
    })

    it('filters by part of the user name or the display name, ignoring case, `%` and `_` literal', async () => {
      const s = storage()
      await s.users.create({ username: 'ada', displayName: 'Ada Lovelace', role: 'admin', passwordHash: 'h' })
      await s.users.create({ username: 'grace', displayName: 'Grace Hopper', role: 'editor', passwordHash: 'h' })
      await s.users.create({ username: 'love_bot', displayName: 'Robot', role: 'viewer', passwordHash: 'h' })
      await s.users.create({ username: 'alan', displayName: 'Alan Turing', role: 'viewer', passwordHash: 'h' })
      const page = await s.users.list({ limit: 10, q: 'LOVE' })
      expect(page.items.map((u) => u.username)).toEqual(['ada', 'love_bot'])
      expect(page.total).toBe(2)
      expect((await s.users.list({ limit: 10, q: 'hop' })).items.map((u) => u.username)).toEqual(['grace'])
      expect((await s.users.list({ limit: 10, q: '_' })).items.map((u) => u.username)).toEqual(['love_bot'])
      expect((await s.users.list({ limit: 10, q: '%' })).total).toBe(0)
    })

    it('updates name, role and disabled with a new version; an unchanged patch keeps the version', async () => {
      const s = storage()
      const user = await s.users.create({ username: 'ada', displayName: 'Ada', role: 'viewer', passwordHash: 'h' })
      const next = await s.users.update(user.id, { displayName: 'Ada L.', role: 'editor' }, { ifVersion: 1 })
      expect(next).toMatchObject({ username: 'ada', displayName: 'Ada L.', role: 'editor', disabled: false, version: 2 })
      expect(await s.users.update(user.id, { displayName: 'Ada L.', role: 'editor', disabled: false })).toEqual(next)
      expect(await s.users.get(user.id)).toEqual(next)
    })

    it('refuses a stale ifVersion with PRECONDITION_FAILED and changes nothing', async () => {
      const s = storage()
      const user = await s.users.create({ username: 'ada', displayName: 'Ada', role: 'viewer', passwordHash: 'h' })
      await s.users.update(user.id, { role: 'editor' })
      await expect(s.users.update(user.id, { role: 'admin', passwordHash: 'h2' }, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
      expect(await s.users.get(user.id)).toMatchObject({ role: 'editor', version: 2 })
      expect(await s.users.passwordHash(user.id)).toBe('h')
    })

    it('a new password hash ends every session of the user, and only theirs', async () => {
      const s = storage()
      const ada = await s.users.create({ username: 'ada', displayName: 'Ada', role: 'editor', passwordHash: 'old' })
      const bob = await s.users.create({ username: 'bob', displayName: 'Bob', role: 'editor', passwordHash: 'h' })
      const at = new Date()
      await _session(s, 'ada-1', ada.id, at)
      await _session(s, 'ada-2', ada.id, at)
      await _session(s, 'bob-1', bob.id, at)
      expect(await s.users.update(ada.id, { passwordHash: 'new' })).toMatchObject({ version: 2 })
      expect(await s.users.passwordHash(ada.id)).toBe('new')
      expect(await _resolve(s, 'ada-1', at)).toBeNull()
      expect(await _resolve(s, 'ada-2', at)).toBeNull()
      expect((await _resolve(s, 'bob-1', at))?.user.id).toBe(bob.id)
    })

    it('disabling a user ends their sessions; the same password hash given again still counts as a change', async () => {
      const s = storage()
      const ada = await s.users.create({ username: 'ada', displayName: 'Ada', role: 'editor', passwordHash: 'h' })
      const at = new Date()
      await _session(s, 'ada-1', ada.id, at)
      expect(await s.users.update(ada.id, { disabled: true })).toMatchObject({ disabled: true, version: 2 })
      expect(await _resolve(s, 'ada-1', at)).toBeNull()
      const enabled = await s.users.update(ada.id, { disabled: false })
      expect(enabled).toMatchObject({ disabled: false, version: 3 })
      await _session(s, 'ada-2', ada.id, at)
      expect((await s.users.update(ada.id, { passwordHash: 'h' })).version).toBe(4)
      expect(await _resolve(s, 'ada-2', at)).toBeNull()
    })

    it('a role or name change leaves the sessions alone', async () => {
      const s = storage()
      const ada = await s.users.create({ username: 'ada', displayName: 'Ada', role: 'editor', passwordHash: 'h' })
      const at = new Date()
      await _session(s, 'ada-1', ada.id, at)
      await s.users.update(ada.id, { role: 'viewer', displayName: 'A.' })
      expect((await _resolve(s, 'ada-1', at))?.user).toMatchObject({ role: 'viewer', displayName: 'A.', version: 2 })
    })

    it('a failed update ends no session', async () => {
      const s = storage()
      const ada = await s.users.create({ username: 'ada', displayName: 'Ada', role: 'editor', passwordHash: 'h' })
      const at = new Date()
      await _session(s, 'ada-1', ada.id, at)
      await expect(s.users.update(ada.id, { passwordHash: 'new' }, { ifVersion: 7 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
      expect(await _resolve(s, 'ada-1', at)).not.toBeNull()
    })

    it('records a sign-in without a new version', async () => {
      const s = storage()
      const ada = await s.users.create({ username: 'ada', displayName: 'Ada', role: 'editor', passwordHash: 'h' })
      await s.users.recordLogin(ada.id, '2030-01-02T03:04:05.000Z')
      expect(await s.users.get(ada.id)).toEqual({ ...ada, lastLoginAt: '2030-01-02T03:04:05.000Z' })
    })

    it('counts every account, disabled ones too', async () => {
      const s = storage()
      expect(await s.users.count()).toBe(0)
      const ada = await s.users.create({ username: 'ada', displayName: 'Ada', role: 'admin', passwordHash: 'h' })
      await s.users.create({ username: 'bob', displayName: 'Bob', role: 'viewer', passwordHash: 'h' })
      await s.users.update(ada.id, { disabled: true })
      expect(await s.users.count()).toBe(2)
    })
  })
}

async function _session(s: Storage, idHash: string, userId: string, at: Date): Promise<void> {
  await s.authSessions.create({ idHash, userId, createdAt: at.toISOString(), expiresAt: new Date(at.getTime() + HOUR).toISOString() })
}

async function _resolve(s: Storage, idHash: string, at: Date) {
  return await s.authSessions.resolve(idHash, at.toISOString(), new Date(at.getTime() - HOUR).toISOString())
}
