import { ComplibError } from '../../errors'
import { foldKey } from '../../identifiers'
import { createId } from '../../ids'
import { SAVED_VIEWS_PER_OWNER, type SavedView } from '../../schemas/saved-view'
import type { SqlExecutor } from '../_internal/sql-executor'
import type { SavedViewStore } from '../types'
import { checkVersion, now } from './_shared'
import type { StoreAccess, StoreRepo } from './repo'

// Saved views of the library table, each its owner's only (decision 1508): a
// view of another owner is as missing as one that never was.

interface Row {
  id: string
  owner_id: string
  name: string
  state: string
  created_at: string
  updated_at: string
  version: number
}

const COLUMNS = 'id, owner_id, name, state, created_at, updated_at, version'

export const savedViews = {
  list: async (ex, ownerId) => (await ex.all<Row>(`SELECT ${COLUMNS} FROM saved_views WHERE owner_id = ? ORDER BY name, id`, [ownerId])).map(_view),

  get: async (ex, ownerId, id) => _view(await _require(ex, ownerId, id)),

  async create(ex, ownerId, input) {
    const names = await _names(ex, ownerId, null)
    if (names.length >= SAVED_VIEWS_PER_OWNER) throw new ComplibError('CONFLICT', `an account keeps at most ${SAVED_VIEWS_PER_OWNER} views; delete one first`)
    _assertNameFree(names, input.name)
    const at = now()
    const id = createId('savedView')
    await ex.run(`INSERT INTO saved_views (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 1)`, [id, ownerId, input.name, JSON.stringify(input.state), at, at])
    return _view((await ex.get<Row>(`SELECT ${COLUMNS} FROM saved_views WHERE id = ?`, [id]))!)
  },

  async update(ex, ownerId, id, patch, options) {
    const row = await _require(ex, ownerId, id)
    checkVersion('view', id, row.version, options?.ifVersion)
    const name = patch.name ?? row.name
    const state = patch.state === undefined ? row.state : JSON.stringify(patch.state)
    if (name === row.name && state === row.state) return _view(row)
    if (name !== row.name) _assertNameFree(await _names(ex, ownerId, id), name)
    await ex.run('UPDATE saved_views SET name = ?, state = ?, updated_at = ?, version = version + 1 WHERE id = ?', [name, state, now(), id])
    return _view((await ex.get<Row>(`SELECT ${COLUMNS} FROM saved_views WHERE id = ?`, [id]))!)
  },

  async delete(ex, ownerId, id) {
    await _require(ex, ownerId, id)
    await ex.run('DELETE FROM saved_views WHERE id = ?', [id])
  },
} satisfies StoreRepo<SavedViewStore>

/** How each method uses the database (Access). */
export const savedViewAccess = { list: 'read', get: 'read', create: 'write', update: 'write', delete: 'write' } as const satisfies StoreAccess<SavedViewStore>

async function _require(ex: SqlExecutor, ownerId: string, id: string): Promise<Row> {
  const row = await ex.get<Row>(`SELECT ${COLUMNS} FROM saved_views WHERE id = ? AND owner_id = ?`, [id, ownerId])
  if (!row) throw new ComplibError('NOT_FOUND', `view ${id} does not exist`)
  return row
}

/** The owner's view names, less the view `exceptId`. */
async function _names(ex: SqlExecutor, ownerId: string, exceptId: string | null): Promise<string[]> {
  return (await ex.all<{ id: string; name: string }>('SELECT id, name FROM saved_views WHERE owner_id = ?', [ownerId])).filter((r) => r.id !== exceptId).map((r) => r.name)
}

/** Names compare as identifiers do (foldKey): `Resistors` and `resistors` are one name to their owner. */
function _assertNameFree(names: readonly string[], name: string): void {
  const key = foldKey(name)
  const taken = names.find((n) => foldKey(n) === key)
  if (taken !== undefined) throw new ComplibError('CONFLICT', `body.name: you have a view named ${JSON.stringify(taken)} already`, { errors: [{ path: 'body.name', message: 'taken' }] })
}

function _view(row: Row): SavedView {
  return { id: row.id, name: row.name, state: JSON.parse(row.state) as Record<string, unknown>, createdAt: row.created_at, updatedAt: row.updated_at, version: row.version }
}
