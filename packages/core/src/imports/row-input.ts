import { AttachmentKind } from '../schemas/attachment'
import { SupplierOffer } from '../schemas/source'
import type { ImportTarget } from '../schemas/import'
import { lastSegmentOf } from '../url-name'
import { parseLibRef, parseStockItem, readListCell, splitList } from './codec'
import { readStatus } from './presets'
import { cellOf, rawCellOf, type ImportRow } from './row'

/** A symbol or footprint an imported row links: by `Library:Name` (found, or made at commit). */
export interface LibRef {
  library: string
  name: string
}
export interface StockInput {
  path: string[]
  quantity: number
}
export interface LinkInput {
  name: string
  kind: AttachmentKind
  url: string
}

/** What one row says, read under a mapping, before validation by the component schemas. */
export interface RowInput {
  fields: Record<string, unknown>
  /** MPNs the row gives; `manufacturerKey` when the manufacturer is named by the peer's company key (decision 0640). */
  mpns: Array<{ manufacturer: string; partNumber: string; manufacturerKey?: string }>
  /** The row's own key in the peer's database (`sourceKey` column): kept as the component's external reference. */
  sourceKey?: string
  /** The key of the part the row belongs to, in the peer's database (`partKey` column): it updates that part, never creates one. */
  partKey?: string
  symbols?: LibRef[]
  footprints?: LibRef[]
  stock?: StockInput[]
  attachments?: LinkInput[]
  /** A peer's supplier offers for the part, whole (decision 1609). */
  offers?: SupplierOffer[]
}

export interface CellError {
  path: string
  /** The column of the file the error comes from, when one is known. */
  column?: string
  message: string
}

/** Parameter names given to peers' columns that are not named as people say them. */
const PARAMETER_NAMES: Record<string, string> = { 'footprint.name': 'Package', footprint: 'Package' }

/**
 * Reads one row under a mapping. A cell that its target cannot hold (a list
 * where text is expected, an unknown status, a symbol that is not
 * `Library:Name`, a quantity that is not a whole number) is an error naming
 * the column, never stored as something else.
 */
