import { createId } from '../../ids'
import type { Tag } from '../../schemas'
import type { SqlExecutor } from '../_internal/sql-executor'
import type { TagStore } from '../types'
import { checkMerge, checkVersion, conflict, likeEscape, liveComponentIds, notFound, now, pageByName } from './_shared'
import { setTags } from './component-children'
import { loadComponent, requireComponentRow, touchComponent } from './component-core'
import type { SyncRepo } from './repo'

const SELECT = `t.id AS id, t.name AS name, t.color AS color, t.description AS description, t.created_at AS created_at, t.updated_at AS updated_at, t.version AS version,
  (SELECT count(*) FROM component_tags ct JOIN components c ON c.id = ct.component_id WHERE ct.tag_id = t.id AND c.deleted_at IS NULL) AS count`

export const tags = {
  list(ex, query) {
    const page = pageByName<_Row>(ex, {
      select: SELECT,
      from: 'tags t',
      where: query.q ? [`t.name LIKE ? ESCAPE '\\'`] : [],
      params: query.q ? [`%${likeEscape(query.q)}%`] : [],
      limit: query.limit,
      cursor: query.cursor,
      nameColumn: 't.name',
      idColumn: 't.id',
    })
    return { ...page, items: page.items.map(_view) }
  },

  get: (ex, id) => _get(ex, id),

  create(ex, input) {
    _assertNameFree(ex, input.name, null)
    const at = now()
    const id = createId('tag')
    ex.run('INSERT INTO tags (id, name, color, description, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, 1)', [
      id,
      input.name,
      input.color ?? null,
      input.description ?? null,
      at,
      at,
    ])
    return _get(ex, id)
  },

  update(ex, id, patch, options) {
    const current = _get(ex, id)
    checkVersion('tag', id, current.version, options?.ifVersion)
    const renamed = patch.name !== undefined && patch.name !== current.name
    if (renamed) _assertNameFree(ex, patch.name!, id)
    const next = { name: patch.name ?? current.name, color: patch.color === undefined ? current.color : patch.color, description: patch.description === undefined ? current.description : patch.description }
    if (next.name === current.name && next.color === current.color && next.description === current.description) return current
    const at = now()
    ex.run('UPDATE tags SET name = ?, color = ?, description = ?, updated_at = ?, version = version + 1 WHERE id = ?', [next.name, next.color, next.description, at, id])
    if (renamed) for (const cid of _carriers(ex, [id])) touchComponent(ex, cid, 'update', ['tags'], at)
    return _get(ex, id)
  },

  delete(ex, id) {
    _get(ex, id)
    const carriers = _carriers(ex, [id])
    ex.run('DELETE FROM tags WHERE id = ?', [id])
    const at = now()
    for (const cid of carriers) touchComponent(ex, cid, 'update', ['tags'], at)
  },

  merge(ex, targetId, sourceIds) {
    checkMerge(ex, 'tags', 'tag', targetId, sourceIds)
    const carriers = _carriers(ex, sourceIds)
    for (const sourceId of sourceIds) {
      // Components carrying a source get the target once, at the source's position.
      ex.run('UPDATE OR IGNORE component_tags SET tag_id = ? WHERE tag_id = ?', [targetId, sourceId])
      ex.run('DELETE FROM tags WHERE id = ?', [sourceId])
    }
    const at = now()
    ex.run('UPDATE tags SET updated_at = ?, version = version + 1 WHERE id = ?', [at, targetId])
    for (const cid of carriers) touchComponent(ex, cid, 'update', ['tags'], at)
    return _get(ex, targetId)
  },

  setForComponent(ex, componentId, names) {
    const current = loadComponent(ex, componentId)
    const at = now()
    setTags(ex, componentId, names, at)
    const after = loadComponent(ex, componentId)
    if (JSON.stringify(after.tags) === JSON.stringify(current.tags)) return current
    return touchComponent(ex, componentId, 'update', ['tags'], at)
  },

  removeFromComponent(ex, componentId, tagId) {
    requireComponentRow(ex, componentId)
    const { changes } = ex.run('DELETE FROM component_tags WHERE component_id = ? AND tag_id = ?', [componentId, tagId])
    if (changes === 0) throw notFound(`tag on component ${componentId}:`, tagId)
    return touchComponent(ex, componentId, 'update', ['tags'])
  },
} satisfies SyncRepo<TagStore>

interface _Row {
  id: string
  name: string
  color: string | null
  description: string | null
  created_at: string
  updated_at: string
  version: number
  count: number
}

function _get(ex: SqlExecutor, id: string): Tag {
  const row = ex.get<_Row>(`SELECT ${SELECT} FROM tags t WHERE t.id = ?`, [id])
  if (!row) throw notFound('tag', id)
  return _view(row)
}

function _view(r: _Row): Tag {
  return { id: r.id, name: r.name, color: r.color, description: r.description, count: r.count, createdAt: r.created_at, updatedAt: r.updated_at, version: r.version }
}

function _assertNameFree(ex: SqlExecutor, name: string, exceptId: string | null): void {
  const row = ex.get<{ id: string }>('SELECT id FROM tags WHERE name = ? AND id IS NOT ?', [name, exceptId])
  if (row) throw conflict('body.name', `a tag named ${name} exists (${row.id})`)
}

/** Live components carrying any of the tags. */
function _carriers(ex: SqlExecutor, tagIds: readonly string[]): string[] {
  const ids = tagIds.flatMap((tagId) => ex.all<{ component_id: string }>('SELECT component_id FROM component_tags WHERE tag_id = ?', [tagId]).map((r) => r.component_id))
  return liveComponentIds(ex, ids)
}
