import { ComplibError } from '../../errors'
import { createId } from '../../ids'
import type { Attachment } from '../../schemas/attachment'
import type { SqlExecutor, SqlParam } from '../_internal/sql-executor'
import type { AttachmentStore } from '../types'
import { checkVersion, notFound, now, pageById } from './_shared'
import { requireComponentRow, touchComponent } from './component-core'
import type { StoreAccess, StoreRepo } from './repo'

export const attachments = {
  async list(ex, query) {
    const where: string[] = []
    const params: SqlParam[] = []
    if (query.componentId) {
      where.push('component_id = ?')
      params.push(query.componentId)
    }
    if (query.kind) {
      where.push('kind = ?')
      params.push(query.kind)
    }
    return await pageById<_Row, Attachment>(ex, { table: 'attachments', where, params, limit: query.limit, cursor: query.cursor, map: (rows) => rows.map(_view) })
  },

  async listForComponent(ex, componentId) {
    await requireComponentRow(ex, componentId)
    return (await ex.all<_Row>('SELECT * FROM attachments WHERE component_id = ? ORDER BY id', [componentId])).map(_view)
  },

  get: async (ex, id) => await _get(ex, id),

  async create(ex, input) {
    if (input.componentId !== null) await _assertLiveComponent(ex, input.componentId)
    const at = now()
    const id = createId('attachment')
    await ex.run(
      'INSERT INTO attachments (id, component_id, name, kind, content_type, size, sha256, url, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)',
      [id, input.componentId, input.name, input.kind, input.contentType, input.size, input.sha256, input.url, at, at],
    )
    if (input.componentId !== null) await touchComponent(ex, input.componentId, 'update', ['attachments'], at)
    return await _get(ex, id)
  },

  async update(ex, id, patch, options) {
    const current = await _get(ex, id)
    checkVersion('attachment', id, current.version, options?.ifVersion)
    const next = {
      name: patch.name ?? current.name,
      kind: patch.kind ?? current.kind,
      componentId: patch.componentId === undefined ? current.componentId : patch.componentId,
    }
    if (next.name === current.name && next.kind === current.kind && next.componentId === current.componentId) return current
    if (next.componentId !== null && next.componentId !== current.componentId) await _assertLiveComponent(ex, next.componentId)
    const at = now()
    await ex.run('UPDATE attachments SET name = ?, kind = ?, component_id = ?, updated_at = ?, version = version + 1 WHERE id = ?', [next.name, next.kind, next.componentId, at, id])
    // Components show an attachment's id and name only: a new kind changes no component view.
    if (next.name === current.name && next.componentId === current.componentId) return await _get(ex, id)
    // The component(s) showing it: the old one loses it or sees the new name, the new one gains it.
    for (const cid of new Set([current.componentId, next.componentId])) {
      if (cid && await ex.get('SELECT 1 FROM components WHERE id = ? AND deleted_at IS NULL', [cid])) await touchComponent(ex, cid, 'update', ['attachments'], at)
    }
    return await _get(ex, id)
  },

  async delete(ex, id) {
    const current = await _get(ex, id)
    await ex.run('DELETE FROM attachments WHERE id = ?', [id])
    if (current.componentId && await ex.get('SELECT 1 FROM components WHERE id = ? AND deleted_at IS NULL', [current.componentId])) {
      await touchComponent(ex, current.componentId, 'update', ['attachments'])
    }
    return current
  },

  countBySha256: async (ex, sha256) => (await ex.get<{ n: number }>('SELECT count(*) AS n FROM attachments WHERE sha256 = ?', [sha256]))!.n,
} satisfies StoreRepo<AttachmentStore>

/** How each method uses the database (Access). */
export const attachmentAccess = { list: 'snapshot', listForComponent: 'snapshot', get: 'read', countBySha256: 'read', create: 'write', update: 'write', delete: 'write' } as const satisfies StoreAccess<AttachmentStore>

interface _Row {
  id: string
  component_id: string | null
  name: string
  kind: Attachment['kind']
  content_type: string
  size: number | null
  sha256: string | null
  url: string | null
  created_at: string
  updated_at: string
  version: number
}

async function _get(ex: SqlExecutor, id: string): Promise<Attachment> {
  const row = await ex.get<_Row>('SELECT * FROM attachments WHERE id = ?', [id])
  if (!row) throw notFound('attachment', id)
  return _view(row)
}

function _view(r: _Row): Attachment {
  return {
    id: r.id,
    componentId: r.component_id,
    name: r.name,
    kind: r.kind,
    contentType: r.content_type,
    size: r.size,
    sha256: r.sha256,
    url: r.url,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
  }
}

async function _assertLiveComponent(ex: SqlExecutor, componentId: string): Promise<void> {
  if (!await ex.get('SELECT 1 FROM components WHERE id = ? AND deleted_at IS NULL', [componentId])) {
    const message = `component ${componentId} does not exist`
    throw new ComplibError('VALIDATION_FAILED', `body.componentId: ${message}`, { errors: [{ path: 'body.componentId', message }] })
  }
}
