import { ComplibError } from '../../errors'
import { createId } from '../../ids'
import type { SqlExecutor } from '../_internal/sql-executor'
import type { ConnectorStore, StoredConnector } from '../types'
import { checkVersion, notFound, now, pageById } from './_shared'
import type { StoreAccess, StoreRepo } from './repo'

export const connectors = {
  list: async (ex, page) => await pageById<_Row, StoredConnector>(ex, { table: 'connectors', limit: page.limit, cursor: page.cursor, map: (rows) => rows.map(_view) }),

  get: async (ex, id) => await _get(ex, id),

  async create(ex, input) {
    const at = now()
    const id = createId('connector')
    await ex.run(
      'INSERT INTO connectors (id, type, name, enabled, config, secret, previous_secret, previous_secret_expires_at, code, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, 1)',
      [id, input.type, input.name, input.enabled ? 1 : 0, JSON.stringify(input.config), input.secret, input.code, at, at],
    )
    return await _get(ex, id)
  },

  async update(ex, id, patch, options) {
    const current = await _get(ex, id)
    checkVersion('connector', id, current.version, options?.ifVersion)
    await ex.run('UPDATE connectors SET name = ?, enabled = ?, config = ?, code = ?, updated_at = ?, version = version + 1 WHERE id = ?', [
      patch.name ?? current.name,
      (patch.enabled ?? current.enabled) ? 1 : 0,
      JSON.stringify(patch.config ?? current.config),
      patch.code === undefined ? current.code : patch.code,
      now(),
      id,
    ])
    return await _get(ex, id)
  },

  async delete(ex, id) {
    await _get(ex, id)
    // Checked in the delete's own write transaction, as runs.create checks the connector in
    // its own: writes take turns on either engine (decision 0305), so a run created first is
    // seen here, and a run created after finds no connector. Never both (decision 0318).
    const busy = await ex.get<{ id: string }>(`SELECT id FROM runs WHERE connector_id = ? AND status IN ('queued', 'running') ORDER BY id LIMIT 1`, [id])
    if (busy) throw new ComplibError('CONFLICT', `connector ${id} has an active run ${busy.id}; cancel it first`)
    await ex.run('DELETE FROM connectors WHERE id = ?', [id])
  },

  async rotateSecret(ex, id, secret, previousExpiresAt) {
    const current = await _get(ex, id)
    await ex.run('UPDATE connectors SET secret = ?, previous_secret = ?, previous_secret_expires_at = ?, updated_at = ?, version = version + 1 WHERE id = ?', [
      secret,
      current.secret,
      previousExpiresAt,
      now(),
      id,
    ])
    return await _get(ex, id)
  },
} satisfies StoreRepo<ConnectorStore>

/** How each method uses the database (Access). */
export const connectorAccess = { list: 'snapshot', get: 'read', create: 'write', update: 'write', delete: 'write', rotateSecret: 'write' } as const satisfies StoreAccess<ConnectorStore>

interface _Row {
  id: string
  type: string
  name: string
  enabled: number
  config: string
  secret: string | null
  previous_secret: string | null
  previous_secret_expires_at: string | null
  code: string | null
  created_at: string
  updated_at: string
  version: number
}

async function _get(ex: SqlExecutor, id: string): Promise<StoredConnector> {
  const row = await ex.get<_Row>('SELECT * FROM connectors WHERE id = ?', [id])
  if (!row) throw notFound('connector', id)
  return _view(row)
}

function _view(r: _Row): StoredConnector {
  return {
    id: r.id,
    type: r.type,
    name: r.name,
    enabled: r.enabled === 1,
    config: JSON.parse(r.config) as Record<string, unknown>,
    secret: r.secret,
    previousSecret: r.previous_secret,
    previousSecretExpiresAt: r.previous_secret_expires_at,
    code: r.code,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
  }
}
