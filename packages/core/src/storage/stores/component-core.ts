import { currentChange } from '../../change-context'
import { ComplibError } from '../../errors'
import type { Component } from '../../schemas/component'
import type { Dialect, SqlExecutor, SqlParam } from '../_internal/sql-executor'
import type { DeliveryRead } from '../types'
import { chunks, notFound, now, placeholders } from './_shared'

/**
 * What every repository touching a component shares: assembling the
 * component view (one query per child table for a whole page, never one per
 * component), bumping its version with a history event, and keeping the
 * full-text index in step.
 */

export interface ComponentRow {
  rowid: number
  id: string
  ipn: string
  name: string
  description: string | null
  status: Component['status']
  category: string | null
  kicad_value: string | null
  exclude_from_bom: number
  exclude_from_board: number
  exclude_from_sim: number
  created_at: string
  updated_at: string
  deleted_at: string | null
  version: number
}

export const COMPONENT_COLUMNS = 'rowid, id, ipn, name, description, status, category, kicad_value, exclude_from_bom, exclude_from_board, exclude_from_sim, created_at, updated_at, deleted_at, version'

/**
 * One component as JSON, assembled by the database from the tables, in one
 * list of key/expression pairs over a `components c` row that each engine's
 * dialect turns into its JSON functions: a row per component instead of a row
 * per tag, parameter and part number. Child arrays keep their stored order;
 * `unit` is left out when it has none. Every change of a component computes
 * its view this way once, in touchComponent, and stores it with the history
 * event; reads then take that stored view (loadComponents).
 */
function _viewJson(d: Dialect): string {
  const list = (expr: string, orderBy: string, from: string) => d.jsonArrayOf(expr, orderBy, from)
  const item = (kind: 'symbols' | 'footprints') =>
    list(d.jsonObject([['id', 'i.id'], ['name', 'i.name']]), 'l.position', `FROM component_${kind} l JOIN ${kind} i ON i.id = l.item_id WHERE l.component_id = c.id`)
  const parameter = `CASE WHEN p.unit IS NULL THEN ${d.jsonObject([['type', 'p.type'], ['value', 'p.value']])} ELSE ${d.jsonObject([['type', 'p.type'], ['value', 'p.value'], ['unit', 'p.unit']])} END`
  return d.jsonText(
    d.jsonObject([
      ['id', 'c.id'], ['name', 'c.name'], ['ipn', 'c.ipn'], ['description', 'c.description'], ['status', 'c.status'], ['category', 'c.category'],
      ['tags', list('t.name', 'ct.position', 'FROM component_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.component_id = c.id')],
      ['parameters', list(parameter, 'p.position', 'FROM component_parameters p WHERE p.component_id = c.id')],
      ['mpns', list(d.jsonObject([['manufacturer', 'f.name'], ['partNumber', 'm.part_number']]), 'm.position', 'FROM mpns m JOIN manufacturers f ON f.id = m.manufacturer_id WHERE m.component_id = c.id')],
      ['symbols', item('symbols')],
      ['footprints', item('footprints')],
      ['attachments', list(d.jsonObject([['id', 'a.id'], ['name', 'a.name']]), 'a.id', 'FROM attachments a WHERE a.component_id = c.id')],
      ['kicadValue', 'c.kicad_value'], ['excludeFromBom', d.jsonBoolean('c.exclude_from_bom')], ['excludeFromBoard', d.jsonBoolean('c.exclude_from_board')],
      ['excludeFromSim', d.jsonBoolean('c.exclude_from_sim')], ['createdAt', 'c.created_at'], ['updatedAt', 'c.updated_at'], ['version', 'c.version'], ['deletedAt', 'c.deleted_at'],
    ]),
  )
}

/** _viewJson of each dialect, built once. */
const _VIEWS = new Map<Dialect, string>()

function _view(ex: SqlExecutor): string {
  let sql = _VIEWS.get(ex.dialect)
  if (sql === undefined) _VIEWS.set(ex.dialect, (sql = _viewJson(ex.dialect)))
  return sql
}

/** Computes component views from the tables, keyed by id (what touchComponent stores). */
export async function computeComponents(ex: SqlExecutor, ids: readonly string[]): Promise<Map<string, Component>> {
  const out = new Map<string, Component>()
  for (const part of chunks([...new Set(ids)])) {
    for (const row of await ex.all<{ id: string; json: string }>(`SELECT c.id AS id, ${_view(ex)} AS json FROM components c WHERE c.id IN (${placeholders(part.length)})`, part)) {
      out.set(row.id, JSON.parse(row.json) as Component)
    }
  }
  return out
}

/**
 * Joins each `components c` row to the history event holding its current
 * view, `e.snapshot`: event `view_seq`, which the schema's trigger keeps on
 * the latest event that stored a view. A join, not a correlated subquery per
 * row: SQLite sets a subquery up for every row it runs for, which cost more
 * than the lookups themselves (decision 1201).
 */