export function readRowInput(cells: ImportRow, mapping: Record<string, ImportTarget>): { input: RowInput; errors: CellError[] } {
  const errors: CellError[] = []
  const fields: Record<string, unknown> = {}
  const input: RowInput = { fields, mpns: [] }
  const parameters: Array<{ type: string; value: string; unit?: string }> = []
  const manufacturers: string[] = []
  const manufacturerKeys: string[] = []
  const partNumbers: string[] = []
  const flattened = new Map<ImportTarget, Map<string, Record<string, unknown>>>()
  /** The column name before `.<n>.` of each flattened target (`parameters`, `partLots`): errors name the item's own column. */
  const prefixes = new Map<ImportTarget, string>()
  let location = ''
  let quantity = ''
  const text = (column: string): string | null => {
    const raw = rawCellOf(cells, column)
    if (typeof raw === 'string') return raw.trim()
    // A Part-DB JSON export nests named records: { "name": …, "full_name": "A->B" }.
    if (!Array.isArray(raw) && typeof raw.name === 'string') return (typeof raw.full_name === 'string' ? raw.full_name : raw.name).trim()
    errors.push({ path: column, message: `a ${Array.isArray(raw) ? 'list' : 'object'} cannot be placed in ${mapping[column]}; map the column to a list field or ignore it` })
    return null
  }
  for (const [column, target] of Object.entries(mapping)) {
    if (target === 'ignore' || target === 'parameterUnit') continue
    const raw = rawCellOf(cells, column)
    if (raw === '') continue
    const flat = /^([^.]+)\.(\d+)\.(.+)$/.exec(column)
    if (flat && ['parameters', 'stock', 'mpns', 'attachments'].includes(target)) {
      // Part-DB's CSV flattens lists: parameters.0.name, partLots.1.amount, …
      const keys = flat[3]!.split('.')
      if (keys.some((key) => _RESERVED_KEYS.has(key))) {
        errors.push({ path: column, message: `the column name ${column} names ${keys.filter((key) => _RESERVED_KEYS.has(key)).join(', ')}, which no field has; rename the column or map it to ignore` })
        continue
      }
      const items = flattened.get(target) ?? new Map<string, Record<string, unknown>>()
      flattened.set(target, items)
      prefixes.set(target, flat[1]!)
      const item = items.get(flat[2]!) ?? (Object.create(null) as Record<string, unknown>)
      items.set(flat[2]!, item)
      _setPath(item, keys, cellOf(cells, column))
      continue
    }
    switch (target) {
      case 'tags': {
        const tags = _strings(raw, column, errors) ?? []
        if (tags.length) fields.tags = [...new Set([...((fields.tags as string[]) ?? []), ...tags])]
        break
      }
      case 'status': {
        const value = text(column)
        if (value === null) break
        const status = readStatus(value)
        if (status === null) errors.push({ path: column, message: `"${value}" is not a status complib knows (active, draft, nrnd, obsolete, or a peer's: True/False, announced, nrfnd, eol, discontinued)` })
        else if (status) fields.status = status
        break
      }
      case 'category': {
        if (Array.isArray(raw)) {
          // A list of names is the path itself (a pull's rows): an arrow in a name is part of the name.
          if (raw.some((n) => typeof n !== 'string' || n.includes('/'))) errors.push({ path: column, message: 'a category given as a list is its names from the root, each a text without `/`' })
          else if (raw.some((n) => (n as string).trim())) fields.category = (raw as string[]).map((n) => n.trim()).filter(Boolean).join('/')
          break
        }
        const value = text(column)
        // Peers write a category path with `->` (Part-DB) or `/`; complib keeps `/`.
        if (value) fields.category = value.split(/\s*(?:->|→|\/)\s*/).filter(Boolean).join('/')
        break
      }
      case 'manufacturer':
      case 'partNumber': {
        const value = text(column)
        if (value) (target === 'manufacturer' ? manufacturers : partNumbers).push(value)
        else if (value === '') (target === 'manufacturer' ? manufacturers : partNumbers).push('')
        break
      }
      case 'parameter': {
        // A Part-DB JSON footprint is a record: its own name is the package, not its path.
        const value = typeof raw === 'object' && !Array.isArray(raw) && typeof raw.name === 'string' ? raw.name.trim() : text(column)
        if (!value) break
        const bracket = /^(.*?)\s*\[([^\]]+)\]$/.exec(column)
        const unitColumn = Object.keys(mapping).find((c) => mapping[c] === 'parameterUnit' && c.replace(/ unit$/i, '') === column)
        const unit = unitColumn ? cellOf(cells, unitColumn).trim() : bracket?.[2]
        parameters.push({ type: Object.hasOwn(PARAMETER_NAMES, column) ? PARAMETER_NAMES[column]! : bracket ? bracket[1]! : column, value, ...(unit ? { unit } : {}) })
        break
      }
      case 'parameters':
        for (const item of _objects(raw, column, errors)) _parameter(item, () => column, parameters, errors)
        break
      case 'mpns':
        for (const item of _objects(raw, column, errors)) _mpn(item, column, input.mpns, errors)
        break
      case 'symbols':
      case 'footprints': {
        const refs = _libRefs(raw, column, errors)
        if (refs) input[target] = [...(input[target] ?? []), ...refs]
        break
      }
      case 'stock': {
        const entries = _stock(raw, column, errors)
        if (entries) input.stock = [...(input.stock ?? []), ...entries]
        break
      }
      case 'sourceKey':
      case 'partKey': {
        const value = text(column)
        if (value) input[target] = value
        break
      }
      case 'manufacturerKey': {
        const value = text(column)
        if (value !== null) manufacturerKeys.push(value)
        break
      }
      case 'location':
        location = text(column) ?? ''
        break
      case 'quantity':
        quantity = text(column) ?? ''
        break
      case 'datasheet': {
        const url = text(column)
        if (url) {
          const link = _link({ url, kind: 'datasheet' }, column, errors)
          if (link) input.attachments = [...(input.attachments ?? []), link]
        }
        break
      }
      case 'offers': {
        // A list of SupplierOffer as a pull writes it; a CSV cell holds JSON text.
        let value: unknown = raw
        if (typeof raw === 'string') {
          try {
            value = raw.trim() === '' ? [] : JSON.parse(raw)
          } catch {
            errors.push({ path: column, column, message: 'offers must be a JSON list of supplier offers' })
            break
          }
        }
        const offers = SupplierOffer.array().max(50).safeParse(value)
        if (!offers.success) {
          const issue = offers.error.issues[0]!
          errors.push({ path: column, column, message: `offers${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message}` })
        } else input.offers = [...(input.offers ?? []), ...offers.data]
        break
      }
      case 'attachments': {
        const links = _links(raw, column, errors)
        if (links) input.attachments = [...(input.attachments ?? []), ...links]
        break
      }
      case 'excludeFromBom':
      case 'excludeFromBoard':
      case 'excludeFromSim': {
        const value = text(column)
        if (!value) break
        const flag = readFlag(value)
        if (flag === null) errors.push({ path: column, message: `"${value}" is not true or false (true/false, yes/no, 1/0)` })
        else fields[target] = flag
        break
      }
      default: {
        const value = text(column)
        if (value) fields[target] = value
      }
    }
  }
  for (const [target, items] of flattened) {
    for (const [index, item] of items) {
      const columnOf = (key: string) => `${prefixes.get(target)}.${index}.${key}`
      if (target === 'parameters') _parameter(item, columnOf, parameters, errors)
      else if (target === 'mpns') _mpn(item, target, input.mpns, errors)
      else if (target === 'attachments') input.attachments = [...(input.attachments ?? []), ...(_links([item], target, errors) ?? [])]
      else input.stock = [...(input.stock ?? []), ...(_stock([item], columnOf('amount'), errors) ?? [])]
    }
  }
  if (location || quantity) {
    const entry = _stockEntry({ location: location || 'Unsorted', quantity: quantity || '0' }, 'quantity', errors)
    if (entry) input.stock = [...(input.stock ?? []), entry]
  }
  if (input.stock) input.stock = _sumByPath(input.stock)
  // Manufacturer and part number columns pair up in order: manufacturer 2 goes with partNumber 2.
  // A manufacturer named only by the peer's key is resolved when the plan is made (a company export names it).
  for (let i = 0; i < Math.max(manufacturers.length, partNumbers.length); i++) {
    const partNumber = partNumbers[i] ?? ''
    const manufacturerKey = manufacturerKeys[i] || undefined
    if (partNumber) input.mpns.push({ manufacturer: manufacturers[i] || 'Unknown', partNumber, ...(manufacturerKey && !manufacturers[i] ? { manufacturerKey } : {}) })
  }
  if (parameters.length) fields.parameters = parameters
  // A spreadsheet of part numbers names no part: its first MPN is its name.
  if (fields.name === undefined && input.mpns[0]) fields.name = input.mpns[0].partNumber
  // Errors name the field; the message names the column, as the user sees it in the file.
  return { input, errors: errors.map((e) => (Object.hasOwn(mapping, e.path) ? { path: mapping[e.path]!, column: e.path, message: `column "${e.path}": ${e.message}` } : e)) }
}

