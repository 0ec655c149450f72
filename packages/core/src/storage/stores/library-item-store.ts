import { ComplibError } from '../../errors'
import { createId } from '../../ids'
import type { Footprint, Symbol } from '../../schemas/library-item'
import type { SqlExecutor, SqlParam } from '../_internal/sql-executor'
import type { LibraryItemStore } from '../types'
import { checkVersion, likeEscape, liveComponentIds, notFound, now, pageByName, pageById } from './_shared'
import { LINK_TABLES } from './component-children'
import { loadComponent, loadComponentList, requireComponentRow, touchComponent } from './component-core'
import type { StoreAccess, StoreRepo } from './repo'

function _columns(ex: SqlExecutor): string {
  return `id, name, library, description, file_name, ${ex.dialect.byteLength('content')} AS file_size, created_at, updated_at, version`
}
const EXTENSION = { symbol: '.kicad_sym', footprint: '.kicad_mod' } as const

/** The store of symbols or footprints: one implementation, two tables. */
export function libraryItems(kind: 'symbol'): StoreRepo<LibraryItemStore<Symbol>>
export function libraryItems(kind: 'footprint'): StoreRepo<LibraryItemStore<Footprint>>
export function libraryItems(kind: 'symbol' | 'footprint'): StoreRepo<LibraryItemStore<Symbol | Footprint>> {
  const { items: table, links, field } = LINK_TABLES[kind]
  const get = async (ex: SqlExecutor, id: string): Promise<Symbol> => {
    const row = await ex.get<_Row>(`SELECT ${_columns(ex)} FROM ${table} WHERE id = ?`, [id])
    if (!row) throw notFound(kind, id)
    return _view(row)
  }
  const linkedLive = async (ex: SqlExecutor, id: string) => await liveComponentIds(ex, (await ex.all<{ component_id: string }>(`SELECT component_id FROM ${links} WHERE item_id = ?`, [id])).map((r) => r.component_id))

  return {
    async list(ex, query) {
      const where: string[] = []
      const params: SqlParam[] = []
      if (query.q) {
        where.push(`(name ${ex.dialect.ilike} ? ESCAPE '\\' OR library ${ex.dialect.ilike} ? ESCAPE '\\')`)
        params.push(`%${likeEscape(query.q)}%`, `%${likeEscape(query.q)}%`)
      }
      if (query.library) {
        where.push('library = ?')
        params.push(query.library)
      }
      const page = await pageByName<_Row>(ex, { select: _columns(ex), from: table, where, params, limit: query.limit, cursor: query.cursor })
      return { ...page, items: page.items.map(_view) }
    },

    get,

    async create(ex, input) {
      const at = now()
      const id = createId(kind)
      const content = input.content ?? null
      const fileName = input.fileName ?? (content !== null ? `${input.name}${EXTENSION[kind]}` : null)
      await ex.run(`INSERT INTO ${table} (id, name, library, description, file_name, content, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)`, [
        id,
        input.name,
        input.library ?? null,
        input.description ?? null,
        fileName,
        content,
        at,
        at,
      ])
      return await get(ex, id)
    },

    async update(ex, id, patch, options) {
      const current = await get(ex, id)
      checkVersion(kind, id, current.version, options?.ifVersion)
      const stored = (await ex.get<{ content: string | null }>(`SELECT content FROM ${table} WHERE id = ?`, [id]))!.content
      const next = {
        name: patch.name ?? current.name,
        library: patch.library === undefined ? current.library : patch.library,
        description: patch.description === undefined ? current.description : patch.description,
        fileName: patch.fileName === undefined ? current.fileName : patch.fileName,
        content: patch.content === undefined ? stored : patch.content,
      }
      // A file needs a name to be served under: the one create would have given it.
      if (next.content !== null && next.fileName === null) next.fileName = `${next.name}${EXTENSION[kind]}`
      const same =
        next.name === current.name && next.library === current.library && next.description === current.description && next.fileName === current.fileName && next.content === stored
      if (same) return current
      const at = now()
      await ex.run(`UPDATE ${table} SET name = ?, library = ?, description = ?, file_name = ?, content = ?, updated_at = ?, version = version + 1 WHERE id = ?`, [
        next.name,
        next.library,
        next.description,
        next.fileName,
        next.content,
        at,
        id,
      ])
      if (next.name !== current.name) for (const cid of await linkedLive(ex, id)) await touchComponent(ex, cid, 'update', [field], at)
      return await get(ex, id)
    },

    async delete(ex, id, options) {
      const current = await get(ex, id)
      checkVersion(kind, id, current.version, options?.ifVersion)
      const linked = (await ex.get<{ n: number }>(`SELECT count(*) AS n FROM ${links} WHERE item_id = ?`, [id]))!.n
      if (linked > 0 && !options?.force) {
        throw new ComplibError('CONFLICT', `${kind} ${id} is linked to ${linked} components; unlink them first or delete with force=true`)
      }
      const affected = await linkedLive(ex, id)
      await ex.run(`DELETE FROM ${table} WHERE id = ?`, [id])
      const at = now()
      for (const cid of affected) await touchComponent(ex, cid, 'update', [field], at)
    },

    async getFile(ex, id) {
      await get(ex, id)
      const row = (await ex.get<{ file_name: string | null; content: string | null }>(`SELECT file_name, content FROM ${table} WHERE id = ?`, [id]))!
      if (row.content === null) throw new ComplibError('NOT_FOUND', `${kind} ${id} has no file`)
      return { fileName: row.file_name ?? `${id}${EXTENSION[kind]}`, content: row.content }
    },

    async components(ex, id, page) {
      await get(ex, id)
      return await pageById<{ id: string }, Awaited<ReturnType<typeof loadComponentList>>[number]>(ex, {
        table: `(SELECT c.id AS id FROM ${links} l JOIN components c ON c.id = l.component_id WHERE l.item_id = ? AND c.deleted_at IS NULL) AS linked`,
        params: [id],
        limit: page.limit,
        cursor: page.cursor,
              map: async (rows) => await loadComponentList(ex, rows.map((r) => r.id)),
      })
    },

    async link(ex, componentId, itemId) {
      await requireComponentRow(ex, componentId)
      await get(ex, itemId)
      if (await ex.get(`SELECT 1 FROM ${links} WHERE component_id = ? AND item_id = ?`, [componentId, itemId])) return await loadComponent(ex, componentId)
      const position = (await ex.get<{ n: number }>(`SELECT coalesce(max(position) + 1, 0) AS n FROM ${links} WHERE component_id = ?`, [componentId]))!.n
      await ex.run(`INSERT INTO ${links} (component_id, item_id, position) VALUES (?, ?, ?)`, [componentId, itemId, position])
      return await touchComponent(ex, componentId, 'update', [field])
    },

    async unlink(ex, componentId, itemId) {
      await requireComponentRow(ex, componentId)
      const { changes } = await ex.run(`DELETE FROM ${links} WHERE component_id = ? AND item_id = ?`, [componentId, itemId])
      if (changes === 0) throw new ComplibError('NOT_FOUND', `${kind} ${itemId} is not linked to component ${componentId}`)
      return await touchComponent(ex, componentId, 'update', [field])
    },
  }
}

interface _Row {
  id: string
  name: string
  library: string | null
  description: string | null
  file_name: string | null
  file_size: number | null
  created_at: string
  updated_at: string
  version: number
}

function _view(r: _Row): Symbol {
  return {
    id: r.id,
    name: r.name,
    library: r.library,
    description: r.description,
    fileName: r.file_name,
    fileSize: r.file_size,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
  }
}

/** How each method uses the database (Access). */
export const libraryItemAccess = {
  list: 'snapshot',
  get: 'read',
  getFile: 'snapshot',
  components: 'snapshot',
  create: 'write',
  update: 'write',
  delete: 'write',
  link: 'write',
  unlink: 'write',
} as const satisfies StoreAccess<LibraryItemStore<Symbol | Footprint>>