export const VIEW_JOIN = 'LEFT JOIN component_events e ON e.seq = c.view_seq'

/** What a column selected with the dialect's `bytes` came back as, in bytes. */
export function asBytes(value: Uint8Array | string): Uint8Array {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : value
}

/**
 * The current view of one `components c` row as a scalar subquery: for a
 * single row this is the cheaper form (decision 1201).
 */
export const VIEW_OF_ROW = '(SELECT e.snapshot FROM component_events e WHERE e.seq = c.view_seq)'

/**
 * The stored views of `ids` as JSON text, keyed by id (deleted components only
 * with `includeDeleted`): one indexed lookup per component. Every write that
 * changes what a live component shows goes through touchComponent, which
 * stores the new view (the storage tests check this after every test). A
 * deleted component keeps the view it had when it was deleted until it is
 * restored.
 */
async function _storedViews(ex: SqlExecutor, ids: readonly string[], includeDeleted: boolean): Promise<Map<string, string>> {
  const found = new Map<string, string>()
  const missing: string[] = []
  for (const part of chunks([...new Set(ids)])) {
    for (const row of await ex.all<{ id: string; json: string | null }>(
      `SELECT c.id AS id, e.snapshot AS json FROM components c ${VIEW_JOIN} WHERE c.id IN (${placeholders(part.length)})${includeDeleted ? '' : ' AND c.deleted_at IS NULL'}`,
      part,
    )) {
      if (row.json === null) missing.push(row.id)
      else found.set(row.id, row.json)
    }
  }
  // No stored view (not expected: every component is created through touchComponent): compute it.
  if (missing.length) for (const [id, c] of await computeComponents(ex, missing)) found.set(id, JSON.stringify(c))
  return found
}

/** Loads full component views for `ids` (deleted ones too), keyed by id (see _storedViews). */
export async function loadComponents(ex: SqlExecutor, ids: readonly string[]): Promise<Map<string, Component>> {
  const out = new Map<string, Component>()
  for (const [id, json] of await _storedViews(ex, ids, true)) out.set(id, JSON.parse(json) as Component)
  return out
}

/**
 * The stored views of `ids` as JSON text, in the order of `ids` (unknown ids
 * skipped; deleted ones only with `includeDeleted`): what a response or a
 * delivery sends, without parsing and serializing every record again.
 */
export async function loadComponentJsonList(ex: SqlExecutor, ids: readonly string[], includeDeleted: boolean): Promise<string[]> {
  const found = await _storedViews(ex, ids, includeDeleted)
  const out: string[] = []
  for (const id of ids) {
    const json = found.get(id)
    if (json !== undefined) out.push(json)
  }
  return out
}

/**
 * The live components among `ids` as one JSON array in UTF-8 bytes, in the
 * order of `ids`, and the history position of this read: the highest event
 * seq. Every later change has a higher seq, so the events at or below the mark
 * are this read. One statement (the mark and the views from one snapshot),
 * and one BLOB: the database joins the stored views, no view is decoded into
 * a string (much of a push's CPU when each was; measured by
 * `npm run bench -- --only=push`).
 */
export async function readComponentsForDelivery(ex: SqlExecutor, ids: readonly string[]): Promise<DeliveryRead & { mark: number }> {
  // The ids are the left side of a CROSS JOIN, the outer loop: concatInOrder follows them.
  const d = ex.dialect
  const row = (await ex.get<{ json: Uint8Array | string; count: number | string; present: number | string; mark: number | string | null }>(
    `SELECT ${d.bytes(`'[' || coalesce(${d.concatInOrder('e.snapshot', "','", 'j.key')}, '') || ']'`)} AS json,
       count(*) AS count, count(e.snapshot) AS present, (SELECT max(seq) FROM component_events) AS mark
     FROM ${d.jsonTextsOrdered('?', 'j')} CROSS JOIN components c ${VIEW_JOIN}
     WHERE c.id = j.value AND c.deleted_at IS NULL`,
    [JSON.stringify(ids)],
  ))!
  const mark = Number(row.mark ?? 0)
  if (Number(row.present) === Number(row.count)) return { json: asBytes(row.json), count: Number(row.count), mark }
  // No stored view (not expected: every component is created through touchComponent): computed.
  const records = await loadComponentJsonList(ex, ids, false)
  return { json: Buffer.from(`[${records.join(',')}]`, 'utf8'), count: records.length, mark }
}

/**
 * What readComponentsForDelivery gave at `mark`: for each id, its latest
 * event at or below the mark, kept when the component was live then.
 * History keeps those texts; a purge erases them, so a purged component is
 * left out.
 */
