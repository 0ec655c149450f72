import { ComplibError } from '../../errors'
import { foldKey } from '../../identifiers'
import { createId } from '../../ids'
import type { Manufacturer } from '../../schemas/manufacturer'
import type { SqlExecutor } from '../_internal/sql-executor'
import type { ManufacturerStore } from '../types'
import { checkMerge, checkVersion, chunks, conflict, likeEscape, liveComponentIds, notFound, now, pageByName, placeholders } from './_shared'
import { touchComponent } from './component-core'
import { aliasKeys } from './identifier-keys'
import type { StoreAccess, StoreRepo } from './repo'

const COLUMNS = `f.id AS id, f.name AS name, f.website AS website, f.aliases AS aliases,
  f.created_at AS created_at, f.updated_at AS updated_at, f.version AS version,
  (SELECT count(*) FROM mpns m JOIN components c ON c.id = m.component_id
    WHERE m.manufacturer_id = f.id AND c.deleted_at IS NULL) AS part_count`

export const manufacturers = {
  async list(ex, query) {
    const pattern = query.q ? `%${likeEscape(query.q)}%` : null
    const page = await pageByName<_Row>(ex, {
      select: COLUMNS,
      from: 'manufacturers f',
      // Aliases are searched element by element, so `q` never matches JSON punctuation.
      where: pattern ? [`(f.name ${ex.dialect.ilike} ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM ${ex.dialect.jsonTexts('f.aliases', 'a')} WHERE a.value ${ex.dialect.ilike} ? ESCAPE '\\'))`] : [],
      params: pattern ? [pattern, pattern] : [],
      limit: query.limit,
      cursor: query.cursor,
      nameColumn: 'f.name',
      idColumn: 'f.id',
    })
    return { ...page, items: page.items.map(_view) }
  },

  get: async (ex, id) => await _get(ex, id),

  async create(ex, input) {
    await _assertNameFree(ex, input.name, null)
    const at = now()
    const id = createId('manufacturer')
    const aliases = _aliases(input.aliases ?? [], input.name)
    await ex.run('INSERT INTO manufacturers (id, name, name_key, website, aliases, alias_keys, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)', [
      id,
      input.name,
      foldKey(input.name),
      input.website ?? null,
      JSON.stringify(aliases),
      aliasKeys(aliases),
      at,
      at,
    ])
    return await _get(ex, id)
  },

  async update(ex, id, patch, options) {
    const current = await _get(ex, id)
    checkVersion('manufacturer', id, current.version, options?.ifVersion)
    const name = patch.name ?? current.name
    const renamed = name !== current.name
    if (renamed) await _assertNameFree(ex, name, id)
    const website = patch.website === undefined ? current.website : patch.website
    // Aliases are re-cleaned on a rename too: the new name must not also be an alias.
    const aliases = _aliases(patch.aliases ?? current.aliases, name)
    if (!renamed && website === current.website && JSON.stringify(aliases) === JSON.stringify(current.aliases)) return current
    const at = now()
    // The key is written on a rename only: a manufacturer kept from before foldKey holds none (identifier-keys.ts).
    await ex.run('UPDATE manufacturers SET name = ?, name_key = coalesce(?, name_key), website = ?, aliases = ?, alias_keys = ?, updated_at = ?, version = version + 1 WHERE id = ?', [
      name,
      renamed ? foldKey(name) : null,
      website,
      JSON.stringify(aliases),
      aliasKeys(aliases),
      at,
      id,
    ])
    if (renamed) {
      // The MPN records and the components show the manufacturer's name.
      const affected = await _madeBy(ex, [id])
      await ex.run('UPDATE mpns SET updated_at = ?, version = version + 1 WHERE manufacturer_id = ?', [at, id])
      for (const componentId of affected) await touchComponent(ex, componentId, 'update', ['mpns'], at)
    }
    return await _get(ex, id)
  },

  async delete(ex, id) {
    const current = await _get(ex, id)
    // Deleted components count too: their MPNs come back on restore.
    const used = (await ex.get<{ n: number }>('SELECT count(*) AS n FROM mpns WHERE manufacturer_id = ?', [id]))!.n
    if (used > 0) {
      throw new ComplibError('CONFLICT', `manufacturer ${current.name} is used by ${used} MPN${used === 1 ? '' : 's'}; merge it into another manufacturer instead`)
    }
    await ex.run('DELETE FROM manufacturers WHERE id = ?', [id])
  },

  async merge(ex, targetId, sourceIds) {
    await checkMerge(ex, 'manufacturers', 'manufacturer', targetId, sourceIds)
    const target = await _get(ex, targetId)
    const sources = []
    for (const sourceId of new Set(sourceIds)) sources.push(await _get(ex, sourceId))
    const affected = await _madeBy(ex, sources.map((s) => s.id))
    const at = now()
    const aliases = [...target.aliases]
    for (const source of sources) {
      aliases.push(source.name, ...source.aliases)
      // A component that already has the part number under the target keeps that one.
      await ex.run(
        `DELETE FROM mpns WHERE manufacturer_id = ? AND EXISTS (
           SELECT 1 FROM mpns t WHERE t.manufacturer_id = ? AND t.component_id = mpns.component_id AND t.part_number = mpns.part_number)`,
        [source.id, targetId],
      )
      await ex.run('UPDATE mpns SET manufacturer_id = ?, updated_at = ?, version = version + 1 WHERE manufacturer_id = ?', [targetId, at, source.id])
      await ex.run('DELETE FROM manufacturers WHERE id = ?', [source.id])
    }
    const merged = _aliases(aliases, target.name)
    await ex.run('UPDATE manufacturers SET aliases = ?, alias_keys = ?, updated_at = ?, version = version + 1 WHERE id = ?', [JSON.stringify(merged), aliasKeys(merged), at, targetId])
    for (const componentId of affected) await touchComponent(ex, componentId, 'update', ['mpns'], at)
    return await _get(ex, targetId)
  },
} satisfies StoreRepo<ManufacturerStore>

