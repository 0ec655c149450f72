import { ComplibError } from '../../errors'
import type { Mpn, MpnResolveResult } from '../../schemas'
import type { SqlExecutor, SqlParam } from '../_internal/sql-executor'
import type { MpnStore } from '../types'
import { checkVersion, likeEscape, notFound, now, pageById } from './_shared'
import { findOrCreateManufacturer, insertMpn } from './component-children'
import { requireComponentRow, touchComponent } from './component-core'
import type { SyncRepo } from './repo'

const FROM = 'mpns m JOIN manufacturers f ON f.id = m.manufacturer_id JOIN components c ON c.id = m.component_id'
const SELECT = 'm.id AS id, m.component_id, m.manufacturer_id, f.name AS manufacturer, m.part_number, m.created_at, m.updated_at, m.version'

export const mpns = {
  list(ex, query) {
    const where = ['c.deleted_at IS NULL']
    const params: SqlParam[] = []
    if (query.q) {
      where.push(`m.part_number LIKE ? ESCAPE '\\'`)
      params.push(`%${likeEscape(query.q)}%`)
    }
    if (query.manufacturerId) {
      where.push('m.manufacturer_id = ?')
      params.push(query.manufacturerId)
    }
    // pageById orders by `id`: the select exposes m.id as id, and the subquery keeps names unambiguous.
    return pageById<_Row, Mpn>(ex, { table: `(SELECT ${SELECT}, c.deleted_at FROM ${FROM} WHERE ${where.join(' AND ')})`, params, limit: query.limit, cursor: query.cursor, map: (rows) => rows.map(_view) })
  },

  listForComponent(ex, componentId) {
    requireComponentRow(ex, componentId)
    return ex.all<_Row>(`SELECT ${SELECT} FROM ${FROM} WHERE m.component_id = ? ORDER BY m.position`, [componentId]).map(_view)
  },

  get: (ex, id) => _get(ex, id),

  create(ex, componentId, input) {
    requireComponentRow(ex, componentId)
    const at = now()
    const position = ex.get<{ n: number }>('SELECT coalesce(max(position) + 1, 0) AS n FROM mpns WHERE component_id = ?', [componentId])!.n
    const id = insertMpn(ex, componentId, input, position, at)
    touchComponent(ex, componentId, 'update', ['mpns'], at)
    return _get(ex, id)
  },

  update(ex, id, patch, options) {
    const current = _get(ex, id)
    requireComponentRow(ex, current.componentId)
    checkVersion('mpn', id, current.version, options?.ifVersion)
    const at = now()
    const manufacturerId = patch.manufacturer !== undefined ? findOrCreateManufacturer(ex, patch.manufacturer, at) : current.manufacturerId
    const partNumber = patch.partNumber ?? current.partNumber
    if (manufacturerId === current.manufacturerId && partNumber === current.partNumber) return current
    const dup = ex.get('SELECT 1 FROM mpns WHERE component_id = ? AND manufacturer_id = ? AND part_number = ? AND id <> ?', [current.componentId, manufacturerId, partNumber, id])
    if (dup) {
      throw new ComplibError('CONFLICT', `that manufacturer part number is already an MPN of component ${current.componentId}`, {
        errors: [{ path: 'body.partNumber', message: 'duplicate manufacturer part number' }],
      })
    }
    ex.run('UPDATE mpns SET manufacturer_id = ?, part_number = ?, updated_at = ?, version = version + 1 WHERE id = ?', [manufacturerId, partNumber, at, id])
    touchComponent(ex, current.componentId, 'update', ['mpns'], at)
    return _get(ex, id)
  },

  delete(ex, id) {
    const current = _get(ex, id)
    requireComponentRow(ex, current.componentId)
    ex.run('DELETE FROM mpns WHERE id = ?', [id])
    touchComponent(ex, current.componentId, 'update', ['mpns'])
  },

  resolve(ex, items) {
    return items.map((item): MpnResolveResult => {
      const params: SqlParam[] = [item.partNumber]
      let byManufacturer = ''
      if (item.manufacturer) {
        byManufacturer = ' AND (f.name = ? OR EXISTS (SELECT 1 FROM json_each(f.aliases) a WHERE a.value = ? COLLATE NOCASE))'
        params.push(item.manufacturer, item.manufacturer)
      }
      const matches = ex.all<{ component_id: string; ipn: string; name: string; manufacturer: string; part_number: string }>(
        `SELECT m.component_id, c.ipn, c.name, f.name AS manufacturer, m.part_number FROM ${FROM} WHERE m.part_number = ? AND c.deleted_at IS NULL${byManufacturer} ORDER BY m.component_id`,
        params,
      )
      return {
        partNumber: item.partNumber,
        manufacturer: item.manufacturer ?? null,
        matches: matches.map((m) => ({ componentId: m.component_id, ipn: m.ipn, name: m.name, manufacturer: m.manufacturer, partNumber: m.part_number })),
      }
    })
  },
} satisfies SyncRepo<MpnStore>

interface _Row {
  id: string
  component_id: string
  manufacturer_id: string
  manufacturer: string
  part_number: string
  created_at: string
  updated_at: string
  version: number
}

function _get(ex: SqlExecutor, id: string): Mpn {
  const row = ex.get<_Row>(`SELECT ${SELECT} FROM ${FROM} WHERE m.id = ?`, [id])
  if (!row) throw notFound('mpn', id)
  return _view(row)
}

function _view(r: _Row): Mpn {
  return {
    id: r.id,
    componentId: r.component_id,
    manufacturerId: r.manufacturer_id,
    manufacturer: r.manufacturer,
    partNumber: r.part_number,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
  }
}