export async function rereadComponentsForDelivery(ex: SqlExecutor, ids: readonly string[], mark: number): Promise<DeliveryRead> {
  const out: string[] = []
  for (const part of chunks([...ids])) {
    for (const row of await ex.all<{ json: string | null }>(
      `SELECT (SELECT e.snapshot FROM component_events e WHERE e.component_id = j.value AND e.seq <= ? ORDER BY e.seq DESC LIMIT 1) AS json
       FROM ${ex.dialect.jsonTextsOrdered('?', 'j')} ORDER BY j.key`,
      [mark, JSON.stringify(part)],
    )) {
      if (row.json !== null && (JSON.parse(row.json) as { deletedAt: string | null }).deletedAt === null) out.push(row.json)
    }
  }
  return { json: Buffer.from(`[${out.join(',')}]`, 'utf8'), count: out.length }
}

/** Loads components in the order of `ids`, skipping unknown ones. */
export async function loadComponentList(ex: SqlExecutor, ids: readonly string[]): Promise<Component[]> {
  const map = await loadComponents(ex, ids)
  const out: Component[] = []
  for (const id of ids) {
    const c = map.get(id)
    if (c) out.push(c)
  }
  return out
}

/** The component row, or NOT_FOUND (also for a deleted one unless `includeDeleted`). */
export async function requireComponentRow(ex: SqlExecutor, id: string, includeDeleted = false): Promise<ComponentRow> {
  return _required(await ex.get<ComponentRow>(`SELECT ${COMPONENT_COLUMNS} FROM components WHERE id = ?`, [id]), id, includeDeleted)
}

/** requireComponentRow of a live component and its current view, in one statement (what an update starts from). */
export async function requireComponentWithView(ex: SqlExecutor, id: string): Promise<{ row: ComponentRow; view: Component }> {
  const { view, ...row } = _required(await ex.get<ComponentRow & { view: string | null }>(`SELECT ${COMPONENT_COLUMNS}, ${VIEW_OF_ROW} AS view FROM components c WHERE c.id = ?`, [id]), id, false)
  return { row, view: view !== null ? (JSON.parse(view) as Component) : (await loadComponents(ex, [id])).get(id)! }
}

function _required<R extends ComponentRow>(row: R | undefined, id: string, includeDeleted: boolean): R {
  if (!row) throw notFound('component', id)
  if (row.deleted_at !== null && !includeDeleted) throw deletedComponent(id, row.deleted_at)
  return row
}

/** NOT_FOUND for a component that is soft-deleted: it says so, and how to bring it back. */
export function deletedComponent(id: string, deletedAt: string): ComplibError {
  return new ComplibError(
    'NOT_FOUND',
    `component ${id} was deleted at ${deletedAt}; restore it with POST /api/components/${id}/restore (lists show it with includeDeleted=true)`,
  )
}

/** One component view, or NOT_FOUND. */
export async function loadComponent(ex: SqlExecutor, id: string, includeDeleted = false): Promise<Component> {
  await requireComponentRow(ex, id, includeDeleted)
  return (await loadComponents(ex, [id])).get(id)!
}

export type ComponentEventOp = 'create' | 'update' | 'delete' | 'restore' | 'purge'

/**
 * The INSERT of a history event: component_id, op, version, at, changes,
 * snapshot, then who made it and why (changeValues).
 */
export const EVENT_INSERT = `INSERT INTO component_events (component_id, op, version, at, changes, snapshot, actor_kind, actor_id, actor_name, channel, comment, request_id, reverted_to)
  VALUES (${placeholders(13)})`

/**
 * The attribution of a history event, from the change context of the call
 * (change-context.ts): actor_kind, actor_id, actor_name, channel, comment,
 * request_id, reverted_to. All NULL without one (a write made outside a
 * request, such as a test's or an import's own).
 */
export function changeValues(): SqlParam[] {
  const change = currentChange()
  if (!change) return [null, null, null, null, null, null, null]
  return [change.actor.kind, change.actor.id, change.actor.name, change.channel, change.comment, change.requestId, change.revertedTo ?? null]
}

/** Column assignments for touchComponent to make in its own UPDATE of the row: `column = ?` and the values. */
export interface ComponentSets {
  columns: string[]
  values: SqlParam[]
}

/**
 * Records that a component changed: bumps `version` and `updatedAt` (except
 * for `create`, whose row already holds version 1), writes a history event
 * with the new snapshot, and re-indexes it for search. Returns the new view.
 * Every write to a component or its children ends with this call. `sets`
 * are made by the same UPDATE, which also returns the new view: with the
 * event's INSERT, two statements (round trips, on PostgreSQL) in all.
 *
 * `next` is the view the change leads to when the caller already knows it (a
 * patch of the row's own columns: the view before it with those fields, the
 * version and updatedAt replaced). The database then builds no view, and on
 * PostgreSQL the UPDATE and the event are one statement: one round trip while
 * the write lock is held, and no view builder's seven subqueries under it.
 * The UPDATE checks that the row is still at `next.version - 1`.
 */