/** A yes/no cell as KiCad's boolFromString and the peers write it; null when it is neither. */
export function readFlag(text: string): boolean | null {
  const s = text.trim().toLowerCase()
  if (['true', 'yes', 'y', '1'].includes(s)) return true
  if (['false', 'no', 'n', '0'].includes(s)) return false
  return null
}

function _strings(raw: unknown, column: string, errors: CellError[]): string[] | null {
  if (typeof raw === 'string') return _listText(raw)
  if (Array.isArray(raw) && raw.every((t) => typeof t === 'string')) return raw.map((t) => t.trim()).filter(Boolean)
  errors.push({ path: column, message: 'expected a list of text' })
  return null
}

/** A list cell of a CSV: JSON list text (`["a","b"]`) when it parses as one, else `; `-separated items. */
function _listText(text: string): string[] {
  if (/^\s*\[/.test(text)) {
    try {
      const parsed = JSON.parse(text) as unknown
      if (Array.isArray(parsed) && parsed.every((t) => typeof t === 'string')) return parsed.map((t) => t.trim()).filter(Boolean)
    } catch {
      // Not JSON: items as written.
    }
  }
  return readListCell(text)
}

function _objects(raw: unknown, column: string, errors: CellError[]): Array<Record<string, unknown>> {
  let value = raw
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw)
    } catch {
      errors.push({ path: column, message: 'expected a JSON list of objects' })
      return []
    }
  }
  if (!Array.isArray(value) || !value.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v))) {
    errors.push({ path: column, message: 'expected a list of objects' })
    return []
  }
  return value as Array<Record<string, unknown>>
}

/** Part-DB's parameter keys (src/Entity/Parameters/AbstractParameter.php): a parameter item with any of them is Part-DB's. */
const _PARTDB_PARAMETER_KEYS = ['name', 'value_typical', 'value_min', 'value_max', 'value_text', 'formatted', 'symbol', 'group']

