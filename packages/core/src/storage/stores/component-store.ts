import { currentChange, withChange, type ChangeContext } from '../../change-context'
import { ComplibError } from '../../errors'
import { foldKey } from '../../identifiers'
import { createId } from '../../ids'
import type { Actor, Channel } from '../../schemas/account'
import type { Component, ComponentChange, ComponentCreateParsed, ComponentHistoryEntry, ComponentPatchParsed } from '../../schemas/component'
import { assertTransition } from '../../status'
import type { SqlExecutor } from '../_internal/sql-executor'
import type { ComponentStore } from '../types'
import { checkVersion, conflict, decodeCursor, encodeCursor, notFound, now } from './_shared'
import { ensureCategoryPath } from './category-store'
import { LINK_TABLES, type LinkKind, setLinks, setMpns, setParameters, setTags } from './component-children'
import {
  changeValues,
  deletedComponent,
  EVENT_INSERT,
  loadComponent,
  loadComponentJsonList,
  readComponentsForDelivery,
  rereadComponentsForDelivery,
  VIEW_OF_ROW,
  loadComponentList,
  requireComponentRow,
  requireComponentWithView,
  touchComponent,
} from './component-core'
import { queryComponentExtras, queryComponentIds, queryComponentJsonPage } from './component-query'
import { assertRequiredParameters, conformParameters } from './parameter-conform'
import type { StoreAccess, StoreRepo } from './repo'

