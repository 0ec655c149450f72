import type { AuthSession, AuthSessionStore } from '../types'
import { notFound } from './_shared'
import type { StoreAccess, StoreRepo } from './repo'
import { toUser, userColumns } from './user-row'

// Times are ISO 8601 in UTC, all of one length, so comparing them as text orders them.
// A session lives while now is before its end and it was seen since `idleSince`;
// `prune` removes exactly the others.
const LIVE = 's.expires_at > ? AND s.last_seen_at >= ?'

export const authSessions = {
  async create(ex, input) {
    if (!await ex.get('SELECT 1 FROM users WHERE id = ?', [input.userId])) throw notFound('user', input.userId)
    await ex.run('INSERT INTO auth_sessions (id_hash, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)', [
      input.idHash,
      input.userId,
      input.createdAt,
      input.createdAt,
      input.expiresAt,
    ])
    return { idHash: input.idHash, userId: input.userId, createdAt: input.createdAt, lastSeenAt: input.createdAt, expiresAt: input.expiresAt }
  },

  async resolve(ex, idHash, at, idleSince) {
    // One statement with its user: every signed-in request of the web interface reads it.
    const row = await ex.get<_Row>(
      `SELECT s.id_hash AS id_hash, s.user_id AS user_id, s.created_at AS created_at, s.last_seen_at AS last_seen_at, s.expires_at AS expires_at, ${userColumns('u', 'u_')}
       FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = ? AND ${LIVE}`,
      [idHash, at, idleSince],
    )
    return row ? { session: _view(row), user: toUser(row, 'u_') } : null
  },

  async touch(ex, idHash, at) {
    await ex.run('UPDATE auth_sessions SET last_seen_at = ? WHERE id_hash = ?', [at, idHash])
  },

  // Signing out of a session that already ended (pruned, or ended by a password change) is no error.
  async delete(ex, idHash) {
    await ex.run('DELETE FROM auth_sessions WHERE id_hash = ?', [idHash])
  },

  deleteForUser: async (ex, userId, exceptIdHash) =>
    (await ex.run('DELETE FROM auth_sessions WHERE user_id = ? AND id_hash IS DISTINCT FROM ?', [userId, exceptIdHash ?? null])).changes,

  prune: async (ex, at, idleSince) => (await ex.run(`DELETE FROM auth_sessions AS s WHERE NOT (${LIVE})`, [at, idleSince])).changes,
} satisfies StoreRepo<AuthSessionStore>

/** How each method uses the database (Access). */
export const authSessionAccess = { create: 'write', resolve: 'read', touch: 'write', delete: 'write', deleteForUser: 'write', prune: 'write' } as const satisfies StoreAccess<AuthSessionStore>

interface _Row {
  id_hash: string
  user_id: string
  created_at: string
  last_seen_at: string
  expires_at: string
}

function _view(r: _Row): AuthSession {
  return { idHash: r.id_hash, userId: r.user_id, createdAt: r.created_at, lastSeenAt: r.last_seen_at, expiresAt: r.expires_at }
}