/**
 * One parameter item. complib's own export writes { type, value, unit };
 * Part-DB writes { name, symbol, value_min, value_typical, value_max, unit,
 * value_text, group, formatted, eda_visibility, id } with `type` or `_type`
 * its serializer's class discriminator, never the name (decision 0642). The
 * value is the typical one, else the range min..max, else the text, each with
 * its unit; `formatted` (the unit already in it) only when none is given.
 * `symbol`, `group`, `eda_visibility` and `id` have no place in a complib
 * parameter and are not read.
 */
function _parameter(item: Record<string, unknown>, columnOf: (key: string) => string, out: Array<{ type: string; value: string; unit?: string }>, errors: CellError[]): void {
  const partdb = _PARTDB_PARAMETER_KEYS.some((key) => Object.hasOwn(item, key))
  const type = _scalar(partdb ? item.name : item.type)
  let unit = _scalar(item.unit) ?? ''
  let value: string
  if (partdb) {
    const typical = _scalar(item.value_typical) ?? ''
    const min = _scalar(item.value_min) ?? ''
    const max = _scalar(item.value_max) ?? ''
    value = typical || (min || max ? `${min}..${max}` : '') || (_scalar(item.value_text) ?? '')
    if (!value && unit) {
      errors.push({ path: columnOf('unit'), message: `parameter "${type ?? ''}" has the unit "${unit}" but no value: value_typical, value_min, value_max and value_text are all empty` })
      return
    }
    if (!value) {
      value = _scalar(item.formatted) ?? ''
      unit = ''
    }
    if (!value) return
  } else {
    value = _scalar(item.value) ?? ''
    if (value === '' && !unit && item.value === undefined) return
  }
  if (!type) {
    errors.push({ path: columnOf(partdb ? 'name' : 'type'), message: `a parameter without a ${partdb ? 'name' : 'type (name)'}` })
    return
  }
  out.push({ type, value, ...(unit ? { unit } : {}) })
}

/** Stock entries at one location added up: Part-DB keeps several lots in one place, complib one quantity per location. */
function _sumByPath(entries: StockInput[]): StockInput[] {
  const byPath = new Map<string, StockInput>()
  for (const e of entries) {
    const key = e.path.join('\u0000')
    const seen = byPath.get(key)
    if (seen) seen.quantity += e.quantity
    else byPath.set(key, { path: e.path, quantity: e.quantity })
  }
  return [...byPath.values()]
}

function _mpn(item: Record<string, unknown>, column: string, out: RowInput['mpns'], errors: CellError[]): void {
  const manufacturer = _scalar(item.manufacturer) ?? _scalar((item.manufacturer as { name?: unknown } | undefined)?.name)
  const partNumber = _scalar(item.partNumber ?? item.MPN ?? item.manufacturer_product_number)
  if (!partNumber) errors.push({ path: column, message: 'an MPN without a partNumber' })
  else out.push({ manufacturer: manufacturer || 'Unknown', partNumber })
}

function _libRefs(raw: unknown, column: string, errors: CellError[]): LibRef[] | null {
  const items: unknown[] = typeof raw === 'string' ? _listText(raw) : Array.isArray(raw) ? raw : [raw]
  const refs: LibRef[] = []
  for (const item of items) {
    // complib's export: { id, name, library }; a CSV: `Library:Name`.
    const ref =
      typeof item === 'string'
        ? parseLibRef(item)
        : item && typeof item === 'object' && typeof (item as LibRef).name === 'string'
          ? (item as { library?: unknown }).library
            ? { library: String((item as LibRef).library).trim(), name: (item as LibRef).name.trim() }
            : parseLibRef((item as LibRef).name)
          : null
    if (!ref) {
      errors.push({ path: column, message: `${JSON.stringify(typeof item === 'string' ? item : ((item as { name?: unknown })?.name ?? item))} is not a KiCad reference Library:Name` })
      return null
    }
    refs.push(ref)
  }
  return refs
}

function _stock(raw: unknown, column: string, errors: CellError[]): StockInput[] | null {
  const out: StockInput[] = []
  const items: unknown[] = typeof raw === 'string' ? splitList(raw, ';', true) : Array.isArray(raw) ? raw : [raw]
  for (const item of items) {
    let entry: StockInput | null
    if (typeof item === 'string') {
      const parsed = parseStockItem(item)
      entry = parsed ? _stockEntry({ location: parsed.path, quantity: parsed.quantity }, column, errors) : null
      if (!parsed) errors.push({ path: column, message: `"${item}" is not a stock entry Location/Path=quantity` })
    } else if (item && typeof item === 'object') entry = _stockEntry(item as Record<string, unknown>, column, errors)
    else {
      errors.push({ path: column, message: `${JSON.stringify(item)} is not a stock entry (Location/Path=quantity, or { path, quantity })` })
      entry = null
    }
    if (!entry) return null
    out.push(entry)
  }
  return out
}