export const components = {
  async list(ex, query) {
    const page = await queryComponentIds(ex, query)
    return { ...page, items: await loadComponentList(ex, page.items) }
  },

  listIds: async (ex, query) => await queryComponentIds(ex, query),

  listJson: async (ex, query) => await queryComponentJsonPage(ex, query),

  extras: async (ex, ids) => await queryComponentExtras(ex, ids),

  get: async (ex, id, options) => await loadComponent(ex, id, options?.includeDeleted ?? false),

  async getJson(ex, id, options) {
    // One lookup: the stored view's bytes as they are (no decode, no encode) and the version.
    const row = await ex.bytesRow(`SELECT ${ex.dialect.bytes(VIEW_OF_ROW)}, c.version FROM components c WHERE c.id = ? AND (c.deleted_at IS NULL OR ?)`, [
      id,
      options?.includeDeleted ? 1 : 0,
    ])
    if (!row) {
      const deleted = await ex.get<{ deletedAt: string | null }>('SELECT deleted_at AS "deletedAt" FROM components WHERE id = ?', [id])
      throw deleted?.deletedAt ? deletedComponent(id, deleted.deletedAt) : notFound('component', id)
    }
    return { json: row.bytes ?? Buffer.from((await loadComponentJsonList(ex, [id], true))[0]!, 'utf8'), version: row.numbers[0]! }
  },

  async getByIpn(ex, ipn) {
    const row = await ex.get<{ id: string }>('SELECT id FROM components WHERE ipn_key = ? AND deleted_at IS NULL', [foldKey(ipn)])
    if (!row) throw notFound('component with ipn', ipn)
    return await loadComponent(ex, row.id)
  },

  async getMany(ex, ids, options) {
    const list = await loadComponentList(ex, ids)
    return options?.includeDeleted ? list : list.filter((c) => c.deletedAt === null)
  },

  getManyJson: async (ex, ids, options) => await loadComponentJsonList(ex, ids, options?.includeDeleted ?? false),

  readForDelivery: async (ex, ids) => await readComponentsForDelivery(ex, ids),

  rereadForDelivery: async (ex, ids, mark) => await rereadComponentsForDelivery(ex, ids, mark),

  create: async (ex, input) => await _create(ex, input),

  update: async (ex, id, patch, options) => await _update(ex, id, patch, options?.ifVersion, false),

  async revert(ex, id, version, options) {
    const row = await requireComponentRow(ex, id)
    checkVersion('component', id, row.version, options?.ifVersion)
    const event = await ex.get<{ snapshot: string }>(
      'SELECT snapshot FROM component_events WHERE component_id = ? AND version = ? AND snapshot IS NOT NULL ORDER BY seq DESC LIMIT 1',
      [id, version],
    )
    if (!event) throw new ComplibError('NOT_FOUND', `component ${id} has no version ${version} in its history`)
    const then = JSON.parse(event.snapshot) as Component
    const patch: Record<string, unknown> = {}
    for (const key of _REVERTED) {
      const value = then[key]
      // A snapshot from before a field existed leaves that field as it is.
      if (value !== undefined) patch[key] = key === 'symbols' || key === 'footprints' ? (value as Component['symbols']).map((x) => x.id) : value
    }
    // Through update (its ipn, status and category rules); a link to an item deleted since cannot be made again: a
    // conflict with the library as it is now, not a malformed request.
    for (const kind of ['symbol', 'footprint'] as const) await _assertLinksExist(ex, kind, (patch[LINK_TABLES[kind].field] as string[] | undefined) ?? [])
    const change: ChangeContext = currentChange() ?? _SYSTEM_CHANGE
    return await withChange({ ...change, revertedTo: version }, () => _update(ex, id, patch as ComponentPatchParsed, options?.ifVersion, true))
  },

  async delete(ex, id, options) {
    const row = await requireComponentRow(ex, id)
    checkVersion('component', id, row.version, options?.ifVersion)
    const at = now()
    return await touchComponent(ex, id, 'delete', ['deletedAt'], at, { columns: ['deleted_at = ?'], values: [at] })
  },

  async restore(ex, id) {
    const row = await requireComponentRow(ex, id, true)
    if (row.deleted_at === null) return await loadComponent(ex, id)
    await _assertIpnFree(ex, row.ipn, id)
    return await touchComponent(ex, id, 'restore', ['deletedAt'], now(), { columns: ['deleted_at = NULL', 'ipn_key = ?'], values: [foldKey(row.ipn)] })
  },

  async purge(ex, id) {
    const row = await requireComponentRow(ex, id, true)
    await ex.dialect.unindexComponent(ex, row.rowid)
    // The data goes (snapshots), the feed keeps its sequence so consumers see create … purge.
    await ex.run(`UPDATE component_events SET snapshot = NULL, changes = '[]' WHERE component_id = ?`, [id])
    await ex.run('DELETE FROM components WHERE id = ?', [id])
    // What sources gave it has no foreign key (it outlives a deleted source): it goes by hand.
    await ex.run('DELETE FROM component_offers WHERE component_id = ?', [id])
    await ex.run('DELETE FROM field_provenance WHERE component_id = ?', [id])
    await ex.run(EVENT_INSERT, [id, 'purge', row.version, now(), '[]', null, ...changeValues()])
  },

  async duplicate(ex, id, overrides) {
    const source = await loadComponent(ex, id)
    return await _create(ex, {
      name: overrides?.name ?? `${source.name} (copy)`,
      ipn: overrides?.ipn,
      description: source.description,
      status: 'draft',
      category: source.category,
      tags: source.tags,
      parameters: source.parameters,
      symbols: source.symbols.map((s) => s.id),
      footprints: source.footprints.map((f) => f.id),
      kicadValue: source.kicadValue,
      excludeFromBom: source.excludeFromBom,
      excludeFromBoard: source.excludeFromBoard,
      excludeFromSim: source.excludeFromSim,
    }, source)
  },

  nextIpn: async (ex, prefix = 'CMP-') => await _nextIpn(ex, prefix),

  async history(ex, id, page) {
    await requireComponentRow(ex, id, true)
    const total = (await ex.get<{ n: number }>('SELECT count(*) AS n FROM component_events WHERE component_id = ?', [id]))!.n
    const before = page.cursor ? Number(decodeCursor(page.cursor, 1)[0]) : Number.MAX_SAFE_INTEGER
    const rows = await ex.all<_EventRow>(
      `SELECT seq, component_id, op, version, at, changes, snapshot, actor_kind, actor_id, actor_name, channel, comment, reverted_to
       FROM component_events WHERE component_id = ? AND seq < ? AND snapshot IS NOT NULL ORDER BY seq DESC LIMIT ?`,
      [id, before, page.limit + 1],
    )
    const more = rows.length > page.limit
    if (more) rows.pop()
    const items: ComponentHistoryEntry[] = rows.map((r) => ({
      seq: r.seq,
      componentId: r.component_id,
      version: r.version,
      op: r.op as ComponentHistoryEntry['op'],
      at: r.at,
      changes: JSON.parse(r.changes) as string[],
      snapshot: JSON.parse(r.snapshot!) as Component,
      actor: r.actor_kind === null ? null : { kind: r.actor_kind, id: r.actor_id, name: r.actor_name ?? '' },
      channel: r.channel,
      comment: r.comment,
      revertedTo: r.reverted_to,
    }))
    return { items, total, nextCursor: more ? encodeCursor([rows.at(-1)!.seq]) : null }
  },

  async changes(ex, since, limit) {
    const rows = await ex.all<_EventRow>('SELECT seq, component_id, op, version, at FROM component_events WHERE seq > ? ORDER BY seq LIMIT ?', [since, limit])
    const items: ComponentChange[] = rows.map((r) => ({ seq: r.seq, componentId: r.component_id, op: r.op as ComponentChange['op'], version: r.version, at: r.at }))
    return { items, lastSeq: items.at(-1)?.seq ?? since }
  },

  categories: async (ex) =>
    await ex.all<{ name: string; count: number }>(
      'SELECT min(category) AS name, count(*) AS count FROM components WHERE deleted_at IS NULL AND category IS NOT NULL GROUP BY lower(category) ORDER BY lower(min(category))',
    ),

  liveIds: async (ex, limit) =>
    (await ex.all<{ id: string }>(`SELECT id FROM components WHERE deleted_at IS NULL ORDER BY id${limit === undefined ? '' : ' LIMIT ?'}`, limit === undefined ? [] : [limit])).map((r) => r.id),
} satisfies StoreRepo<ComponentStore>

