import { createId } from '../../ids'
import type { SourceRefresh } from '../../schemas/source'
import type { SqlExecutor } from '../_internal/sql-executor'
import type { SourceStore, StoredSource } from '../types'
import { checkVersion, notFound, now, pageById } from './_shared'
import type { StoreAccess, StoreRepo } from './repo'

/** Configured inbound sources (decision 1600); secrets in their own column, so a backup can drop them (decision 1604). */
export const sources = {
  list: async (ex, page) => await pageById<_Row, StoredSource>(ex, { table: 'sources', limit: page.limit, cursor: page.cursor, map: (rows) => rows.map(_view) }),

  get: async (ex, id) => await _get(ex, id),

  async create(ex, input) {
    const at = now()
    const id = createId('source')
    await ex.run('INSERT INTO sources (id, type, name, config, secrets, refresh, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)', [
      id,
      input.type,
      input.name,
      JSON.stringify(input.config),
      JSON.stringify(input.secrets),
      input.refresh ? JSON.stringify(input.refresh) : null,
      at,
      at,
    ])
    return await _get(ex, id)
  },

  async update(ex, id, patch, options) {
    const current = await _get(ex, id)
    checkVersion('source', id, current.version, options?.ifVersion)
    const refresh = patch.refresh === undefined ? current.refresh : patch.refresh
    await ex.run('UPDATE sources SET name = ?, config = ?, secrets = ?, refresh = ?, updated_at = ?, version = version + 1 WHERE id = ?', [
      patch.name ?? current.name,
      JSON.stringify(patch.config ?? current.config),
      JSON.stringify(patch.secrets ?? current.secrets),
      refresh ? JSON.stringify(refresh) : null,
      now(),
      id,
    ])
    return await _get(ex, id)
  },

  async delete(ex, id) {
    await _get(ex, id)
    await ex.run('DELETE FROM sources WHERE id = ?', [id])
  },
} satisfies StoreRepo<SourceStore>

/** How each method uses the database (Access). */
export const sourceAccess = { list: 'snapshot', get: 'read', create: 'write', update: 'write', delete: 'write' } as const satisfies StoreAccess<SourceStore>

interface _Row {
  id: string
  type: string
  name: string
  config: string
  secrets: string
  refresh: string | null
  created_at: string
  updated_at: string
  version: number
}

async function _get(ex: SqlExecutor, id: string): Promise<StoredSource> {
  const row = await ex.get<_Row>('SELECT * FROM sources WHERE id = ?', [id])
  if (!row) throw notFound('source', id)
  return _view(row)
}

function _view(r: _Row): StoredSource {
  return {
    id: r.id,
    type: r.type,
    name: r.name,
    config: JSON.parse(r.config) as Record<string, unknown>,
    secrets: JSON.parse(r.secrets) as Record<string, string>,
    refresh: r.refresh === null ? null : (JSON.parse(r.refresh) as SourceRefresh),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: Number(r.version),
  }
}
