import { foldKey } from '../../identifiers'
import { createId } from '../../ids'
import type { Tag } from '../../schemas'
import type { SqlExecutor } from '../_internal/sql-executor'
import type { TagStore } from '../types'
import { checkMerge, checkVersion, chunks, conflict, likeEscape, liveComponentIds, notFound, now, pageByName, placeholders } from './_shared'
import { findTag, setTags } from './component-children'
import { loadComponent, requireComponentRow, touchComponent } from './component-core'
import type { SyncRepo } from './repo'

// `count` is computed per row of the page: tags are few, and a stored counter would
// have to follow every component delete, restore and purge.
const COLUMNS = `t.id AS id, t.name AS name, t.color AS color, t.description AS description,
  t.created_at AS created_at, t.updated_at AS updated_at, t.version AS version,
  (SELECT count(*) FROM component_tags ct JOIN components c ON c.id = ct.component_id
    WHERE ct.tag_id = t.id AND c.deleted_at IS NULL) AS count`

export const tags = {
  list(ex, query) {
    const page = pageByName<_Row>(ex, {
      select: COLUMNS,
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
    ex.run('INSERT INTO tags (id, name, name_key, color, description, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, 1)', [
      id,
      input.name,
      foldKey(input.name),
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
    const next = {
      name: patch.name ?? current.name,
      color: patch.color === undefined ? current.color : patch.color,
      description: patch.description === undefined ? current.description : patch.description,
    }
    const renamed = next.name !== current.name
    if (renamed) _assertNameFree(ex, next.name, id)
    // An unchanged record keeps its version, so an ETag stays valid after a no-op PATCH.
    if (!renamed && next.color === current.color && next.description === current.description) return current
    const at = now()
    // The key is written on a rename only: a tag kept from before foldKey holds none (identifier-keys.ts).
    ex.run('UPDATE tags SET name = ?, name_key = coalesce(?, name_key), color = ?, description = ?, updated_at = ?, version = version + 1 WHERE id = ?', [
      next.name,
      renamed ? foldKey(next.name) : null,
      next.color,
      next.description,
      at,
      id,
    ])
    if (renamed) _touch(ex, _carriers(ex, [id]), at)
    return _get(ex, id)
  },

  delete(ex, id) {
    _get(ex, id)
    const carriers = _carriers(ex, [id])
    ex.run('DELETE FROM component_tags WHERE tag_id = ?', [id])
    ex.run('DELETE FROM tags WHERE id = ?', [id])
    _touch(ex, carriers, now())
  },

  merge(ex, targetId, sourceIds) {
    checkMerge(ex, 'tags', 'tag', targetId, sourceIds)
    const sources = [...new Set(sourceIds)]
    const carriers = _carriers(ex, sources)
    for (const sourceId of sources) {
      // A component carrying the source takes the target at the source's place; one
      // that already carries the target keeps it where it was and loses the source.
      ex.run('UPDATE OR IGNORE component_tags SET tag_id = ? WHERE tag_id = ?', [targetId, sourceId])
      ex.run('DELETE FROM component_tags WHERE tag_id = ?', [sourceId])
      ex.run('DELETE FROM tags WHERE id = ?', [sourceId])
    }
    const at = now()
    ex.run('UPDATE tags SET updated_at = ?, version = version + 1 WHERE id = ?', [at, targetId])
    _touch(ex, carriers, at)
    return _get(ex, targetId)
  },

  setForComponent(ex, componentId, names) {
    const current = loadComponent(ex, componentId)
    if (_sameTags(ex, componentId, names)) return current
    const at = now()
    setTags(ex, componentId, names, at)
    return touchComponent(ex, componentId, 'update', ['tags'], at)
  },

  removeFromComponent(ex, componentId, tagId) {
    requireComponentRow(ex, componentId)
    if (!ex.get('SELECT 1 FROM component_tags WHERE component_id = ? AND tag_id = ?', [componentId, tagId])) {
      throw notFound(`component ${componentId} does not carry tag`, tagId)
    }
    ex.run('DELETE FROM component_tags WHERE component_id = ? AND tag_id = ?', [componentId, tagId])
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
  const row = ex.get<_Row>(`SELECT ${COLUMNS} FROM tags t WHERE t.id = ?`, [id])
  if (!row) throw notFound('tag', id)
  return _view(row)
}

function _view(r: _Row): Tag {
  return {
    id: r.id,
    name: r.name,
    color: r.color,
    description: r.description,
    count: r.count,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
  }
}

function _assertNameFree(ex: SqlExecutor, name: string, exceptId: string | null): void {
  const row = ex.get<{ id: string; name: string }>('SELECT id, name FROM tags WHERE name_key = ? AND id IS NOT ?', [foldKey(name), exceptId])
  if (row) throw conflict('body.name', `a tag named ${row.name} exists (${row.id})`)
}

/** Live components carrying any of the tags, in id order. */
function _carriers(ex: SqlExecutor, tagIds: readonly string[]): string[] {
  const ids: string[] = []
  for (const part of chunks(tagIds)) {
    ids.push(...ex.all<{ component_id: string }>(`SELECT component_id FROM component_tags WHERE tag_id IN (${placeholders(part.length)})`, part).map((r) => r.component_id))
  }
  return liveComponentIds(ex, ids)
}

function _touch(ex: SqlExecutor, componentIds: readonly string[], at: string): void {
  for (const id of componentIds) touchComponent(ex, id, 'update', ['tags'], at)
}

/**
 * Whether `names` would give the component the tags it already has, in the same
 * order. Read-only, so an unchanged list writes nothing and bumps nothing.
 */
function _sameTags(ex: SqlExecutor, componentId: string, names: readonly string[]): boolean {
  const current = ex.all<{ tag_id: string }>('SELECT tag_id FROM component_tags WHERE component_id = ? ORDER BY position', [componentId]).map((r) => r.tag_id)
  const wanted: string[] = []
  for (const name of names) {
    const id = findTag(ex, name)
    if (!id) return false
    if (!wanted.includes(id)) wanted.push(id)
  }
  return wanted.length === current.length && wanted.every((id, i) => id === current[i])
}
