import { describe, expect, it } from 'vitest'
import type { Storage, TokenCreateInput } from '../../storage/types'

const MISSING_TOKEN = 'tok_01JD7W3T9X4QF5B8S2M6K0N1PZ'

/** API tokens: kept by the hash of their secret, listed newest first with their owners, revoked by deleting. */
export function tokenStoreSuite(storage: () => Storage): void {
  describe('token store', () => {
    it('creates a token with its owner, never used, and reads it back', async () => {
      const s = storage()
      const ada = await _user(s, 'ada')
      const token = await s.tokens.create(_input(ada.id, 'ci', { scope: 'write', expiresAt: '2031-01-01T00:00:00.000Z' }))
      expect(token).toMatchObject({ name: 'ci', scope: 'write', prefix: 'clt_ci', owner: { id: ada.id, username: 'ada' }, expiresAt: '2031-01-01T00:00:00.000Z', lastUsedAt: null })
      expect(token.id).toMatch(/^tok_/)
      expect(token).not.toHaveProperty('hash')
      expect(await s.tokens.get(token.id)).toEqual(token)
    })

    it('refuses a token for an unknown owner with NOT_FOUND', async () => {
      await expect(storage().tokens.create(_input('usr_01JD7W3T9X4QF5B8S2M6K0N1PZ', 'x'))).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('answers NOT_FOUND for an unknown token, also when revoking it', async () => {
      const s = storage()
      await expect(s.tokens.get(MISSING_TOKEN)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.tokens.delete(MISSING_TOKEN)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('lists newest first, everyone’s or one owner’s, a page at a time, with the total', async () => {
      const s = storage()
      const ada = await _user(s, 'ada')
      const bob = await _user(s, 'bob')
      const made: Array<{ id: string; owner: string }> = []
      for (let i = 0; i < 5; i++) {
        const owner = i % 2 === 0 ? ada : bob
        made.push({ id: (await s.tokens.create(_input(owner.id, `t${i}`))).id, owner: owner.id })
      }
      const newestFirst = made.map((t) => t.id).reverse()
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const page = await s.tokens.list({ limit: 2, cursor })
        expect(page.total).toBe(5)
        seen.push(...page.items.map((t) => t.id))
        cursor = page.nextCursor ?? undefined
      } while (cursor)
      expect(seen).toEqual(newestFirst)
      const first = await s.tokens.list({ limit: 2, ownerId: ada.id })
      expect(first.total).toBe(3)
      expect(first.items.map((t) => t.owner.username)).toEqual(['ada', 'ada'])
      const rest = await s.tokens.list({ limit: 2, ownerId: ada.id, cursor: first.nextCursor! })
      expect(rest.nextCursor).toBeNull()
      expect([...first.items, ...rest.items].map((t) => t.id)).toEqual(newestFirst.filter((id) => made.find((t) => t.id === id)!.owner === ada.id))
      expect((await s.tokens.list({ limit: 10, ownerId: 'usr_01JD7W3T9X4QF5B8S2M6K0N1PZ' })).total).toBe(0)
      await expect(s.tokens.list({ limit: 2, cursor: 'bogus' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
    })

    it('resolves a hash to the token and its owner, disabled owners too, and null for an unknown hash', async () => {
      const s = storage()
      const ada = await _user(s, 'ada')
      const token = await s.tokens.create(_input(ada.id, 'ci'))
      expect(await s.tokens.resolve('sha-ci')).toEqual({ token, owner: ada })
      expect(await s.tokens.resolve('sha-other')).toBeNull()
      const disabled = await s.users.update(ada.id, { disabled: true })
      expect(await s.tokens.resolve('sha-ci')).toEqual({ token, owner: disabled })
    })

    it('touch sets lastUsedAt; touching a revoked token is no error', async () => {
      const s = storage()
      const ada = await _user(s, 'ada')
      const token = await s.tokens.create(_input(ada.id, 'ci'))
      await s.tokens.touch(token.id, '2030-05-06T07:08:09.000Z')
      expect(await s.tokens.get(token.id)).toEqual({ ...token, lastUsedAt: '2030-05-06T07:08:09.000Z' })
      await s.tokens.touch(MISSING_TOKEN, '2030-05-06T07:08:09.000Z')
    })

    it('revoking a token removes it: gone from get, list and resolve', async () => {
      const s = storage()
      const ada = await _user(s, 'ada')
      const gone = await s.tokens.create(_input(ada.id, 'gone'))
      const kept = await s.tokens.create(_input(ada.id, 'kept'))
      await s.tokens.delete(gone.id)
      await expect(s.tokens.get(gone.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect(await s.tokens.resolve('sha-gone')).toBeNull()
      expect((await s.tokens.list({ limit: 10 })).items.map((t) => t.id)).toEqual([kept.id])
    })
  })
}

function _input(ownerId: string, name: string, extra: Partial<TokenCreateInput> = {}): TokenCreateInput {
  return { name, scope: 'read', ownerId, hash: `sha-${name}`, prefix: `clt_${name}`, expiresAt: null, ...extra }
}

async function _user(s: Storage, username: string) {
  return await s.users.create({ username, displayName: username, role: 'editor', passwordHash: 'h' })
}
