import { foldKey } from '../../identifiers'
import { createId } from '../../ids'
import type { Tag } from '../../schemas/tag'
import type { SqlExecutor } from '../_internal/sql-executor'
import type { TagStore } from '../types'
import { checkMerge, checkVersion, chunks, conflict, likeEscape, liveComponentIds, notFound, now, pageByName, placeholders } from './_shared'
import { findTag, setTags } from './component-children'
import { loadComponent, requireComponentRow, touchComponent } from './component-core'
import type { StoreAccess, StoreRepo } from './repo'

// `count` is computed per row of the page: tags are few, and a stored counter would
// have to follow every component delete, restore and purge.
const COLUMNS = `t.id AS id, t.name AS name, t.color AS color, t.description AS description,
  t.created_at AS created_at, t.updated_at AS updated_at, t.version AS version,
  (SELECT count(*) FROM component_tags ct JOIN components c ON c.id = ct.component_id
    WHERE ct.tag_id = t.id AND c.deleted_at IS NULL) AS count`

export const tags = {
  async list(ex, query) {
    const page = await pageByName<_Row>(ex, {
      select: COLUMNS,
      from: 'tags t',
      where: query.q ? [`t.name ${ex.dialect.ilike} ? ESCAPE '\\'`] : [],
      params: query.q ? [`%${likeEscape(query.q)}%`] : [],
      limit: query.limit,
      cursor: query.cursor,
      nameColumn: 't.name',
      idColumn: 't.id',
    })
    return { ...page, items: page.items.map(_view) }
  },

  get: async (ex, id) => await _get(ex, id),

  async create(ex, input) {
    await _assertNameFree(ex, input.name, null)
    const at = now()
    const id = createId('tag')
    await ex.run('INSERT INTO tags (id, name, name_key, color, description, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, 1)', [
      id,
      input.name,
      foldKey(input.name),
      input.color ?? null,
      input.description ?? null,
      at,
      at,
    ])
    return await _get(ex, id)
  },

  async update(ex, id, patch, options) {
    const current = await _get(ex, id)
    checkVersion('tag', id, current.version, options?.ifVersion)
    const next = {
      name: patch.name ?? current.name,
      color: patch.color === undefined ? current.color : patch.color,
      description: patch.description === undefined ? current.description : patch.description,
    }
    const renamed = next.name !== current.name
    if (renamed) await _assertNameFree(ex, next.name, id)
    // An unchanged record keeps its version, so an ETag stays valid after a no-op PATCH.
    if (!renamed && next.color === current.color && next.description === current.description) return current
    const at = now()
    // The key is written on a rename only: a tag kept from before foldKey holds none (identifier-keys.ts).
    await ex.run('UPDATE tags SET name = ?, name_key = coalesce(?, name_key), color = ?, description = ?, updated_at = ?, version = version + 1 WHERE id = ?', [
      next.name,
      renamed ? foldKey(next.name) : null,
      next.color,
      next.description,
      at,
      id,
    ])
    if (renamed) await _touch(ex, await _carriers(ex, [id]), at)
    return await _get(ex, id)
  },

  async delete(ex, id) {
    await _get(ex, id)
    const carriers = await _carriers(ex, [id])
    await ex.run('DELETE FROM component_tags WHERE tag_id = ?', [id])
    await ex.run('DELETE FROM tags WHERE id = ?', [id])
    await _touch(ex, carriers, now())
  },

  async merge(ex, targetId, sourceIds) {
    await checkMerge(ex, 'tags', 'tag', targetId, sourceIds)
    const sources = [...new Set(sourceIds)]
    const carriers = await _carriers(ex, sources)
    for (const sourceId of sources) {
      // A component carrying the source takes the target at the source's place; one
      // that already carries the target keeps it where it was and loses the source.
      await ex.run(
        'UPDATE component_tags SET tag_id = ? WHERE tag_id = ? AND NOT EXISTS (SELECT 1 FROM component_tags o WHERE o.component_id = component_tags.component_id AND o.tag_id = ?)',
        [targetId, sourceId, targetId],
      )
      await ex.run('DELETE FROM component_tags WHERE tag_id = ?', [sourceId])
      await ex.run('DELETE FROM tags WHERE id = ?', [sourceId])
    }
    const at = now()
    await ex.run('UPDATE tags SET updated_at = ?, version = version + 1 WHERE id = ?', [at, targetId])
    await _touch(ex, carriers, at)
    return await _get(ex, targetId)
  },

  async setForComponent(ex, componentId, names) {
    const current = await loadComponent(ex, componentId)
    if (await _sameTags(ex, componentId, names)) return current
    const at = now()
    await setTags(ex, componentId, names, at)
    return await touchComponent(ex, componentId, 'update', ['tags'], at)
  },

  async removeFromComponent(ex, componentId, tagId) {
    await requireComponentRow(ex, componentId)
    if (!await ex.get('SELECT 1 FROM component_tags WHERE component_id = ? AND tag_id = ?', [componentId, tagId])) {
      throw notFound(`component ${componentId} does not carry tag`, tagId)
    }
    await ex.run('DELETE FROM component_tags WHERE component_id = ? AND tag_id = ?', [componentId, tagId])
    return await touchComponent(ex, componentId, 'update', ['tags'])
  },
} satisfies StoreRepo<TagStore>

/** How each method uses the database (Access). */
export const tagAccess = { list: 'snapshot', get: 'read', create: 'write', update: 'write', delete: 'write', merge: 'write', setForComponent: 'write', removeFromComponent: 'write' } as const satisfies StoreAccess<TagStore>

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

async function _get(ex: SqlExecutor, id: string): Promise<Tag> {
  const row = await ex.get<_Row>(`SELECT ${COLUMNS} FROM tags t WHERE t.id = ?`, [id])
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

async function _assertNameFree(ex: SqlExecutor, name: string, exceptId: string | null): Promise<void> {
  const row = await ex.get<{ id: string; name: string }>('SELECT id, name FROM tags WHERE name_key = ? AND id IS DISTINCT FROM ?', [foldKey(name), exceptId])
  if (row) throw conflict('body.name', `a tag named ${row.name} exists (${row.id})`)
}

/** Live components carrying any of the tags, in id order. */
async function _carriers(ex: SqlExecutor, tagIds: readonly string[]): Promise<string[]> {
  const ids: string[] = []
  for (const part of chunks(tagIds)) {
    ids.push(...(await ex.all<{ component_id: string }>(`SELECT component_id FROM component_tags WHERE tag_id IN (${placeholders(part.length)})`, part)).map((r) => r.component_id))
  }
  return await liveComponentIds(ex, ids)
}

async function _touch(ex: SqlExecutor, componentIds: readonly string[], at: string): Promise<void> {
  for (const id of componentIds) await touchComponent(ex, id, 'update', ['tags'], at)
}

/**
 * Whether `names` would give the component the tags it already has, in the same
 * order. Read-only, so an unchanged list writes nothing and bumps nothing.
 */
async function _sameTags(ex: SqlExecutor, componentId: string, names: readonly string[]): Promise<boolean> {
  const current = (await ex.all<{ tag_id: string }>('SELECT tag_id FROM component_tags WHERE component_id = ? ORDER BY position', [componentId])).map((r) => r.tag_id)
  const wanted: string[] = []
  for (const name of names) {
    const id = await findTag(ex, name)
    if (!id) return false
    if (!wanted.includes(id)) wanted.push(id)
  }
  return wanted.length === current.length && wanted.every((id, i) => id === current[i])
}