/** How each method uses the database (Access). */
export const componentAccess = {
  list: 'snapshot',
  listIds: 'snapshot',
  listJson: 'read',
  extras: 'snapshot',
  get: 'snapshot',
  getJson: 'read',
  getByIpn: 'snapshot',
  getMany: 'read',
  getManyJson: 'read',
  readForDelivery: 'read',
  rereadForDelivery: 'read',
  nextIpn: 'snapshot',
  history: 'snapshot',
  changes: 'read',
  categories: 'read',
  liveIds: 'read',
  create: 'write',
  update: 'write',
  revert: 'write',
  delete: 'write',
  restore: 'write',
  purge: 'write',
  duplicate: 'write',
} as const satisfies StoreAccess<ComponentStore>

/** The component's own text columns a patch sets: view field and column. */
const _COLUMNS = [
  ['name', 'name'],
  ['ipn', 'ipn'],
  ['description', 'description'],
  ['status', 'status'],
  ['category', 'category'],
  ['kicadValue', 'kicad_value'],
] as const

/** The fields of a patch kept in child tables (_writeChildren). */
const _CHILDREN = ['tags', 'parameters', 'mpns', 'symbols', 'footprints'] as const

/** The KiCad exclusion flags: view field and column (0 or 1 on both engines). */
const _FLAGS = [
  ['excludeFromBom', 'exclude_from_bom'],
  ['excludeFromBoard', 'exclude_from_board'],
  ['excludeFromSim', 'exclude_from_sim'],
] as const

// Every field a patch takes is a column, a flag or a child: a new field fails to compile until it is
// listed, so an update never builds a next view without it.
type _Listed = (typeof _COLUMNS)[number][0] | (typeof _FLAGS)[number][0] | (typeof _CHILDREN)[number]
const _EVERY_FIELD_LISTED: Record<Exclude<keyof ComponentPatchParsed, _Listed>, never> = {}
void _EVERY_FIELD_LISTED

/** The fields a revert makes again: all a patch takes (children included), not attachments or stock. */
const _REVERTED = [..._COLUMNS.map(([key]) => key), ..._FLAGS.map(([key]) => key), ..._CHILDREN] as const

/** Who a revert is recorded as when the call carries no change context. */
const _SYSTEM_CHANGE: ChangeContext = { actor: { kind: 'system', id: null, name: 'system' }, channel: 'system', requestId: null, comment: null }

interface _EventRow {
  seq: number
  component_id: string
  op: string
  version: number
  at: string
  changes: string
  snapshot: string | null
  actor_kind: Actor['kind'] | null
  actor_id: string | null
  actor_name: string | null
  channel: Channel | null
  comment: string | null
  reverted_to: number | null
}

/**
 * Applies a patch: checks, writes the row and children, records the event.
 * With `always` (a revert), a new version even when nothing changed, and only
 * the fields that changed are written (children rewritten only when they differ).
 */