/** How each method uses the database (Access). */
export const manufacturerAccess = { list: 'snapshot', get: 'read', create: 'write', update: 'write', delete: 'write', merge: 'write' } as const satisfies StoreAccess<ManufacturerStore>

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

async function _get(ex: SqlExecutor, id: string): Promise<Manufacturer> {
  const row = await ex.get<_Row>(`SELECT ${COLUMNS} FROM manufacturers f WHERE f.id = ?`, [id])
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

async function _assertNameFree(ex: SqlExecutor, name: string, exceptId: string | null): Promise<void> {
  const row = await ex.get<{ id: string; name: string }>('SELECT id, name FROM manufacturers WHERE name_key = ? AND id IS DISTINCT FROM ?', [foldKey(name), exceptId])
  if (row) throw conflict('body.name', `a manufacturer named ${row.name} exists (${row.id})`)
}

/** Aliases in first-seen order, without repeats (by foldKey) and without the name itself. */
function _aliases(aliases: readonly string[], name: string): string[] {
  const seen = new Set([foldKey(name)])
  const out: string[] = []
  for (const alias of aliases) {
    const key = foldKey(alias)
    if (seen.has(key)) continue
    seen.add(key)
    out.push(alias)
  }
  return out
}

/** Live components with an MPN made by any of the manufacturers, in id order. */
async function _madeBy(ex: SqlExecutor, manufacturerIds: readonly string[]): Promise<string[]> {
  const ids: string[] = []
  for (const part of chunks(manufacturerIds)) {
    ids.push(...(await ex.all<{ component_id: string }>(`SELECT component_id FROM mpns WHERE manufacturer_id IN (${placeholders(part.length)})`, part)).map((r) => r.component_id))
  }
  return await liveComponentIds(ex, ids)
}
