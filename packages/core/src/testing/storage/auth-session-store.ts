import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

const T0 = Date.parse('2030-01-01T00:00:00.000Z')
const MINUTE = 60_000
const at = (minutes: number) => new Date(T0 + minutes * MINUTE).toISOString()

/** Sign-in sessions: kept by the hash of their id, ended by time, idleness, sign-out or their user's changes. */
export function authSessionStoreSuite(storage: () => Storage): void {
  describe('auth session store', () => {
    it('creates a session seen at its start, and resolves it with its user', async () => {
      const s = storage()
      const ada = await _user(s, 'ada')
      const session = await s.authSessions.create({ idHash: 'h1', userId: ada.id, createdAt: at(0), expiresAt: at(60) })
      expect(session).toEqual({ idHash: 'h1', userId: ada.id, createdAt: at(0), lastSeenAt: at(0), expiresAt: at(60) })
      expect(await s.authSessions.resolve('h1', at(10), at(-30))).toEqual({ session, user: ada })
    })

    it('refuses a session for an unknown user with NOT_FOUND', async () => {
      await expect(storage().authSessions.create({ idHash: 'h1', userId: 'usr_01JD7W3T9X4QF5B8S2M6K0N1PZ', createdAt: at(0), expiresAt: at(60) })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      })
    })

    it('resolves to null for an unknown hash, past its end, or idle since before idleSince', async () => {
      const s = storage()
      const ada = await _user(s, 'ada')
      await s.authSessions.create({ idHash: 'h1', userId: ada.id, createdAt: at(0), expiresAt: at(60) })
      expect(await s.authSessions.resolve('nope', at(1), at(-30))).toBeNull()
      // Past (or at) its end.
      expect(await s.authSessions.resolve('h1', at(60), at(30))).toBeNull()
      expect(await s.authSessions.resolve('h1', at(61), at(30))).toBeNull()
      // Idle: last seen at 0, before the idle bound.
      expect(await s.authSessions.resolve('h1', at(40), at(1))).toBeNull()
      // Seen exactly at the idle bound still counts.
      expect(await s.authSessions.resolve('h1', at(40), at(0))).not.toBeNull()
    })

    it('still resolves the session of a disabled user made after the disable: refusing is the caller’s', async () => {
      const s = storage()
      const ada = await _user(s, 'ada')
      const disabled = await s.users.update(ada.id, { disabled: true })
      await s.authSessions.create({ idHash: 'h1', userId: ada.id, createdAt: at(0), expiresAt: at(60) })
      expect((await s.authSessions.resolve('h1', at(1), at(-30)))?.user).toEqual(disabled)
    })

    it('touch moves lastSeenAt, which keeps an idle session alive', async () => {
      const s = storage()
      const ada = await _user(s, 'ada')
      await s.authSessions.create({ idHash: 'h1', userId: ada.id, createdAt: at(0), expiresAt: at(600) })
      await s.authSessions.touch('h1', at(25))
      const found = await s.authSessions.resolve('h1', at(40), at(10))
      expect(found?.session).toMatchObject({ createdAt: at(0), lastSeenAt: at(25) })
      // Touching an ended session is no error.
      await s.authSessions.touch('nope', at(25))
    })

    it('deletes one session; deleting it again is no error', async () => {
      const s = storage()
      const ada = await _user(s, 'ada')
      await s.authSessions.create({ idHash: 'h1', userId: ada.id, createdAt: at(0), expiresAt: at(60) })
      await s.authSessions.create({ idHash: 'h2', userId: ada.id, createdAt: at(0), expiresAt: at(60) })
      await s.authSessions.delete('h1')
      await s.authSessions.delete('h1')
      expect(await s.authSessions.resolve('h1', at(1), at(-30))).toBeNull()
      expect(await s.authSessions.resolve('h2', at(1), at(-30))).not.toBeNull()
    })

    it('ends every session of one user, but the one kept, and says how many', async () => {
      const s = storage()
      const ada = await _user(s, 'ada')
      const bob = await _user(s, 'bob')
      for (const idHash of ['a1', 'a2', 'a3']) await s.authSessions.create({ idHash, userId: ada.id, createdAt: at(0), expiresAt: at(60) })
      await s.authSessions.create({ idHash: 'b1', userId: bob.id, createdAt: at(0), expiresAt: at(60) })
      expect(await s.authSessions.deleteForUser(ada.id, 'a2')).toBe(2)
      expect(await s.authSessions.resolve('a1', at(1), at(-30))).toBeNull()
      expect(await s.authSessions.resolve('a3', at(1), at(-30))).toBeNull()
      expect(await s.authSessions.resolve('a2', at(1), at(-30))).not.toBeNull()
      expect(await s.authSessions.resolve('b1', at(1), at(-30))).not.toBeNull()
      expect(await s.authSessions.deleteForUser(ada.id)).toBe(1)
      expect(await s.authSessions.resolve('a2', at(1), at(-30))).toBeNull()
      expect(await s.authSessions.deleteForUser(ada.id)).toBe(0)
    })

    it('prunes the sessions past their end or idle, exactly those resolve refuses', async () => {
      const s = storage()
      const ada = await _user(s, 'ada')
      await s.authSessions.create({ idHash: 'ended', userId: ada.id, createdAt: at(0), expiresAt: at(30) })
      await s.authSessions.create({ idHash: 'idle', userId: ada.id, createdAt: at(0), expiresAt: at(600) })
      await s.authSessions.create({ idHash: 'live', userId: ada.id, createdAt: at(0), expiresAt: at(600) })
      await s.authSessions.touch('live', at(35))
      expect(await s.authSessions.prune(at(40), at(10))).toBe(2)
      expect(await s.authSessions.prune(at(40), at(10))).toBe(0)
      // Resolved with bounds that would let them all through, only the live one is left.
      expect(await s.authSessions.resolve('ended', at(1), at(-30))).toBeNull()
      expect(await s.authSessions.resolve('idle', at(1), at(-30))).toBeNull()
      expect(await s.authSessions.resolve('live', at(40), at(10))).not.toBeNull()
    })
  })
}

async function _user(s: Storage, username: string) {
  return await s.users.create({ username, displayName: username, role: 'editor', passwordHash: 'h' })
}