async function _update(ex: SqlExecutor, id: string, patch: ComponentPatchParsed, ifVersion: number | undefined, always: boolean): Promise<Component> {
  const { row, view: before } = await requireComponentWithView(ex, id)
  checkVersion('component', id, row.version, ifVersion)
  if (patch.status !== undefined) assertTransition(row.status, patch.status)
  // Values checked against their types before anything is written; one the component holds already passes (decision 0441).
  if (patch.parameters !== undefined) patch = { ...patch, parameters: await conformParameters(ex, patch.parameters, _valuePath, before.parameters) }
  // The category's required parameters, when the write touches either (decision 0440).
  if (patch.parameters !== undefined || patch.category !== undefined) {
    await assertRequiredParameters(ex, patch.category === undefined ? before.category : patch.category, patch.parameters ?? before.parameters, 'body.parameters')
  }
  // A path names a category of the tree, made where missing, as its stored names.
  if (patch.category) patch = { ...patch, category: await ensureCategoryPath(ex, patch.category) }
  // The same ipn sent back unchanged is no change (a component kept from before foldKey holds no key: identifier-keys.ts).
  const ipnChanged = patch.ipn !== undefined && patch.ipn !== row.ipn
  if (ipnChanged) await _assertIpnFree(ex, patch.ipn!, id)
  const changed = _changedFields(before, patch)
  if (changed.length === 0 && !always) return before
  if (always) patch = Object.fromEntries(changed.map((key) => [key, patch[key as keyof ComponentPatchParsed]])) as ComponentPatchParsed
  const at = now()
  const fields: string[] = []
  const values: (string | number | null)[] = []
  for (const [key, column] of _COLUMNS) {
    if (patch[key] !== undefined) {
      fields.push(`${column} = ?`)
      values.push(patch[key] ?? null)
    }
  }
  for (const [key, column] of _FLAGS) {
    if (patch[key] !== undefined) {
      fields.push(`${column} = ?`)
      values.push(patch[key] ? 1 : 0)
    }
  }
  if (ipnChanged && patch.ipn !== undefined) {
    fields.push('ipn_key = ?')
    values.push(foldKey(patch.ipn))
  }
  // A patch of the row's own columns knows its next view: the database builds none (touchComponent).
  if (_CHILDREN.every((key) => patch[key] === undefined)) {
    const next: Record<string, unknown> = { ...before }
    for (const [key] of _COLUMNS) if (patch[key] !== undefined) next[key] = patch[key] ?? null
    for (const [key] of _FLAGS) if (patch[key] !== undefined) next[key] = patch[key]
    next.updatedAt = at
    next.version = row.version + 1
    return await touchComponent(ex, id, 'update', changed, at, { columns: fields, values }, next as Component)
  }
  await _writeChildren(ex, id, patch, at)
  return await touchComponent(ex, id, 'update', changed, at, { columns: fields, values })
}

/** CONFLICT naming the field when a symbol or footprint among `ids` no longer exists. */
async function _assertLinksExist(ex: SqlExecutor, kind: LinkKind, ids: readonly string[]): Promise<void> {
  const { items, field } = LINK_TABLES[kind]
  for (const [i, itemId] of ids.entries()) {
    if (!await ex.get(`SELECT 1 FROM ${items} WHERE id = ?`, [itemId])) {
      throw new ComplibError('CONFLICT', `${kind} ${itemId} was deleted since that version: it cannot be linked again`, {
        errors: [{ path: `body.${field}[${i}]`, message: `${kind} ${itemId} no longer exists` }],
      })
    }
  }
}

/** With `copyOf` (a duplicate), the source's values and its missing parameters pass as they are, as when it is written back (decision 0441). */
async function _create(ex: SqlExecutor, input: ComponentCreateParsed, copyOf?: Component): Promise<Component> {
  // Values checked against their types, and the category's required parameters, before anything is written (decisions 0440, 0441).
  if (input.parameters !== undefined) input = { ...input, parameters: await conformParameters(ex, input.parameters, _valuePath, copyOf?.parameters) }
  if (!copyOf) await assertRequiredParameters(ex, input.category, input.parameters ?? [], 'body.parameters')
  const at = now()
  const id = createId('component')
  const ipn = input.ipn ?? await _nextIpn(ex, 'CMP-')
  await _assertIpnFree(ex, ipn, null)
  if (input.category) input = { ...input, category: await ensureCategoryPath(ex, input.category) }
  await ex.run(
    `INSERT INTO components (id, ipn, ipn_key, name, description, status, category, kicad_value, exclude_from_bom, exclude_from_board, exclude_from_sim, created_at, updated_at, deleted_at, version)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 1)`,
    [id, ipn, foldKey(ipn), input.name, input.description ?? null, input.status ?? 'active', input.category ?? null, input.kicadValue ?? null, ...(_FLAGS.map(([key]) => (input[key] ? 1 : 0))), at, at],
  )
  await _writeChildren(ex, id, input, at)
  return await touchComponent(ex, id, 'create', Object.keys(input), at)
}

