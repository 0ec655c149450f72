import { ComplibError } from '../../errors'
import { foldKey } from '../../identifiers'
import type { Mpn, MpnResolveResult } from '../../schemas/mpn'
import type { SqlExecutor, SqlParam } from '../_internal/sql-executor'
import type { MpnStore } from '../types'
import { checkVersion, chunks, decodeCursor, encodeCursor, likeEscape, notFound, now } from './_shared'
import { findManufacturer, findOrCreateManufacturer, insertMpn } from './component-children'
import { requireComponentRow, touchComponent } from './component-core'
import type { StoreAccess, StoreRepo } from './repo'

const FROM = 'mpns m JOIN manufacturers f ON f.id = m.manufacturer_id JOIN components c ON c.id = m.component_id'
const COLUMNS = 'm.id AS id, m.component_id AS component_id, m.manufacturer_id AS manufacturer_id, f.name AS manufacturer, m.part_number AS part_number, m.created_at AS created_at, m.updated_at AS updated_at, m.version AS version'

export const mpns = {
  async list(ex, query) {
    const where = ['c.deleted_at IS NULL']
    const params: SqlParam[] = []
    if (query.manufacturerId !== undefined) {
      if (!await ex.get('SELECT 1 FROM manufacturers WHERE id = ?', [query.manufacturerId])) {
        const message = `manufacturer ${query.manufacturerId} does not exist`
        throw new ComplibError('VALIDATION_FAILED', `query.manufacturerId: ${message}`, { errors: [{ path: 'query.manufacturerId', message }] })
      }
      where.push('m.manufacturer_id = ?')
      params.push(query.manufacturerId)
    }
    // Part numbers that start with `q` come first, then those that only contain it.
    let rank = '0'
    if (query.q) {
      where.push(`m.part_number ${ex.dialect.ilike} ? ESCAPE '\\'`)
      params.push(`%${likeEscape(query.q)}%`)
      rank = `CASE WHEN m.part_number ${ex.dialect.ilike} ? ESCAPE '\\' THEN 0 ELSE 1 END`
    }
    const rankParams = query.q ? [`${likeEscape(query.q)}%`] : []
    const inner = `SELECT ${COLUMNS}, ${rank} AS rank FROM ${FROM} WHERE ${where.join(' AND ')}`
    const total = (await ex.get<{ n: number }>(`SELECT count(*) AS n FROM ${FROM} WHERE ${where.join(' AND ')}`, params))!.n
    let after = ''
    const afterParams: SqlParam[] = []
    if (query.cursor) {
      const [lastRank, lastPart, lastId] = decodeCursor(query.cursor, 3)
      after = `WHERE (rank > ? OR (rank = ? AND (${ex.dialect.nocase('part_number')} > ${ex.dialect.nocase('?')} OR (${ex.dialect.nocase('part_number')} = ${ex.dialect.nocase('?')} AND id > ?))))`
      afterParams.push(lastRank, lastRank, lastPart, lastPart, lastId)
    }
    const rows = await ex.all<_Row & { rank: number }>(
      `SELECT * FROM (${inner}) AS ranked ${after} ORDER BY rank, ${ex.dialect.nocase('part_number')}, id LIMIT ?`,
      [...rankParams, ...params, ...afterParams, query.limit + 1],
    )
    const more = rows.length > query.limit
    if (more) rows.pop()
    const last = rows.at(-1)
    return { items: rows.map(_view), total, nextCursor: more && last ? encodeCursor([last.rank, last.part_number, last.id]) : null }
  },

  async listForComponent(ex, componentId) {
    await requireComponentRow(ex, componentId)
    return (await ex.all<_Row>(`SELECT ${COLUMNS} FROM ${FROM} WHERE m.component_id = ? ORDER BY m.position`, [componentId])).map(_view)
  },

  get: async (ex, id) => await _get(ex, id),

  async create(ex, componentId, input) {
    await requireComponentRow(ex, componentId)
    const at = now()
    const position = (await ex.get<{ next: number }>('SELECT coalesce(max(position) + 1, 0) AS next FROM mpns WHERE component_id = ?', [componentId]))!.next
    // insertMpn refuses a duplicate before it inserts; a manufacturer it created for
    // a refused MPN is rolled back with the call.
    const id = await insertMpn(ex, componentId, input, position, at)
    await touchComponent(ex, componentId, 'update', ['mpns'], at)
    return await _get(ex, id)
  },

  async update(ex, id, patch, options) {
    const current = await _get(ex, id)
    checkVersion('mpn', id, current.version, options?.ifVersion)
    const partNumber = patch.partNumber ?? current.partNumber
    const manufacturerId = patch.manufacturer === undefined ? current.manufacturerId : await findManufacturer(ex, patch.manufacturer)
    if (manufacturerId === current.manufacturerId && partNumber === current.partNumber) return current
    if (
      manufacturerId !== null &&
      await ex.get('SELECT 1 FROM mpns WHERE component_id = ? AND manufacturer_id = ? AND part_number = ? AND id <> ?', [current.componentId, manufacturerId, partNumber, id])
    ) {
      const field = patch.partNumber !== undefined ? 'body.partNumber' : 'body.manufacturer'
      throw new ComplibError('CONFLICT', `that manufacturer part number is already an MPN of component ${current.componentId}`, {
        errors: [{ path: field, message: 'duplicate manufacturer part number' }],
      })
    }
    const at = now()
    const finalManufacturerId = manufacturerId ?? await findOrCreateManufacturer(ex, patch.manufacturer!, at)
    await ex.run('UPDATE mpns SET manufacturer_id = ?, part_number = ?, updated_at = ?, version = version + 1 WHERE id = ?', [finalManufacturerId, partNumber, at, id])
    await touchComponent(ex, current.componentId, 'update', ['mpns'], at)
    return await _get(ex, id)
  },

  async delete(ex, id) {
    const current = await _get(ex, id)
    await ex.run('DELETE FROM mpns WHERE id = ?', [id])
    await touchComponent(ex, current.componentId, 'update', ['mpns'])
  },

  async resolve(ex, items) {
    const results: MpnResolveResult[] = items.map((item) => ({ partNumber: item.partNumber, manufacturer: item.manufacturer ?? null, matches: [] }))
    // One query per chunk of the BOM: the items travel as a JSON array and are joined
    // in SQL, so part_number's NOCASE collation decides what matches; a manufacturer
    // matches by its name's or an alias's foldKey.
    const indexed = items.map((item, i) => ({ i, p: item.partNumber, m: item.manufacturer == null ? null : foldKey(item.manufacturer) }))
    const d = ex.dialect
    for (const part of chunks(indexed)) {
      const rows = await ex.all<{ i: number; component_id: string; ipn: string; name: string; manufacturer: string; part_number: string }>(
        `SELECT ${d.jsonField('j', 'i', 'integer')} AS i, m.component_id, c.ipn, c.name, f.name AS manufacturer, m.part_number
         FROM ${d.jsonRecords('?', 'j')}
         JOIN mpns m ON m.part_number = ${d.jsonField('j', 'p', 'nocase')}
         JOIN components c ON c.id = m.component_id AND c.deleted_at IS NULL
         JOIN manufacturers f ON f.id = m.manufacturer_id
         WHERE ${d.jsonField('j', 'm', 'text')} IS NULL
            OR f.name_key = ${d.jsonField('j', 'm', 'text')}
            OR EXISTS (SELECT 1 FROM ${d.jsonTexts('f.alias_keys', 'a')} WHERE a.value = ${d.jsonField('j', 'm', 'text')})
         ORDER BY i, m.component_id, m.position`,
        [JSON.stringify(part)],
      )
      for (const r of rows) {
        results[r.i]!.matches.push({ componentId: r.component_id, ipn: r.ipn, name: r.name, manufacturer: r.manufacturer, partNumber: r.part_number })
      }
    }
    return results
  },
} satisfies StoreRepo<MpnStore>

/** How each method uses the database (Access). */
export const mpnAccess = { list: 'snapshot', listForComponent: 'snapshot', get: 'read', resolve: 'read', create: 'write', update: 'write', delete: 'write' } as const satisfies StoreAccess<MpnStore>

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

/** An MPN of a live component; those of a deleted component are hidden like the component. */
async function _get(ex: SqlExecutor, id: string): Promise<Mpn> {
  const row = await ex.get<_Row>(`SELECT ${COLUMNS} FROM ${FROM} WHERE m.id = ? AND c.deleted_at IS NULL`, [id])
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
