import type * as z from 'zod'
import { ComplibError } from '../errors'
import { foldKey } from '../identifiers'
import { ComponentCreate, ComponentPatch, type Component } from '../schemas/component'
import type { ImportTarget, UpsertKey } from '../schemas/import'
import type { SupplierOffer } from '../schemas/source'
import { STATUS_TRANSITIONS, canTransition } from '../status'
import type { StorageSession } from '../storage/types'
import { createYielder } from '../yielder'
import { findChanges, type ChangeLookups } from './changes'
import { rawCellOf, type ImportRow } from './row'
import { planCompanies, type CompanyRow } from './company-plan'
import { companyNames, liveTarget, sourceLabel, writeRefs, type PlannedRef, type RefUndo } from './external-refs'
import { planWarnings } from './plan-warnings'
import type { ImportRowError, PlannedExtras, PlannedRow } from './plan-types'
import { readRowInput, type LibRef, type RowInput } from './row-input'
import type { MappingWarning } from './warnings'

export type { ImportRowError, PlannedExtras, PlannedRow } from './plan-types'

export interface ImportPlan {
  rows: PlannedRow[]
  errors: ImportRowError[]
  /** Company refs a company export writes at commit (decision 0646); absent in plans stored before. */
  refs?: PlannedRef[]
  /** What looks wrong in what the plan would do, shown before commit (decision 0647). */
  warnings?: MappingWarning[]
}

/** How a plan is made beyond its mapping. */
export interface PlanOptions {
  onProgress?: ((rowsPlanned: number) => void | Promise<void>) | undefined
  /** Whose keys the key columns hold (decision 0640): `inventree`, `partdb`, …; null or absent: none. */
  source?: string | null | undefined
  /** The file's recognised format: a company export plans companies, not parts. */
  preset?: string | undefined
}

/**
 * Turns rows into planned creates and updates under a mapping. Rows with the
 * same upsert key are one part: they merge (their MPNs, tags, parameters,
 * stock and links add up; two different values of one field are an error).
 * A row without an ipn, keyed by ipn, is created with a generated one. Every
 * component is validated with the same schema as `POST /api/components`;
 * errors name the row (1-based, as a spreadsheet shows it after the header)
 * and the field. Gives other requests a turn now and then (createYielder).
 */