/** Where a component body holds a parameter's value; bulk writes prefix it with their item. */
function _valuePath(i: number): string {
  return `body.parameters[${i}].value`
}

/** An ipn that reads as a live component's (foldKey) is a 409 naming that component and its ipn as stored. */
async function _assertIpnFree(ex: SqlExecutor, ipn: string, exceptId: string | null): Promise<void> {
  const taken = await ex.get<{ id: string; ipn: string }>('SELECT id, ipn FROM components WHERE ipn_key = ? AND deleted_at IS NULL AND id IS DISTINCT FROM ?', [foldKey(ipn), exceptId])
  if (taken) throw conflict('body.ipn', `ipn ${ipn} is already used by component ${taken.id}${taken.ipn === ipn ? '' : ` (as ${taken.ipn})`}`)
}

/**
 * The next `<prefix><number>` after the highest one ever used (deleted
 * components count, so numbers are never reused), keeping the widest number
 * width seen (at least 5). For the default prefix, an index on the number
 * answers it; other prefixes read a range of the ipn index.
 */
async function _nextIpn(ex: SqlExecutor, prefix: string): Promise<string> {
  let max = 0
  let width = 5
  const key = foldKey(prefix)
  if (key === 'cmp-') {
    const top = await ex.get<{ digits: string }>(
      ex.dialect.highestDefaultIpn,
    )
    if (top) {
      max = Number(top.digits)
      width = Math.max(width, top.digits.length)
    }
  } else {
    for (const { ipn } of await ex.all<{ ipn: string }>(`SELECT ipn FROM components WHERE ${ex.dialect.nocase('ipn')} >= ${ex.dialect.nocase('?')} AND ${ex.dialect.nocase('ipn')} < ${ex.dialect.nocase('?')}`, [`${prefix}0`, `${prefix}:`])) {
      const digits = ipn.slice(prefix.length)
      if (!/^\d+$/.test(digits)) continue
      max = Math.max(max, Number(digits))
      width = Math.max(width, digits.length)
    }
  }
  // A live ipn that reads the same another way (full-width digits) is skipped.
  let next = max + 1
  while (await ex.get('SELECT 1 FROM components WHERE ipn_key = ? AND deleted_at IS NULL', [foldKey(`${prefix}${String(next).padStart(width, '0')}`)])) next++
  return `${prefix}${String(next).padStart(width, '0')}`
}

async function _writeChildren(ex: SqlExecutor, id: string, input: ComponentCreateParsed | ComponentPatchParsed, at: string): Promise<void> {
  if (input.tags !== undefined) await setTags(ex, id, input.tags, at)
  if (input.parameters !== undefined) await setParameters(ex, id, input.parameters, at)
  if (input.mpns !== undefined) await setMpns(ex, id, input.mpns, at)
  if (input.symbols !== undefined) await setLinks(ex, 'symbol', id, input.symbols)
  if (input.footprints !== undefined) await setLinks(ex, 'footprint', id, input.footprints)
}

/** Names of the fields whose patched value differs from the current view. */
function _changedFields(before: Component, patch: ComponentPatchParsed): string[] {
  const changed: string[] = []
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue
    const current = (before as Record<string, unknown>)[key]
    const comparable = key === 'symbols' || key === 'footprints' ? (current as { id: string }[]).map((x) => x.id) : current
    const next = key === 'parameters' ? (value as { unit?: string | null }[]).map((p) => (p.unit == null ? { type: (p as { type: string }).type, value: (p as { value: string }).value } : p)) : value
    if (JSON.stringify(comparable) !== JSON.stringify(next)) changed.push(key)
  }
  return changed
}
