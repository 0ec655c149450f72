import { ComplibError } from '../../errors'
import { foldKey } from '../../identifiers'
import { createId } from '../../ids'
import type { Category, CategoryCreate, CategoryPatch } from '../../schemas/category'
import type { SqlExecutor } from '../_internal/sql-executor'
import type { CategoryStore } from '../types'
import { categorySubtree, checkVersion, conflict, notFound, now } from './_shared'
import { deleteTemplates, setTemplates, templatesForPath, templatesOf } from './category-templates'
import { touchComponent } from './component-core'
import type { StoreAccess, StoreRepo } from './repo'

/**
 * The category tree. A component keeps its category as a path
 * (`components.category`, what its view shows and filters match); the
 * records give each node an id, so a rename keeps the id and rewrites the
 * paths of the components in it and below it, bumping their versions like a
 * tag rename. Names compare by foldKey among siblings, in JavaScript: a
 * level holds few names, and both engines then compare alike.
 */
export const categories = {
  list: async (ex) => await _all(ex),

  get: async (ex, id) => await _get(ex, id),

  async create(ex, input: CategoryCreate) {
    const parentId = input.parentId ?? null
    if (parentId !== null && !(await ex.get('SELECT 1 FROM categories WHERE id = ?', [parentId]))) throw notFound('category', parentId)
    await _assertNameFree(ex, parentId, input.name, null)
    const id = await _insert(ex, parentId, input.name, now())
    return await _get(ex, id)
  },

  async update(ex, id, patch: CategoryPatch, options) {
    const current = await _get(ex, id)
    checkVersion('category', id, current.version, options?.ifVersion)
    if (patch.name === undefined || patch.name === current.name) return current
    await _assertNameFree(ex, current.parentId, patch.name, id)
    const at = now()
    await ex.run('UPDATE categories SET name = ?, updated_at = ?, version = version + 1 WHERE id = ?', [patch.name, at, id])
    const next = current.parentId === null ? patch.name : `${current.path.slice(0, current.path.length - current.name.length)}${patch.name}`
    // Every component in the category or below it, deleted ones too (a restore shows the new path);
    // the live ones get a new version and history entry, as when a tag they carry is renamed.
    const { sql: match, params } = categorySubtree(ex.dialect, 'category', current.path).range
    const live = (await ex.all<{ id: string }>(`SELECT id FROM components WHERE ${match} AND deleted_at IS NULL ORDER BY id`, params)).map((r) => r.id)
    await ex.run(`UPDATE components SET category = ? || substr(category, ?) WHERE ${match}`, [next, [...current.path].length + 1, ...params])
    for (const componentId of live) await touchComponent(ex, componentId, 'update', ['category'], at)
    return await _get(ex, id)
  },

  async delete(ex, id) {
    const current = await _get(ex, id)
    const child = await ex.get<{ id: string }>('SELECT id FROM categories WHERE parent_id = ? LIMIT 1', [id])
    if (child) throw new ComplibError('CONFLICT', `category ${current.path} has sub-categories (${child.id}); delete or rename them first`)
    if (current.count > 0) throw new ComplibError('CONFLICT', `category ${current.path} holds ${current.count} components; move them to another category first`)
    // Its own templates go with it; its sub-categories are gone already, so nothing inherits them.
    await deleteTemplates(ex, id)
    await ex.run('DELETE FROM categories WHERE id = ?', [id])
  },

  templates: async (ex, id) => await templatesOf(ex, id),

  setTemplates: async (ex, id, inputs) => await setTemplates(ex, id, inputs),

  templatesForPath: async (ex, path) => await templatesForPath(ex, path),
} satisfies StoreRepo<CategoryStore>

/** How each method uses the database (Access). */
export const categoryAccess = {
  list: 'snapshot',
  get: 'snapshot',
  create: 'write',
  update: 'write',
  delete: 'write',
  templates: 'snapshot',
  setTemplates: 'write',
  templatesForPath: 'snapshot',
} as const satisfies StoreAccess<CategoryStore>

/**
 * The category at `path` (names joined by `/`), made where missing, as its
 * path of stored names: `passives/resistors` becomes `Passives/Resistors`
 * when those exist, as a tag named on a component takes the tag's own name.
 */
export async function ensureCategoryPath(ex: SqlExecutor, path: string): Promise<string> {
  let parentId: string | null = null
  const names: string[] = []
  const at = now()
  for (const name of path.split('/')) {
    const found: { id: string; name: string } | undefined = await _child(ex, parentId, name)
    const id: string = found?.id ?? (await _insert(ex, parentId, name, at))
    names.push(found?.name ?? name)
    parentId = id
  }
  return names.join('/')
}

interface _Row {
  id: string
  name: string
  parent_id: string | null
  created_at: string
  updated_at: string
  version: number
}

async function _insert(ex: SqlExecutor, parentId: string | null, name: string, at: string): Promise<string> {
  const id = createId('category')
  await ex.run('INSERT INTO categories (id, name, parent_id, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, 1)', [id, name, parentId, at, at])
  return id
}

async function _child(ex: SqlExecutor, parentId: string | null, name: string): Promise<{ id: string; name: string } | undefined> {
  const key = foldKey(name)
  const siblings = await ex.all<{ id: string; name: string }>(`SELECT id, name FROM categories WHERE coalesce(parent_id, '') = ? ORDER BY id`, [parentId ?? ''])
  return siblings.find((s) => foldKey(s.name) === key)
}

async function _assertNameFree(ex: SqlExecutor, parentId: string | null, name: string, exceptId: string | null): Promise<void> {
  const taken = await _child(ex, parentId, name)
  if (taken && taken.id !== exceptId) throw conflict('body.name', `a category named ${taken.name} exists here (${taken.id})`)
}

/** Every category with its path and count, ordered by path (the tree is small: read whole). */
async function _all(ex: SqlExecutor): Promise<Category[]> {
  const rows = await ex.all<_Row>('SELECT id, name, parent_id, created_at, updated_at, version FROM categories')
  const byId = new Map(rows.map((r) => [r.id, r]))
  const paths = new Map<string, string>()
  const pathOf = (r: _Row): string => {
    let path = paths.get(r.id)
    if (path === undefined) {
      const parent = r.parent_id === null ? undefined : byId.get(r.parent_id)
      path = parent ? `${pathOf(parent)}/${r.name}` : r.name
      paths.set(r.id, path)
    }
    return path
  }
  // Live components per stored path, added to the category and each ancestor (paths compare by foldKey).
  const counts = new Map<string, number>()
  for (const { category, n } of await ex.all<{ category: string; n: number }>('SELECT category, count(*) AS n FROM components WHERE deleted_at IS NULL AND category IS NOT NULL GROUP BY category')) {
    const names = category.split('/')
    for (let i = 1; i <= names.length; i++) {
      const key = foldKey(names.slice(0, i).join('/'))
      counts.set(key, (counts.get(key) ?? 0) + Number(n))
    }
  }
  return rows
    .map((r) => {
      const path = pathOf(r)
      return { id: r.id, name: r.name, parentId: r.parent_id, path, count: counts.get(foldKey(path)) ?? 0, createdAt: r.created_at, updatedAt: r.updated_at, version: r.version }
    })
    .sort((a, b) => (a.path.toLowerCase() < b.path.toLowerCase() ? -1 : a.path.toLowerCase() > b.path.toLowerCase() ? 1 : a.id < b.id ? -1 : 1))
}

async function _get(ex: SqlExecutor, id: string): Promise<Category> {
  const found = (await _all(ex)).find((c) => c.id === id)
  if (!found) throw notFound('category', id)
  return found
}