export async function planImport(
  storage: StorageSession,
  rows: Iterable<ImportRow> | AsyncIterable<ImportRow>,
  mapping: Record<string, ImportTarget>,
  upsertKey: UpsertKey,
  options: PlanOptions = {},
): Promise<ImportPlan> {
  const errors: ImportRowError[] = []
  const groups = new Map<string, { rows: number[]; input: RowInput }>()
  const source = options.source ?? null
  const companyFile = options.preset === 'inventree-companies'
  const companies: CompanyRow[] = []
  const companyName = source === null ? null : companyNames(storage, source)
  const keyColumn = (target: ImportTarget) => Object.keys(mapping).find((c) => mapping[c] === target) ?? target
  const stats = { rows: 0, keyed: 0, numericColumns: new Map<string, boolean>() }
  const yieldTurn = createYielder()
  let anonymous = 0
  const valueTypes = new Map<string, string | null>()
  // Rows come in file order, numbered as a spreadsheet shows them (the first after the header is 2); a stored import reads them a chunk at a time.
  let row = 1
  for await (const cells of rows) {
    await yieldTurn()
    row++
    const read = readRowInput(cells, mapping)
    if (read.errors.length) {
      // Every error of the row at once: the cells it could not read, and what the schema says of the rest.
      for (const e of read.errors) errors.push({ row, ...e })
      const rest = ComponentCreate.safeParse(read.input.fields)
      if (!rest.success) for (const issue of rest.error.issues) if (!read.errors.some((e) => e.path === String(issue.path[0]))) errors.push({ row, path: issue.path.join('.') || '(row)', message: issue.message })
      continue
    }
    const { input } = read
    _noteCells(cells, mapping, stats)
    if (source === null && (input.sourceKey !== undefined || input.partKey !== undefined || input.mpns.some((m) => m.manufacturerKey !== undefined))) {
      const target = input.partKey !== undefined ? 'partKey' : input.sourceKey !== undefined ? 'sourceKey' : 'manufacturerKey'
      errors.push({ row, path: target, column: keyColumn(target), message: `column "${keyColumn(target)}" holds a peer's keys, but the import has no source; upload the file again with ?source= (inventree, partdb)` })
      continue
    }
    if (input.offers !== undefined && input.sourceKey === undefined) {
      // Offers are kept per source and part key (decision 1609): a row without its key at the source has nowhere to keep them.
      errors.push({ row, path: 'offers', column: keyColumn('offers'), message: `column "${keyColumn('offers')}": offers are kept only for a row with its key at the source (map a column to sourceKey)` })
      continue
    }
    if (companyFile) {
      // A company export names companies, not parts (decision 0646).
      if (input.sourceKey === undefined) errors.push({ row, path: 'sourceKey', column: keyColumn('sourceKey'), message: `column "${keyColumn('sourceKey')}": a company without its key` })
      else if (typeof input.fields.name !== 'string') errors.push({ row, path: 'name', column: keyColumn('name'), message: `column "${keyColumn('name')}": a company without a name` })
      else companies.push({ row, key: input.sourceKey, name: input.fields.name })
      continue
    }
    for (const m of input.mpns) {
      if (m.manufacturerKey === undefined) continue
      m.manufacturer = await companyName!(m.manufacturerKey)
      delete m.manufacturerKey
    }
    if (input.partKey !== undefined) {
      // The part's own columns in a file attached to parts name it; they never rename it, and its key is the part's, not the row's own.
      delete input.fields.name
      delete input.fields.ipn
      delete input.sourceKey
    }
    if (input.partKey !== undefined || input.sourceKey !== undefined) stats.keyed++
    stats.rows++
    await _valueParameter(storage, input, valueTypes)
    const key = input.partKey !== undefined ? `\u0001${input.partKey}` : input.sourceKey !== undefined ? `\u0002${input.sourceKey}` : _key(input, upsertKey)
    const keyName = input.partKey !== undefined ? `part key (${keyColumn('partKey')})` : input.sourceKey !== undefined ? `source key (${keyColumn('sourceKey')})` : upsertKey
    if (key === undefined && upsertKey !== 'ipn') {
      errors.push({ row, path: upsertKey === 'mpn' ? 'partNumber' : 'name', message: `the upsert key (${upsertKey}) is empty` })
      continue
    }
    // Compared as the database compares identifiers (foldKey), so lookalikes in one file are one part.
    const groupKey = key ?? `\u0000row${anonymous++}`
    const group = groups.get(groupKey)
    if (!group) groups.set(groupKey, { rows: [row], input })
    else {
      const conflict = _merge(group.input, input)
      if (conflict) errors.push({ row, path: conflict, message: `differs from row ${group.rows[0]}, which has the same ${keyName}` })
      else group.rows.push(row)
    }
  }
  const planned: PlannedRow[] = []
  const lookups: ChangeLookups = { refs: new Map() }
  let refs: PlannedRef[] | undefined
  if (companyFile && source !== null) {
    const made = await planCompanies(storage, source, companies, lookups)
    planned.push(...made.rows)
    errors.push(...made.errors)
    refs = made.refs
  }
  // The parts the keys name, looked up at once (decision 0640).
  const held = new Map<string, string>()
  if (source !== null) {
    const keys = [...groups.values()].flatMap((g) => [g.input.partKey, g.input.sourceKey]).filter((k): k is string => k !== undefined)
    for (const r of await storage.externalRefs.lookup(source, 'part', keys)) held.set(r.key, r.target)
  }
  let plannedRows = 0
  for (const group of groups.values()) {
    await yieldTurn()
    plannedRows += group.rows.length
    if (options.onProgress && plannedRows % 500 < group.rows.length) await options.onProgress(plannedRows)
    const row = group.rows[0]!
    const { fields, mpns, sourceKey, partKey, ...extras } = group.input
    let existing: Component | null
    let sourceRef: PlannedRow['sourceRef']
    if (partKey !== undefined) {
      // A row of a file attached to parts updates the part its key names, and never creates one.
      existing = await liveTarget((id) => storage.components.get(id), held.get(partKey))
      if (!existing) {
        const column = keyColumn('partKey')
        for (const r of group.rows) errors.push({ row: r, path: 'partKey', column, message: `column "${column}": no part with ${sourceLabel(source!)} key ${partKey} was imported; import the part export first` })
        continue
      }
    } else if (sourceKey !== undefined) {
      // The ref first (a second import of one export updates its parts, IPN or not), else the upsert key.
      const byRef = await liveTarget((id) => storage.components.get(id), held.get(sourceKey))
      existing = byRef ?? (_key(group.input, upsertKey) === undefined ? null : await _findExisting(storage, group.input, upsertKey))
      sourceRef = { source: source!, key: sourceKey, held: byRef !== null }
    } else existing = await _findExisting(storage, group.input, upsertKey)
    // An existing component is patched (only the mapped fields change; MPNs and parameters add to its own); a new one must be a whole component.
    const raw: Record<string, unknown> = { ...fields }
    if (existing) {
      if (mpns.length) raw.mpns = _unionMpns(existing.mpns, mpns)
      if (fields.parameters) raw.parameters = _unionParameters(existing.parameters, fields.parameters as Component['parameters'])
    } else if (mpns.length) raw.mpns = mpns
    const parsed = existing ? ComponentPatch.safeParse(raw) : ComponentCreate.safeParse(raw)
    if (!parsed.success) {
      for (const issue of parsed.error.issues) errors.push({ row, path: issue.path.join('.') || '(row)', message: issue.message })
      // Every row of an invalid part is invalid, and says why: none of it is imported.
      for (const other of group.rows.slice(1)) errors.push({ row: other, path: '(row)', message: `merged with row ${row} (the same ${upsertKey}), which is invalid` })
      continue
    }
    // A status move the lifecycle forbids would fail the commit: the preview names it instead, as an invalid row.
    const status = (parsed.data as { status?: Component['status'] | undefined }).status
    if (existing && status !== undefined && !canTransition(existing.status, status)) {
      const allowed = STATUS_TRANSITIONS[existing.status].join(', ')
      errors.push({ row, path: 'status', column: keyColumn('status'), message: `status cannot change from ${existing.status} to ${status} (allowed from ${existing.status}: ${allowed}); change it in two steps, or leave it` })
      for (const other of group.rows.slice(1)) errors.push({ row: other, path: '(row)', message: `merged with row ${row} (the same ${upsertKey}), which is invalid` })
      continue
    }
    // The value check of every parameter write, and the category's required parameters (decisions 0440, 0441): a row error, so the preview shows it and the commit refuses.
    if (fields.parameters !== undefined || fields.category !== undefined) {
      const data = parsed.data as { parameters?: Component['parameters'] | undefined; category?: string | null | undefined }
      const problems = await storage.parameterTypes.check(data.parameters ?? existing?.parameters ?? [], { category: data.category === undefined ? existing?.category : data.category, held: existing?.parameters })
      if (problems.length) {
        for (const p of problems) errors.push({ row, path: p.path.replace(/\[(\d+)\]/g, '.$1'), message: p.message })
        for (const other of group.rows.slice(1)) errors.push({ row: other, path: '(row)', message: `merged with row ${row} (the same ${upsertKey}), which is invalid` })
        continue
      }
    }
    const base = { row, rows: group.rows, extras: _compact(extras), ...(sourceRef ? { sourceRef } : {}) }
    if (existing) {
      const changes = await findChanges(storage, existing, parsed.data, extras, lookups, sourceRef?.source)
      planned.push({ ...base, action: 'update', componentId: existing.id, input: parsed.data, changes, current: { ipn: existing.ipn, name: existing.name } })
    } else planned.push({ ...base, action: 'create', componentId: null, input: parsed.data as z.output<typeof ComponentCreate> })
  }
  errors.sort((a, b) => a.row - b.row || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  const warnings = planWarnings({ preset: options.preset, source, mapping, rows: planned, parts: stats.rows, keyed: stats.keyed, numericColumns: stats.numericColumns })
  return { rows: planned, errors, ...(refs ? { refs } : {}), ...(warnings.length ? { warnings } : {}) }
}

/** Notes, per column the mapping does not read as a key, whether every cell so far is a whole number (a peer's key, read as something else: decision 0647). */
function _noteCells(cells: ImportRow, mapping: Record<string, ImportTarget>, stats: { numericColumns: Map<string, boolean> }): void {
  for (const [column, target] of Object.entries(mapping)) {
    if (target === 'sourceKey' || target === 'partKey' || target === 'manufacturerKey') continue
    const cell = rawCellOf(cells, column)
    if (typeof cell !== 'string' || cell.trim() === '') continue
    const whole = /^\d+$/.test(cell.trim())
    stats.numericColumns.set(column, (stats.numericColumns.get(column) ?? true) && whole)
  }
}

/** What a commit did: the counts, and the component each planned part became (by its first row). */
export interface ImportResult {
  created: number
  updated: number
  unchanged: number
  components: Map<number, { id: string; ipn: string }>
  /** How to take each applied part back, by its first row (decision 0616). */
  undo: Map<number, ImportUndo>
}

/**
 * What undoing one applied part takes: a created component is purged; an
 * updated one is reverted to `version` and its stock set back; attachments,
 * locations, symbols and footprints the part made are deleted.
 */
export interface ImportUndo {
  created?: string
  /** `stock`: what it held before, where the part set stock (null: the import left its stock alone). */
  updated?: { id: string; version: number; stock: Array<{ locationId: string; quantity: number }> | null }
  attachments?: string[]
  locations?: string[]
  symbols?: string[]
  footprints?: string[]
  /** The peers' keys the part's commit wrote (decision 0649). */
  refs?: RefUndo[]
  /** The offers the part's source held before the commit replaced them (decision 1609). */
  offers?: { componentId: string; sourceId: string; ref: string; before: SupplierOffer[] }
}

/**
 * The ids of the locations, symbols and footprints an import found or made,
 * by path or `Library:Name`. A commit applied in chunks (decision 0616) keeps
 * one for all its chunks: a file of 100,000 parts names the same few hundred
 * bins, and looking each up again in every chunk listed the locations (every
 * path of the library) hundreds of times per thousand parts.
 */
export interface ImportLookups {
  refs: Map<string, string>
  locations: Map<string, string>
}

export function importLookups(): ImportLookups {
  return { refs: new Map(), locations: new Map() }
}

/**
 * Applies a plan inside the caller's transaction (`tx`), so that it lands
 * whole or not at all. An update that changes nothing is skipped: its
 * component keeps its version and history. `lookups` may carry what earlier
 * chunks of the same commit found; should this transaction fail, drop it (it
 * may name what the transaction made).
 */
export async function applyImport(tx: StorageSession, plan: PlannedRow[], lookups: ImportLookups = importLookups(), companyRefs: readonly PlannedRef[] = []): Promise<ImportResult> {
  let created = 0
  let updated = 0
  let unchanged = 0
  const components = new Map<number, { id: string; ipn: string }>()
  const undoes = new Map<number, ImportUndo>()
  const yieldTurn = createYielder()
  const { refs, locations } = lookups
  for (const p of plan) {
    await yieldTurn()
    if (p.action === 'update' && p.changes?.length === 0) {
      unchanged++
      // A part found by its upsert key whose ref is not held yet: the ref is written all the same, so the next file finds it.
      if (p.sourceRef && !p.sourceRef.held) undoes.set(p.row, { refs: await writeRefs(tx, [{ source: p.sourceRef.source, kind: 'part', key: p.sourceRef.key, target: p.componentId }]) })
      continue
    }
    try {
      const undo: ImportUndo = {}
      const made = (kind: 'symbols' | 'footprints' | 'locations', id: string) => void (undo[kind] ??= []).push(id)
      const links = {
        ...(p.extras.symbols ? { symbols: await _resolveRefs(tx, 'symbols', p.extras.symbols, refs, made) } : {}),
        ...(p.extras.footprints ? { footprints: await _resolveRefs(tx, 'footprints', p.extras.footprints, refs, made) } : {}),
      }
      let component: Component
      if (p.action === 'create') {
        component = await tx.components.create({ ...p.input, ...links })
        undo.created = component.id
        created++
      } else {
        const before = await tx.components.get(p.componentId)
        const stock = p.extras.stock?.length ? (await tx.locations.stockForComponent(p.componentId)).map((s) => ({ locationId: s.locationId, quantity: s.quantity })) : null
        // A re-sync that finds only new prices or stock at suppliers leaves the component's own version and history alone.
        const offersOnly = p.changes !== undefined && p.changes.every((c) => c.field === 'offers')
        component = offersOnly ? before : await tx.components.update(p.componentId, { ...p.input, ...links })
        undo.updated = { id: before.id, version: before.version, stock }
        updated++
      }
      components.set(p.row, { id: component.id, ipn: component.ipn })
      // In the part's transaction: a chunk that fails takes its refs with it.
      if (p.sourceRef && !(p.sourceRef.held && p.action === 'update')) undo.refs = await writeRefs(tx, [{ source: p.sourceRef.source, kind: 'part', key: p.sourceRef.key, target: component.id }])
      if (p.extras.offers && p.sourceRef && (p.action === 'create' || p.changes === undefined || p.changes.some((c) => c.field === 'offers'))) {
        const { source, key } = p.sourceRef
        const before = (await tx.offers.list(component.id)).filter((o) => o.sourceId === source).map(({ sourceId: _s, ref: _r, ...o }) => o)
        await tx.offers.replace(component.id, source, key, p.extras.offers)
        undo.offers = { componentId: component.id, sourceId: source, ref: key, before }
      }
      for (const s of p.extras.stock ?? []) await tx.locations.setStock(component.id, await _location(tx, s.path, locations, made), s.quantity)
      if (p.extras.attachments?.length) {
        const have = new Set((await tx.attachments.listForComponent(component.id)).map((a) => a.url))
        for (const a of p.extras.attachments) {
          if (have.has(a.url)) continue
          have.add(a.url)
          const attachment = await tx.attachments.create({ componentId: component.id, name: a.name, kind: a.kind, contentType: 'application/octet-stream', size: null, sha256: null, url: a.url })
          ;(undo.attachments ??= []).push(attachment.id)
        }
      }
      undoes.set(p.row, undo)
    } catch (error) {
      const e = error as ComplibError
      throw new ComplibError(e.code ?? 'INTERNAL', `row ${p.row}: ${e.detail ?? String(error)}`, { errors: [{ path: `rows[${p.row}]`, message: e.detail ?? String(error) }], cause: error })
    }
  }
  // A company export's refs: undone with the row that names the company.
  for (const r of companyRefs) {
    const [undo] = await writeRefs(tx, [r])
    const entry = undoes.get(r.row) ?? {}
    entry.refs = [...(entry.refs ?? []), undo!]
    undoes.set(r.row, entry)
  }
  return { created, updated, unchanged, components, undo: undoes }
}

/**
 * A `Value` parameter (a column named Value) of a row whose category has a
 * value parameter in its templates becomes that parameter: `Value` 10k of a
 * resistor is its `Resistance` (decision 0617). `types` caches the value
 * parameter's name per category path (null: none).
 */
async function _valueParameter(storage: StorageSession, input: RowInput, types: Map<string, string | null>): Promise<void> {
  const parameters = input.fields.parameters as Component['parameters'] | undefined
  const category = input.fields.category
  if (!parameters || typeof category !== 'string') return
  const at = parameters.findIndex((p) => /^value$/i.test(p.type))
  if (at < 0) return
  let type = types.get(category)
  if (type === undefined) {
    type = (await storage.categories.templatesForPath(category)).find((t) => t.isValue)?.parameterType ?? null
    types.set(category, type)
  }
  // A row that gives the value parameter itself as well keeps both as the file says.
  if (type === null || parameters.some((p) => p.type === type)) return
  parameters[at] = { ...parameters[at]!, type }
}

function _key(input: RowInput, upsertKey: UpsertKey): string | undefined {
  if (upsertKey === 'ipn') return typeof input.fields.ipn === 'string' ? foldKey(input.fields.ipn) : undefined
  if (upsertKey === 'name') return typeof input.fields.name === 'string' ? foldKey(input.fields.name) : undefined
  const mpn = input.mpns[0]
  return mpn && `${foldKey(mpn.manufacturer)}\u0000${foldKey(mpn.partNumber)}`
}

/** Adds `next` into `into` (rows of one part); the name of a field both set differently, if any. */
function _merge(into: RowInput, next: RowInput): string | null {
  for (const [field, value] of Object.entries(next.fields)) {
    const had = into.fields[field]
    if (field === 'tags') into.fields.tags = [...new Set([...((had as string[]) ?? []), ...(value as string[])])]
    else if (field === 'parameters') {
      const params = (had as Component['parameters'] | undefined) ?? []
      for (const p of value as Component['parameters']) {
        const same = params.find((q) => q.type === p.type)
        if (!same) params.push(p)
        else if (same.value !== p.value || (same.unit ?? '') !== (p.unit ?? '')) return `parameters.${p.type}`
      }
      into.fields.parameters = params
    } else if (had === undefined) into.fields[field] = value
    else if (had !== value) return field
  }
  into.mpns = _unionMpns(into.mpns, next.mpns)
  for (const list of ['symbols', 'footprints', 'attachments', 'offers'] as const) {
    if (next[list]) (into[list] as unknown[]) = _unique([...(into[list] ?? []), ...next[list]!])
  }
  if (next.stock) {
    const stock = into.stock ?? []
    for (const s of next.stock) {
      const same = stock.find((t) => t.path.join('/') === s.path.join('/'))
      if (!same) stock.push(s)
      else if (same.quantity !== s.quantity) return `stock.${s.path.join('/')}`
    }
    into.stock = stock
  }
  return null
}

function _unionMpns(a: Component['mpns'], b: Component['mpns']): Component['mpns'] {
  const out = [...a]
  for (const m of b) if (!out.some((o) => foldKey(o.manufacturer) === foldKey(m.manufacturer) && o.partNumber.toUpperCase() === m.partNumber.toUpperCase())) out.push(m)
  return out
}

function _unionParameters(existing: Component['parameters'], imported: Component['parameters']): Component['parameters'] {
  return [...existing.filter((p) => !imported.some((q) => q.type === p.type)), ...imported]
}

function _unique<T>(items: T[]): T[] {
  const seen = new Set<string>()
  return items.filter((i) => !seen.has(JSON.stringify(i)) && !!seen.add(JSON.stringify(i)))
}

function _compact(extras: PlannedExtras): PlannedExtras {
  return Object.fromEntries(Object.entries(extras).filter(([, v]) => v !== undefined)) as PlannedExtras
}

async function _findExisting(storage: StorageSession, input: RowInput, key: UpsertKey): Promise<Component | null> {
  if (key === 'ipn') {
    if (typeof input.fields.ipn !== 'string') return null
    try {
      return await storage.components.getByIpn(input.fields.ipn)
    } catch (error) {
      if ((error as ComplibError).code === 'NOT_FOUND') return null
      throw error
    }
  }
  if (key === 'name') {
    const name = input.fields.name as string
    return await _firstMatch((cursor) => storage.components.list({ q: name, limit: 500, sort: 'id', includeDeleted: false, cursor }), (c) => foldKey(c.name) === foldKey(name))
  }
  const mpn = input.mpns[0]!
  const [result] = await storage.mpns.resolve([{ partNumber: mpn.partNumber, manufacturer: mpn.manufacturer }])
  const id = result?.matches[0]?.componentId
  return id ? storage.components.get(id) : null
}

/**
 * The first record a search finds that `match` accepts, page after page: a
 * search by words finds the exact name among others, and a common one (`R`)
 * among more than a page of them.
 */
async function _firstMatch<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>, match: (item: T) => boolean): Promise<T | null> {
  let cursor: string | undefined
  do {
    const { items, nextCursor } = await page(cursor)
    const found = items.find(match)
    if (found) return found
    cursor = nextCursor ?? undefined
  } while (cursor)
  return null
}