function _stockEntry(item: Record<string, unknown>, column: string, errors: CellError[]): StockInput | null {
  // complib: { path: ["A", "B"], quantity }; Part-DB part lot: { amount, storage_location: { name, full_name } }.
  const where = item.path ?? item.location ?? item.storage_location ?? item.storelocation
  const named = where && typeof where === 'object' && !Array.isArray(where) ? ((where as { full_name?: unknown }).full_name ?? (where as { name?: unknown }).name) : undefined
  const amount = item.quantity ?? item.amount
  if ((named != null && _scalar(named) === null) || (amount != null && _scalar(amount) === null)) {
    errors.push({ path: column, message: `a stock entry's location name and quantity must be texts or numbers, not ${JSON.stringify(named != null && _scalar(named) === null ? named : amount)}` })
    return null
  }
  if (Array.isArray(where) && where.some((segment) => _scalar(segment) === null)) {
    errors.push({ path: column, message: `a stock entry's path must be a list of location names, not ${JSON.stringify(where)}` })
    return null
  }
  const path = Array.isArray(where)
    ? where.map((segment) => _scalar(segment)!)
    : typeof where === 'string'
      ? splitList(where.replace(/\s*(->|→)\s*/g, '/'), '/')
      : named != null
        ? splitList(_scalar(named)!.replace(/\s*(->|→)\s*/g, '/'), '/')
        : ['Unsorted']
  const text = (_scalar(amount) ?? '').replace(',', '.')
  const quantity = Number(text)
  if (!Number.isInteger(quantity) || quantity < 0 || quantity > 1_000_000_000) {
    errors.push({ path: column, message: `stock quantity "${text}" is not a whole number from 0 to 1000000000` })
    return null
  }
  if (path.length === 0) path.push('Unsorted')
  return { path, quantity }
}

function _links(raw: unknown, column: string, errors: CellError[]): LinkInput[] | null {
  const items: unknown[] = typeof raw === 'string' ? (/^\s*\[/.test(raw) ? _objects(raw, column, errors) : splitList(raw, ';')) : Array.isArray(raw) ? raw : [raw]
  const out: LinkInput[] = []
  for (const item of items) {
    if (typeof item !== 'string' && (item === null || typeof item !== 'object' || Array.isArray(item))) {
      errors.push({ path: column, message: `${JSON.stringify(item)} is not a link (a URL, or { url, name, kind })` })
      return null
    }
    const link = _link(typeof item === 'string' ? { url: item } : (item as Record<string, unknown>), column, errors)
    if (!link) return null
    out.push(link)
  }
  return out
}

function _link(item: Record<string, unknown>, column: string, errors: CellError[]): LinkInput | null {
  const url = _scalar(item.url)
  if (!url) {
    // An uploaded file: its bytes travel in the backup, not in a component export.
    errors.push({ path: column, message: `attachment ${JSON.stringify(item.name ?? '')} is an uploaded file, not a link; its bytes are not in the file (use the backup, or map ${column} to ignore)` })
    return null
  }
  if (!/^https?:\/\/[^\s]+$/i.test(url) || !URL.canParse(url)) {
    errors.push({ path: column, message: `"${url}" is not an http(s) URL` })
    return null
  }
  const kind = AttachmentKind.safeParse(item.kind ?? 'datasheet')
  const name = _scalar(item.name) || lastSegmentOf(url) || new URL(url).host
  return { url, name: name.slice(0, 255).replace(/[/\\\0]/g, '_'), kind: kind.success ? kind.data : 'other' }
}

function _scalar(v: unknown): string | null {
  if (typeof v === 'string') return v.trim()
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return null
}

/** Keys a flattened column name may not use: they would reach an object's prototype. */
const _RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/** Sets `path` in `target` (objects made without a prototype; _RESERVED_KEYS refused before). */
function _setPath(target: Record<string, unknown>, path: string[], value: string): void {
  let node = target
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = Object.create(null)
    node = node[key] as Record<string, unknown>
  }
  node[path.at(-1)!] = value
}
