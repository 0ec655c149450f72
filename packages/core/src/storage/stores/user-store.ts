import { createId } from '../../ids'
import type { User } from '../../schemas/account'
import type { SqlExecutor } from '../_internal/sql-executor'
import type { UserStore } from '../types'
import { checkVersion, conflict, likeEscape, notFound, now, pageByName } from './_shared'
import type { StoreAccess, StoreRepo } from './repo'
import { toUser, userColumns } from './user-row'

export const users = {
  async list(ex, query) {
    const pattern = query.q ? `%${likeEscape(query.q)}%` : null
    // User names are folded when they come in, so the name order is theirs as written.
    const page = await pageByName<{ id: string; name: string }>(ex, {
      select: `${userColumns('u')}, u.username AS name`,
      from: 'users u',
      where: pattern ? [`(u.username ${ex.dialect.ilike} ? ESCAPE '\\' OR u.display_name ${ex.dialect.ilike} ? ESCAPE '\\')`] : [],
      params: pattern ? [pattern, pattern] : [],
      limit: query.limit,
      cursor: query.cursor,
      nameColumn: 'u.username',
      idColumn: 'u.id',
    })
    return { ...page, items: page.items.map((row) => toUser(row)) }
  },

  get: async (ex, id) => await _get(ex, id),

  async findCredentials(ex, username) {
    const row = await ex.get<{ password_hash: string }>(`SELECT ${userColumns('u')}, u.password_hash AS password_hash FROM users u WHERE u.username = ?`, [username])
    return row ? { user: toUser(row), passwordHash: row.password_hash } : null
  },

  async passwordHash(ex, id) {
    const row = await ex.get<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = ?', [id])
    if (!row) throw notFound('user', id)
    return row.password_hash
  },

  async create(ex, input) {
    await _assertUsernameFree(ex, input.username)
    const at = now()
    const id = createId('user')
    await ex.run(
      'INSERT INTO users (id, username, display_name, role, password_hash, disabled, last_login_at, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, 0, NULL, ?, ?, 1)',
      [id, input.username, input.displayName, input.role, input.passwordHash, at, at],
    )
    return await _get(ex, id)
  },

  async update(ex, id, patch, options) {
    const current = await _get(ex, id)
    checkVersion('user', id, current.version, options?.ifVersion)
    const next = {
      displayName: patch.displayName ?? current.displayName,
      role: patch.role ?? current.role,
      disabled: patch.disabled ?? current.disabled,
    }
    const changed = patch.passwordHash !== undefined || next.displayName !== current.displayName || next.role !== current.role || next.disabled !== current.disabled
    // An unchanged record keeps its version, so an ETag stays valid after a no-op PATCH.
    if (!changed) return current
    await ex.run('UPDATE users SET display_name = ?, role = ?, disabled = ?, password_hash = coalesce(?, password_hash), updated_at = ?, version = version + 1 WHERE id = ?', [
      next.displayName,
      next.role,
      next.disabled ? 1 : 0,
      patch.passwordHash ?? null,
      now(),
      id,
    ])
    // A new password or a disabled account signs out everywhere, in this same call: a session
    // made with the old password must not outlive it.
    if (patch.passwordHash !== undefined || next.disabled) await ex.run('DELETE FROM auth_sessions WHERE user_id = ?', [id])
    return await _get(ex, id)
  },

  async recordLogin(ex, id, at) {
    const { changes } = await ex.run('UPDATE users SET last_login_at = ? WHERE id = ?', [at, id])
    if (changes === 0) throw notFound('user', id)
  },

  count: async (ex) => Number((await ex.get<{ n: number }>('SELECT count(*) AS n FROM users'))!.n),
} satisfies StoreRepo<UserStore>

/** How each method uses the database (Access). */
export const userAccess = {
  list: 'snapshot',
  get: 'read',
  findCredentials: 'read',
  passwordHash: 'read',
  create: 'write',
  update: 'write',
  recordLogin: 'write',
  count: 'read',
} as const satisfies StoreAccess<UserStore>

async function _get(ex: SqlExecutor, id: string): Promise<User> {
  const row = await ex.get(`SELECT ${userColumns('u')} FROM users u WHERE u.id = ?`, [id])
  if (!row) throw notFound('user', id)
  return toUser(row)
}

async function _assertUsernameFree(ex: SqlExecutor, username: string): Promise<void> {
  const row = await ex.get<{ id: string }>('SELECT id FROM users WHERE username = ?', [username])
  if (row) throw conflict('body.username', `the user name ${username} is taken (${row.id})`)
}
