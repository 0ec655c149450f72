import { createId } from '../../ids'
import type { SqlExecutor } from '../_internal/sql-executor'
import type { DocumentRecord, DocumentStore } from '../types'
import { checkVersion, notFound, now } from './_shared'
import type { StoreAccess, StoreRepo } from './repo'

const KINDS = { jobs: { id: 'job', name: 'job' }, imports: { id: 'import', name: 'import' } } as const

/** Jobs and import sessions: small JSON documents in one table, told apart by collection. */
export function documents(collection: 'jobs' | 'imports'): StoreRepo<DocumentStore<DocumentRecord>> {
  const kind = KINDS[collection]
  const get = async (ex: SqlExecutor, id: string): Promise<DocumentRecord> => {
    const row = await ex.get<_Row>('SELECT * FROM documents WHERE id = ? AND collection = ?', [id, collection])
    if (!row) throw notFound(kind.name, id)
    return { id: row.id, kind: row.kind, status: row.status, data: JSON.parse(row.data) as Record<string, unknown>, createdAt: row.created_at, updatedAt: row.updated_at, version: row.version }
  }
  return {
    async create(ex, input) {
      const at = now()
      const id = createId(kind.id)
      await ex.run('INSERT INTO documents (id, collection, kind, status, data, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, 1)', [
        id,
        collection,
        input.kind,
        input.status,
        JSON.stringify(input.data),
        at,
        at,
      ])
      return await get(ex, id)
    },
    get,
    async update(ex, id, patch, options) {
      const current = await get(ex, id)
      checkVersion(kind.name, id, current.version, options?.ifVersion)
      await ex.run('UPDATE documents SET status = ?, data = ?, updated_at = ?, version = version + 1 WHERE id = ?', [
        patch.status ?? current.status,
        JSON.stringify(patch.data ?? current.data),
        now(),
        id,
      ])
      return await get(ex, id)
    },
    async delete(ex, id) {
      await get(ex, id)
      await ex.run('DELETE FROM documents WHERE id = ?', [id])
    },
  }
}

interface _Row {
  id: string
  kind: string
  status: string
  data: string
  created_at: string
  updated_at: string
  version: number
}

/** How each method uses the database (Access). */
export const documentAccess = { get: 'read', create: 'write', update: 'write', delete: 'write' } as const satisfies StoreAccess<DocumentStore<DocumentRecord>>
