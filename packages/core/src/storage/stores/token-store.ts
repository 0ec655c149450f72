import { createId } from '../../ids'
import type { ApiToken, TokenScope } from '../../schemas/account'
import type { SqlExecutor, SqlParam } from '../_internal/sql-executor'
import type { TokenStore } from '../types'
import { decodeCursor, encodeCursor, notFound, now } from './_shared'
import type { StoreAccess, StoreRepo } from './repo'
import { toUser, userColumns } from './user-row'

// A token with its owner's name, which the list shows beside it.
const COLUMNS = `t.id AS id, t.name AS name, t.scope AS scope, t.prefix AS prefix, t.owner_id AS owner_id, t.created_at AS created_at,
  t.expires_at AS expires_at, t.last_used_at AS last_used_at, u.username AS owner_username`
const FROM = 'api_tokens t JOIN users u ON u.id = t.owner_id'

export const tokens = {
  async create(ex, input) {
    if (!await ex.get('SELECT 1 FROM users WHERE id = ?', [input.ownerId])) throw notFound('user', input.ownerId)
    const id = createId('token')
    await ex.run('INSERT INTO api_tokens (id, name, scope, owner_id, hash, prefix, created_at, expires_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)', [
      id,
      input.name,
      input.scope,
      input.ownerId,
      input.hash,
      input.prefix,
      now(),
      input.expiresAt,
    ])
    return await _get(ex, id)
  },

  async list(ex, query) {
    const where: string[] = []
    const params: SqlParam[] = []
    if (query.ownerId !== undefined) {
      where.push('t.owner_id = ?')
      params.push(query.ownerId)
    }
    const total = Number((await ex.get<{ n: number }>(`SELECT count(*) AS n FROM api_tokens t${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`, params))!.n)
    // Newest first; tokens made in the same millisecond by id, which follows creation too.
    if (query.cursor) {
      const [createdAt, id] = decodeCursor(query.cursor, 2)
      where.push('(t.created_at < ? OR (t.created_at = ? AND t.id < ?))')
      params.push(createdAt, createdAt, id)
    }
    const rows = await ex.all<_Row>(
      `SELECT ${COLUMNS} FROM ${FROM}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY t.created_at DESC, t.id DESC LIMIT ?`,
      [...params, query.limit + 1],
    )
    const more = rows.length > query.limit
    if (more) rows.pop()
    const last = rows.at(-1)
    return { items: rows.map(_view), total, nextCursor: more && last ? encodeCursor([last.created_at, last.id]) : null }
  },

  get: async (ex, id) => await _get(ex, id),

  async resolve(ex, hash) {
    // One statement with its owner: every request with a token reads it.
    const row = await ex.get<_Row>(`SELECT ${COLUMNS}, ${userColumns('u', 'u_')} FROM ${FROM} WHERE t.hash = ?`, [hash])
    return row ? { token: _view(row), owner: toUser(row, 'u_') } : null
  },

  async touch(ex, id, at) {
    await ex.run('UPDATE api_tokens SET last_used_at = ? WHERE id = ?', [at, id])
  },

  async delete(ex, id) {
    const { changes } = await ex.run('DELETE FROM api_tokens WHERE id = ?', [id])
    if (changes === 0) throw notFound('token', id)
  },
} satisfies StoreRepo<TokenStore>

/** How each method uses the database (Access). */
export const tokenAccess = { create: 'write', list: 'snapshot', get: 'read', resolve: 'read', touch: 'write', delete: 'write' } as const satisfies StoreAccess<TokenStore>

interface _Row {
  id: string
  name: string
  scope: string
  prefix: string
  owner_id: string
  owner_username: string
  created_at: string
  expires_at: string | null
  last_used_at: string | null
}

async function _get(ex: SqlExecutor, id: string): Promise<ApiToken> {
  const row = await ex.get<_Row>(`SELECT ${COLUMNS} FROM ${FROM} WHERE t.id = ?`, [id])
  if (!row) throw notFound('token', id)
  return _view(row)
}

function _view(r: _Row): ApiToken {
  return {
    id: r.id,
    name: r.name,
    scope: r.scope as TokenScope,
    prefix: r.prefix,
    owner: { id: r.owner_id, username: r.owner_username },
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    lastUsedAt: r.last_used_at,
  }
}
