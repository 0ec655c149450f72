import { ComplibError } from '../../errors'
import { foldKey } from '../../identifiers'
import { createId } from '../../ids'
import type { ComponentMpn, ComponentParameter } from '../../schemas/component'
import { parseSiNumber } from '../../si-number'
import type { SqlExecutor } from '../_internal/sql-executor'
import { placeholders } from './_shared'

/**
 * Writers of a component's child rows, shared by component create/update and
 * by the per-child routes (tags, parameters, mpns, symbol/footprint links).
 * They write rows only: the caller ends with `touchComponent` to bump the
 * version, record history and re-index.
 */

/** The tag named `name` (compared by foldKey), or null. */
export async function findTag(ex: SqlExecutor, name: string): Promise<string | null> {
  return (await ex.get<{ id: string }>('SELECT id FROM tags WHERE name_key = ?', [foldKey(name)]))?.id ?? null
}

/** The tag named `name` (compared by foldKey), created when missing. */
export async function findOrCreateTag(ex: SqlExecutor, name: string, at: string): Promise<string> {
  const found = await findTag(ex, name)
  if (found) return found
  const id = createId('tag')
  await ex.run('INSERT INTO tags (id, name, name_key, color, description, created_at, updated_at, version) VALUES (?, ?, ?, NULL, NULL, ?, ?, 1)', [id, name, foldKey(name), at, at])
  return id
}

/** The manufacturer named `name` or carrying it as an alias (compared by foldKey), or null. */
export async function findManufacturer(ex: SqlExecutor, name: string): Promise<string | null> {
  const key = foldKey(name)
  const row =
    await ex.get<{ id: string }>('SELECT id FROM manufacturers WHERE name_key = ?', [key]) ??
    await ex.get<{ id: string }>(`SELECT m.id FROM manufacturers m, ${ex.dialect.jsonTexts('m.alias_keys', 'a')} WHERE a.value = ? ORDER BY m.id LIMIT 1`, [key])
  return row?.id ?? null
}

/** The manufacturer named `name` or carrying it as an alias (compared by foldKey), created when missing. */
export async function findOrCreateManufacturer(ex: SqlExecutor, name: string, at: string): Promise<string> {
  const found = await findManufacturer(ex, name)
  if (found) return found
  const id = createId('manufacturer')
  await ex.run(`INSERT INTO manufacturers (id, name, name_key, website, aliases, created_at, updated_at, version) VALUES (?, ?, ?, NULL, '[]', ?, ?, 1)`, [
    id,
    name,
    foldKey(name),
    at,
    at,
  ])
  return id
}

/** Replaces the tags of a component by names (names with the same foldKey collapse). */
export async function setTags(ex: SqlExecutor, componentId: string, names: readonly string[], at: string): Promise<void> {
  await ex.run('DELETE FROM component_tags WHERE component_id = ?', [componentId])
  const seen = new Set<string>()
  let position = 0
  for (const name of names) {
    const tagId = await findOrCreateTag(ex, name, at)
    if (seen.has(tagId)) continue
    seen.add(tagId)
    await ex.run('INSERT INTO component_tags (component_id, tag_id, position) VALUES (?, ?, ?)', [componentId, tagId, position++])
  }
}

/** Replaces the parameters of a component; returns the new parameter ids in order. */
export async function setParameters(ex: SqlExecutor, componentId: string, parameters: readonly ComponentParameter[], at: string): Promise<string[]> {
  await ex.run('DELETE FROM component_parameters WHERE component_id = ?', [componentId])
  const ids: string[] = []
  for (const [position, p] of parameters.entries()) ids.push(await insertParameter(ex, componentId, p, position, at))
  return ids
}

/** Inserts one parameter at `position`; returns its id. */
export async function insertParameter(ex: SqlExecutor, componentId: string, p: ComponentParameter, position: number, at: string): Promise<string> {
  const id = createId('parameter')
  await ex.run(
    'INSERT INTO component_parameters (id, component_id, position, type, value, unit, numeric, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)',
    [id, componentId, position, p.type, p.value, p.unit ?? null, parseSiNumber(p.value), at, at],
  )
  return id
}

/** Replaces the MPNs of a component; the same manufacturer + part number twice is a 409. */
export async function setMpns(ex: SqlExecutor, componentId: string, mpns: readonly ComponentMpn[], at: string): Promise<string[]> {
  await ex.run('DELETE FROM mpns WHERE component_id = ?', [componentId])
  const ids: string[] = []
  for (const [position, m] of mpns.entries()) ids.push(await insertMpn(ex, componentId, m, position, at, `body.mpns[${position}]`))
  return ids
}

/** Inserts one MPN (finding or creating its manufacturer); returns its id. */
export async function insertMpn(ex: SqlExecutor, componentId: string, m: ComponentMpn, position: number, at: string, field = 'body.partNumber'): Promise<string> {
  const manufacturerId = await findOrCreateManufacturer(ex, m.manufacturer, at)
  const dup = await ex.get('SELECT 1 FROM mpns WHERE component_id = ? AND manufacturer_id = ? AND part_number = ?', [componentId, manufacturerId, m.partNumber])
  if (dup) {
    throw new ComplibError('CONFLICT', `${m.manufacturer} ${m.partNumber} is already an MPN of component ${componentId}`, {
      errors: [{ path: field, message: 'duplicate manufacturer part number' }],
    })
  }
  const id = createId('mpn')
  await ex.run(
    'INSERT INTO mpns (id, component_id, manufacturer_id, position, part_number, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, 1)',
    [id, componentId, manufacturerId, position, m.partNumber, at, at],
  )
  return id
}

export type LinkKind = 'symbol' | 'footprint'
export const LINK_TABLES = {
  symbol: { items: 'symbols', links: 'component_symbols', field: 'symbols' },
  footprint: { items: 'footprints', links: 'component_footprints', field: 'footprints' },
} as const

/** Replaces the symbol or footprint links of a component; an unknown id is a 400 naming the field. */
export async function setLinks(ex: SqlExecutor, kind: LinkKind, componentId: string, itemIds: readonly string[], field: string = `body.${LINK_TABLES[kind].field}`): Promise<void> {
  const { items, links } = LINK_TABLES[kind]
  const unique = [...new Set(itemIds)]
  if (unique.length > 0) {
    const found = new Set((await ex.all<{ id: string }>(`SELECT id FROM ${items} WHERE id IN (${placeholders(unique.length)})`, unique)).map((r) => r.id))
    const missing = itemIds.findIndex((id) => !found.has(id))
    if (missing >= 0) {
      throw new ComplibError('VALIDATION_FAILED', `${field}[${missing}]: ${kind} ${itemIds[missing]} does not exist`, {
        errors: [{ path: `${field}[${missing}]`, message: `${kind} ${itemIds[missing]} does not exist` }],
      })
    }
  }
  await ex.run(`DELETE FROM ${links} WHERE component_id = ?`, [componentId])
  for (const [position, itemId] of unique.entries()) {
    await ex.run(`INSERT INTO ${links} (component_id, item_id, position) VALUES (?, ?, ?)`, [componentId, itemId, position])
  }
}