export async function touchComponent(
  ex: SqlExecutor,
  id: string,
  op: Exclude<ComponentEventOp, 'purge'>,
  changes: readonly string[],
  at: string = now(),
  sets: ComponentSets = { columns: [], values: [] },
  next?: Component,
): Promise<Component> {
  if (next) return await _touchKnown(ex, id, op, changes, at, sets, next)
  // Where the engine keeps the words in the row, this UPDATE writes them from the row itself when
  // it leaves the row's own text alone (a create's is in the row already; a change of part numbers
  // is in the transaction): no statement more. Its assignments read the row as it was before it.
  const wordsFromRow =
    ex.dialect.componentWordsOfRow && ex.dialect.updateReturningAlias && changesWords(changes) && (op === 'create' || !changes.some((field) => OWN_TEXT_FIELDS.has(field)))
      ? `words = ${ex.dialect.componentWordsOfRow('c')}`
      : undefined
  const columns = [...sets.columns, ...(wordsFromRow ? [wordsFromRow] : []), ...(op === 'create' ? [] : ['version = version + 1', 'updated_at = ?'])]
  const values = [...sets.values, ...(op === 'create' ? [] : [at]), id]
  const select = `SELECT ${_view(ex)} AS json FROM components c WHERE c.id = ?`
  let row: { json: string } | undefined
  if (columns.length === 0) row = await ex.get(select, [id])
  else if (ex.dialect.updateReturningAlias) {
    // One round trip: the UPDATE returns the view it leads to.
    row = await ex.get(`UPDATE components AS c SET ${columns.join(', ')} WHERE c.id = ? RETURNING ${_view(ex)} AS json`, values)
  } else {
    // RETURNING cannot name the table by the view builder's alias `c` (SQLite): a second statement.
    await ex.run(`UPDATE components SET ${columns.join(', ')} WHERE id = ?`, values)
    row = await ex.get(select, [id])
  }
  if (!row) throw notFound('component', id)
  const component = JSON.parse(row.json) as Component
  await ex.run(EVENT_INSERT, [
    id,
    op,
    component.version,
    at,
    JSON.stringify(changes),
    JSON.stringify(component),
    ...changeValues(),
  ])
  if (!wordsFromRow) await ex.dialect.reindexComponent(ex, id, changes)
  return component
}

/** The fields whose text a component's words hold (the list's `q`, suggest's word tier). */
const SEARCHED_FIELDS = new Set(['name', 'ipn', 'description', 'mpns'])
/** Those of them in the component's own row. */
const OWN_TEXT_FIELDS = new Set(['name', 'ipn', 'description'])

/** Whether a write that changed `changes` changed the text of a component's words. */
export function changesWords(changes: readonly string[]): boolean {
  return changes.some((field) => SEARCHED_FIELDS.has(field))
}

/** touchComponent of a change whose next view the caller gives: the row's UPDATE and the event, no view built. */
async function _touchKnown(ex: SqlExecutor, id: string, op: ComponentEventOp, changes: readonly string[], at: string, sets: ComponentSets, next: Component): Promise<Component> {
  const snapshot = JSON.stringify(next)
  const event = [id, op, next.version, at, JSON.stringify(changes), snapshot, ...changeValues()]
  // Where the engine keeps the words in the row, the same UPDATE writes them (no round trip more).
  const words = changesWords(changes) ? ex.dialect.componentWords?.(next) : undefined
  const update = `UPDATE components SET ${[...sets.columns, ...(words ? [words.sql] : []), 'version = version + 1', 'updated_at = ?'].join(', ')} WHERE id = ? AND version = ?`
  const values = [...sets.values, ...(words?.params ?? []), at, id, next.version - 1]
  let changed: number
  if (ex.dialect.writableCte) {
    // One statement: the event's trigger sets view_seq once the UPDATE has run (AFTER triggers fire at the statement's end).
    const row = await ex.get<{ n: number }>(
      `WITH e AS (${EVENT_INSERT}), u AS (${update} RETURNING 1)
       SELECT count(*) AS n FROM u`,
      [...event, ...values],
    )
    changed = Number(row?.n ?? 0)
  } else {
    changed = (await ex.run(update, values)).changes
    if (changed === 1) await ex.run(EVENT_INSERT, event)
  }
  // The caller read the row at version - 1 in this transaction, under the write lock: a miss is a bug, not a race.
  if (changed !== 1) throw new Error(`[storage] component ${id} is not at version ${next.version - 1} as read`)
  if (!words) await ex.dialect.reindexComponent(ex, id, changes)
  return next
}