/** The ids of `Library:Name` references: an existing symbol or footprint, else one made now. */
async function _resolveRefs(tx: StorageSession, kind: 'symbols' | 'footprints', refs: LibRef[], cache: Map<string, string>, made: (kind: 'symbols' | 'footprints', id: string) => void): Promise<string[]> {
  const ids: string[] = []
  for (const ref of refs) {
    const key = `${kind}\u0000${ref.library}\u0000${ref.name}`
    let id = cache.get(key)
    if (!id) {
      const found = await _firstMatch((cursor) => tx[kind].list({ library: ref.library, q: ref.name, limit: 1000, cursor }), (i) => i.name === ref.name && i.library === ref.library)
      if (found) id = found.id
      else made(kind, (id = (await tx[kind].create({ name: ref.name, library: ref.library })).id))
      cache.set(key, id)
    }
    if (!ids.includes(id)) ids.push(id)
  }
  return ids
}

/** The id of the location at `path` (names from the root), made where missing. */
async function _location(tx: StorageSession, path: string[], cache: Map<string, string>, made: (kind: 'locations', id: string) => void): Promise<string> {
  let parentId: string | null = null
  for (let i = 0; i < path.length; i++) {
    const key = path.slice(0, i + 1).map(foldKey).join('\u0000')
    let id = cache.get(key)
    if (!id) {
      const found = await _firstMatch((cursor) => tx.locations.list({ parentId, q: path[i]!, limit: 1000, cursor }), (l) => foldKey(l.name) === foldKey(path[i]!))
      if (found) id = found.id
      else made('locations', (id = (await tx.locations.create({ name: path[i]!, parentId })).id))
      cache.set(key, id)
    }
    parentId = id
  }
  return parentId!
}
