import { ComplibError } from '../../errors'
import { createId } from '../../ids'
import type { Manufacturer } from '../../schemas'
import type { SqlExecutor } from '../_internal/sql-executor'
import type { ManufacturerStore } from '../types'
import { checkMerge, checkVersion, conflict, likeEscape, liveComponentIds, notFound, now, pageByName } from './_shared'
import { touchComponent } from './component-core'
import type { SyncRepo } from './repo'

const SELECT = `f.id AS id, f.name AS name, f.website AS website, f.aliases AS aliases, f.created_at AS created_at, f.updated_at AS updated_at, f.version AS version,
  (SELECT count(*) FROM mpns m JOIN components c ON c.id = m.component_id WHERE m.manufacturer_id = f.id AND c.deleted_at IS NULL) AS part_count`

export const manufacturers = {
  list(ex, query) {
    const page = pageByName<_Row>(ex, {
      select: SELECT,
      from: 'manufacturers f',
      where: query.q ? [`(f.name LIKE ? ESCAPE '\\' OR f.aliases LIKE ? ESCAPE '\\')`] : [],
      params: query.q ? [`%${likeEscape(query.q)}%`, `%${likeEscape(query.q)}%`] : [],
      limit: query.limit,
      cursor: query.cursor,
      nameColumn: 'f.name',
      idColumn: 'f.id',
    })
    return { ...page, items: page.items.map(_view) }
  },

  get: (ex, id) => _get(ex, id),

  create(ex, input) {
    _assertNameFree(ex, input.name, null)
    const at = now()
    const id = createId('manufacturer')
    ex.run('INSERT INTO manufacturers (id, name, website, aliases, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, 1)', [
      id,
      input.name,
      input.website ?? null,
      JSON.stringify(_dedupe(input.aliases ?? [], input.name)),
      at,
      at,
    ])
    return _get(ex, id)
  },

  update(ex, id, patch, options) {
    const current = _get(ex, id)
    checkVersion('manufacturer', id, current.version, options?.ifVersion)
    const renamed = patch.name !== undefined && patch.name !== current.name
    if (renamed) _assertNameFree(ex, patch.name!, id)
    const name = patch.name ?? current.name
    const at = now()
    ex.run('UPDATE manufacturers SET name = ?, website = ?, aliases = ?, updated_at = ?, version = version + 1 WHERE id = ?', [
      name,
      patch.website === undefined ? current.website : patch.website,
      JSON.stringify(_dedupe(patch.aliases ?? current.aliases, name)),
      at,
      id,
    ])
    if (renamed) for (const cid of _makers(ex, [id])) touchComponent(ex, cid, 'update', ['mpns'], at)
    return _get(ex, id)
  },

  delete(ex, id) {
    const current = _get(ex, id)
    const used = ex.get<{ n: number }>('SELECT count(*) AS n FROM mpns WHERE manufacturer_id = ?', [id])!.n
    if (used > 0) throw new ComplibError('CONFLICT', `manufacturer ${current.name} is used by ${used} MPNs; merge it into another instead`)
    ex.run('DELETE FROM manufacturers WHERE id = ?', [id])
  },

  merge(ex, targetId, sourceIds) {
    checkMerge(ex, 'manufacturers', 'manufacturer', targetId, sourceIds)
    const target = _get(ex, targetId)
    const affected = _makers(ex, sourceIds)
    const aliases = [...target.aliases]
    for (const sourceId of sourceIds) {
      const source = _get(ex, sourceId)
      aliases.push(source.name, ...source.aliases)
      // An MPN the component already has under the target is a duplicate: drop it.
      ex.run(
        'DELETE FROM mpns WHERE manufacturer_id = ? AND EXISTS (SELECT 1 FROM mpns t WHERE t.manufacturer_id = ? AND t.component_id = mpns.component_id AND t.part_number = mpns.part_number)',
        [sourceId, targetId],
      )
      ex.run('UPDATE mpns SET manufacturer_id = ? WHERE manufacturer_id = ?', [targetId, sourceId])
      ex.run('DELETE FROM manufacturers WHERE id = ?', [sourceId])
    }
    const at = now()
    ex.run('UPDATE manufacturers SET aliases = ?, updated_at = ?, version = version + 1 WHERE id = ?', [JSON.stringify(_dedupe(aliases, target.name)), at, targetId])
    for (const cid of affected) touchComponent(ex, cid, 'update', ['mpns'], at)
    return _get(ex, targetId)
  },
} satisfies SyncRepo<ManufacturerStore>

interface _Row {
  id: string
  name: string
  website: string | null
  aliases: string
  created_at: string
  updated_at: string
  version: number
  part_count: number
}

function _get(ex: SqlExecutor, id: string): Manufacturer {
  const row = ex.get<_Row>(`SELECT ${SELECT} FROM manufacturers f WHERE f.id = ?`, [id])
  if (!row) throw notFound('manufacturer', id)
  return _view(row)
}

function _view(r: _Row): Manufacturer {
  return {
    id: r.id,
    name: r.name,
    website: r.website,
    aliases: JSON.parse(r.aliases) as string[],
    partCount: r.part_count,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
  }
}

function _assertNameFree(ex: SqlExecutor, name: string, exceptId: string | null): void {
  const row = ex.get<{ id: string }>('SELECT id FROM manufacturers WHERE name = ? AND id IS NOT ?', [name, exceptId])
  if (row) throw conflict('body.name', `a manufacturer named ${name} exists (${row.id})`)
}

/** Aliases without duplicates (case-insensitive) and without the name itself. */
function _dedupe(aliases: readonly string[], name: string): string[] {
  const seen = new Set([name.toLowerCase()])
  return aliases.filter((a) => !seen.has(a.toLowerCase()) && seen.add(a.toLowerCase()))
}

/** Live components with an MPN made by any of the manufacturers. */
function _makers(ex: SqlExecutor, manufacturerIds: readonly string[]): string[] {
  const ids = manufacturerIds.flatMap((mid) => ex.all<{ component_id: string }>('SELECT component_id FROM mpns WHERE manufacturer_id = ?', [mid]).map((r) => r.component_id))
  return liveComponentIds(ex, ids)
}
