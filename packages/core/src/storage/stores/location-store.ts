import { ComplibError } from '../../errors'
import { foldKey } from '../../identifiers'
import { createId } from '../../ids'
import type { Location, LocationTreeNode, StockEntry } from '../../schemas/location'
import type { SqlExecutor, SqlParam } from '../_internal/sql-executor'
import type { LocationStore } from '../types'
import { checkVersion, conflict, likeEscape, notFound, now, pageByName } from './_shared'
import { requireComponentRow } from './component-core'
import type { StoreAccess, StoreRepo } from './repo'

export const locations = {
  async list(ex, query) {
    const where: string[] = []
    const params: SqlParam[] = []
    if (query.q) {
      where.push(`name ${ex.dialect.ilike} ? ESCAPE '\\'`)
      params.push(`%${likeEscape(query.q)}%`)
    }
    if (query.parentId === null) where.push('parent_id IS NULL')
    else if (query.parentId !== undefined) {
      where.push('parent_id = ?')
      params.push(query.parentId)
    }
    const page = await pageByName<_Row>(ex, { select: '*', from: 'locations', where, params, limit: query.limit, cursor: query.cursor })
    const paths = await _paths(ex)
    return { ...page, items: page.items.map((r) => _view(r, paths)) }
  },

  async tree(ex) {
    const rows = await ex.all<_Row>(`SELECT * FROM locations ORDER BY ${ex.dialect.nocase('name')}, id`)
    const paths = await _paths(ex, rows)
    const nodes = new Map<string, LocationTreeNode>(rows.map((r) => [r.id, { ..._view(r, paths), children: [] }]))
    const roots: LocationTreeNode[] = []
    for (const r of rows) {
      const node = nodes.get(r.id)!
      const parent = r.parent_id ? nodes.get(r.parent_id) : undefined
      if (parent) parent.children.push(node)
      else roots.push(node)
    }
    return roots
  },

  get: async (ex, id) => await _get(ex, id),

  async create(ex, input) {
    const parentId = input.parentId ?? null
    if (parentId !== null && !await ex.get('SELECT 1 FROM locations WHERE id = ?', [parentId])) throw _badParent(parentId)
    await _assertSiblingNameFree(ex, parentId, input.name, null)
    const at = now()
    const id = createId('location')
    await ex.run('INSERT INTO locations (id, name, name_key, parent_id, description, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, 1)', [
      id,
      input.name,
      foldKey(input.name),
      parentId,
      input.description ?? null,
      at,
      at,
    ])
    return await _get(ex, id)
  },

  async update(ex, id, patch, options) {
    const current = await _get(ex, id)
    checkVersion('location', id, current.version, options?.ifVersion)
    const parentId = patch.parentId === undefined ? current.parentId : patch.parentId
    const name = patch.name ?? current.name
    if (parentId !== current.parentId && parentId !== null) {
      if (!await ex.get('SELECT 1 FROM locations WHERE id = ?', [parentId])) throw _badParent(parentId)
      // Walk up from the new parent: meeting this location would close a cycle.
      for (let at: string | null = parentId; at !== null; at = (await ex.get<{ parent_id: string | null }>('SELECT parent_id FROM locations WHERE id = ?', [at]))?.parent_id ?? null) {
        if (at === id) throw conflict('body.parentId', `location ${id} cannot move under itself or one of its descendants`)
      }
    }
    const description = patch.description === undefined ? current.description : patch.description
    if (name === current.name && parentId === current.parentId && description === current.description) return current
    // The key is checked and written when the name or the parent changes only: a location
    // kept from before foldKey holds none (identifier-keys.ts).
    const moved = name !== current.name || parentId !== current.parentId
    if (moved) await _assertSiblingNameFree(ex, parentId, name, id)
    await ex.run('UPDATE locations SET name = ?, name_key = coalesce(?, name_key), parent_id = ?, description = ?, updated_at = ?, version = version + 1 WHERE id = ?', [
      name,
      moved ? foldKey(name) : null,
      parentId,
      description,
      now(),
      id,
    ])
    return await _get(ex, id)
  },

  async delete(ex, id) {
    await _get(ex, id)
    if (await ex.get('SELECT 1 FROM locations WHERE parent_id = ?', [id])) throw new ComplibError('CONFLICT', `location ${id} has child locations; move or delete them first`)
    if (await ex.get('SELECT 1 FROM stock WHERE location_id = ?', [id])) throw new ComplibError('CONFLICT', `location ${id} holds stock; move it first`)
    await ex.run('DELETE FROM locations WHERE id = ?', [id])
  },

  async stockForComponent(ex, componentId) {
    await requireComponentRow(ex, componentId)
    const paths = await _paths(ex)
    return (await ex.all<_StockRow>('SELECT s.component_id, s.location_id, s.quantity, s.updated_at, l.name FROM stock s JOIN locations l ON l.id = s.location_id WHERE s.component_id = ?', [componentId]))
      .map((r) => _stock(r, paths))
      .sort((a, b) => a.path.localeCompare(b.path))
  },

  async setStock(ex, componentId, locationId, quantity) {
    if (!Number.isInteger(quantity) || quantity < 0) throw _invalid('body.quantity', 'quantity must be a whole number of at least 0')
    const before = await _quantity(ex, componentId, locationId)
    return await _setQuantity(ex, componentId, locationId, quantity, quantity - before, null)
  },

  async adjust(ex, input) {
    if (!Number.isInteger(input.delta)) throw _invalid('body.delta', 'delta must be a whole number')
    const before = await _quantity(ex, input.componentId, input.locationId)
    if (before + input.delta < 0) throw conflict('body.delta', `only ${before} in stock there; cannot take ${-input.delta}`)
    return await _setQuantity(ex, input.componentId, input.locationId, before + input.delta, input.delta, input.reason ?? null)
  },

  async move(ex, input) {
    // Both ends are read before either is written: the same location twice would count the stock twice.
    if (input.fromLocationId === input.toLocationId) throw _invalid('body.toLocationId', 'from and to are the same location')
    if (!Number.isInteger(input.quantity) || input.quantity < 1) throw _invalid('body.quantity', 'quantity must be a whole number of at least 1')
    const fromBefore = await _quantity(ex, input.componentId, input.fromLocationId)
    const toBefore = await _quantity(ex, input.componentId, input.toLocationId)
    if (fromBefore < input.quantity) throw conflict('body.quantity', `only ${fromBefore} in stock at the source; cannot move ${input.quantity}`)
    const from = await _setQuantity(ex, input.componentId, input.fromLocationId, fromBefore - input.quantity, -input.quantity, `move to ${input.toLocationId}`)
    const to = await _setQuantity(ex, input.componentId, input.toLocationId, toBefore + input.quantity, input.quantity, `move from ${input.fromLocationId}`)
    return { from, to }
  },
} satisfies StoreRepo<LocationStore>

/** How each method uses the database (Access). */
export const locationAccess = {
  list: 'snapshot',
  tree: 'read',
  get: 'snapshot',
  stockForComponent: 'snapshot',
  create: 'write',
  update: 'write',
  delete: 'write',
  setStock: 'write',
  adjust: 'write',
  move: 'write',
} as const satisfies StoreAccess<LocationStore>

interface _Row {
  id: string
  name: string
  parent_id: string | null
  description: string | null
  created_at: string
  updated_at: string
  version: number
}
interface _StockRow {
  component_id: string
  location_id: string
  quantity: number
  updated_at: string
  name: string
}

async function _get(ex: SqlExecutor, id: string): Promise<Location> {
  const row = await ex.get<_Row>('SELECT * FROM locations WHERE id = ?', [id])
  if (!row) throw notFound('location', id)
  return _view(row, await _paths(ex))
}

function _view(r: _Row, paths: Map<string, string>): Location {
  return { id: r.id, name: r.name, parentId: r.parent_id, path: paths.get(r.id) ?? r.name, description: r.description, createdAt: r.created_at, updatedAt: r.updated_at, version: r.version }
}

/** Path of every location (`Shelf A / Bin 3`). Locations number in the hundreds, so one pass over all is cheap. */
async function _paths(ex: SqlExecutor, rows?: _Row[]): Promise<Map<string, string>> {
  const all = rows ?? await ex.all<_Row>('SELECT id, name, parent_id FROM locations')
  const byId = new Map(all.map((r) => [r.id, r]))
  const paths = new Map<string, string>()
  const pathOf = (id: string, depth = 0): string => {
    const known = paths.get(id)
    if (known) return known
    const r = byId.get(id)!
    const path = r.parent_id && byId.has(r.parent_id) && depth < 64 ? `${pathOf(r.parent_id, depth + 1)} / ${r.name}` : r.name
    paths.set(id, path)
    return path
  }
  for (const r of all) pathOf(r.id)
  return paths
}

function _stock(r: _StockRow, paths: Map<string, string>): StockEntry {
  return { componentId: r.component_id, locationId: r.location_id, locationName: r.name, path: paths.get(r.location_id) ?? r.name, quantity: r.quantity, updatedAt: r.updated_at }
}

async function _quantity(ex: SqlExecutor, componentId: string, locationId: string): Promise<number> {
  await requireComponentRow(ex, componentId)
  if (!await ex.get('SELECT 1 FROM locations WHERE id = ?', [locationId])) throw notFound('location', locationId)
  return (await ex.get<{ quantity: number }>('SELECT quantity FROM stock WHERE component_id = ? AND location_id = ?', [componentId, locationId]))?.quantity ?? 0
}

async function _setQuantity(ex: SqlExecutor, componentId: string, locationId: string, quantity: number, delta: number, reason: string | null): Promise<StockEntry> {
  const at = now()
  if (quantity === 0) await ex.run('DELETE FROM stock WHERE component_id = ? AND location_id = ?', [componentId, locationId])
  else {
    await ex.run(
      'INSERT INTO stock (component_id, location_id, quantity, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (component_id, location_id) DO UPDATE SET quantity = excluded.quantity, updated_at = excluded.updated_at',
      [componentId, locationId, quantity, at],
    )
  }
  if (delta !== 0) await ex.run('INSERT INTO stock_movements (component_id, location_id, delta, reason, at) VALUES (?, ?, ?, ?, ?)', [componentId, locationId, delta, reason, at])
  const location = (await ex.get<{ name: string }>('SELECT name FROM locations WHERE id = ?', [locationId]))!
  return _stock({ component_id: componentId, location_id: locationId, quantity, updated_at: at, name: location.name }, await _paths(ex))
}

function _badParent(parentId: string): ComplibError {
  return _invalid('body.parentId', `location ${parentId} does not exist`)
}

function _invalid(path: string, message: string): ComplibError {
  return new ComplibError('VALIDATION_FAILED', `${path}: ${message}`, { errors: [{ path, message }] })
}

async function _assertSiblingNameFree(ex: SqlExecutor, parentId: string | null, name: string, exceptId: string | null): Promise<void> {
  // The form of the unique index locations_sibling_name_key, so the index answers.
  const row = await ex.get<{ id: string; name: string }>(`SELECT id, name FROM locations WHERE coalesce(parent_id, '') = ? AND name_key = ? AND id IS DISTINCT FROM ?`, [parentId ?? '', foldKey(name), exceptId])
  if (row) throw conflict('body.name', `a location named ${row.name} already exists there (${row.id})`)
}
