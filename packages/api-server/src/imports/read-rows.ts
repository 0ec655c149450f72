import { BULK_MAX_CHILDREN, BULK_MAX_ITEMS, ComplibError, type ImportCell, type ImportRow } from '@complib/core'
import { parse as parseCsv } from 'csv-parse/sync'

/** What was detected of an uploaded file. */
export interface FileShape {
  format: 'csv' | 'json'
  /** `utf-8`, `utf-16le`, `utf-16be` or `windows-1252` (a file that is not UTF-8). */
  encoding: string
  /** The CSV delimiter found in the header row; null for JSON. */
  delimiter: ',' | ';' | '\t' | null
}

/**
 * Most rows, and most non-empty cells, one import takes: an import commits in
 * one transaction, during which other writes and reads wait, so it is held to
 * what one bulk request may carry (BULK_MAX_ITEMS, BULK_MAX_CHILDREN;
 * decision 1102).
 */
export const IMPORT_MAX_ROWS = BULK_MAX_ITEMS
export const IMPORT_MAX_CELLS = BULK_MAX_CHILDREN
/** Most columns one import takes (each is mapped and read for every row). */
export const IMPORT_MAX_COLUMNS = 256
/** Largest import file, in bytes: reading it is one uninterrupted step, as is writing the session that keeps it. */
export const IMPORT_BODY_LIMIT = 2 * 1024 * 1024
/** Deepest nesting of a JSON import's cell (an object or array cell is kept as its JSON text). */
export const IMPORT_CELL_MAX_DEPTH = 32
/** Largest cell, in UTF-8 bytes of its text. */
export const IMPORT_CELL_MAX_BYTES = 64 * 1024

/**
 * Reads an uploaded CSV (header row first) or JSON (an array of objects) into
 * rows of text cells. A cell nested deeper than IMPORT_CELL_MAX_DEPTH or
 * larger than IMPORT_CELL_MAX_BYTES, too many rows or too many columns, is a
 * 400 (413 for rows) naming where, as `rows[<row>].<column>` with rows counted
 * as a spreadsheet shows them (the first after the header is 2).
 */
export function readRows(text: string, format: 'csv' | 'json', delimiter: FileShape['delimiter'] = ','): ImportRow[] {
  const records = format === 'csv' ? _csvRecords(text, delimiter ?? ',') : _jsonRecords(text)
  if (records.length === 0) throw _invalid('body', 'no rows', 'body: the file has no rows')
  if (records.length > IMPORT_MAX_ROWS) throw _tooLarge(`the file has ${records.length} rows; an import takes at most ${IMPORT_MAX_ROWS}`)
  let cells = 0
  const rows = records.map((entries, i) => {
    const row: ImportRow = Object.create(null)
    for (const [key, value] of entries) {
      const column = key.trim()
      const cell = _cell(value, format, `rows[${i + 2}].${column}`)
      row[column] = cell
      if (cell !== '') cells++
    }
    return row
  })
  if (cells > IMPORT_MAX_CELLS) throw _tooLarge(`the file has ${cells} non-empty cells; an import takes at most ${IMPORT_MAX_CELLS}`)
  const columns = columnsOf(rows)
  if (columns.length > IMPORT_MAX_COLUMNS) {
    throw _invalid('columns', `${columns.length} columns; an import takes at most ${IMPORT_MAX_COLUMNS}`, `the file has ${columns.length} columns; an import takes at most ${IMPORT_MAX_COLUMNS}`)
  }
  return rows
}

/**
 * Reads the bytes of an upload as text and says how: a byte-order mark
 * decides (UTF-8, UTF-16 LE/BE); otherwise UTF-8 when the bytes are valid
 * UTF-8, else Windows-1252 (what spreadsheets on Windows save as "CSV").
 * For CSV, the delimiter is the one of `,` `;` and tab found most often in the
 * header row outside quotes (Part-DB writes `;`).
 */
export function decodeUpload(bytes: Uint8Array, format: 'csv' | 'json'): { text: string; shape: FileShape } {
  let encoding = 'utf-8'
  let text: string
  if (bytes[0] === 0xff && bytes[1] === 0xfe) [encoding, text] = ['utf-16le', new TextDecoder('utf-16le').decode(bytes.subarray(2))]
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) [encoding, text] = ['utf-16be', new TextDecoder('utf-16be').decode(bytes.subarray(2))]
  else {
    const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body)
    } catch {
      ;[encoding, text] = ['windows-1252', new TextDecoder('windows-1252').decode(body)]
    }
  }
  return { text, shape: { format, encoding, delimiter: format === 'csv' ? _delimiter(text) : null } }
}

function _delimiter(text: string): ',' | ';' | '\t' {
  const counts = { ',': 0, ';': 0, '\t': 0 }
  let quoted = false
  for (const ch of text) {
    if (ch === '"') quoted = !quoted
    else if (!quoted && (ch === '\n' || ch === '\r')) break
    else if (!quoted && ch in counts) counts[ch as keyof typeof counts]++
  }
  return counts[';'] > counts[','] && counts[';'] >= counts['\t'] ? ';' : counts['\t'] > counts[','] ? '\t' : ','
}

/** The columns of the rows, in first-seen order. */
export function columnsOf(rows: ImportRow[]): string[] {
  const seen = new Set<string>()
  for (const r of rows) for (const k of Object.keys(r)) if (k) seen.add(k)
  return [...seen]
}

/** The data rows as [column, cell] pairs: the header names the cells; a row's missing cells are absent, extra ones ignored. */
function _csvRecords(text: string, delimiter: string): Array<Array<[string, unknown]>> {
  let records: string[][]
  try {
    // Arrays, not csv-parse's `columns: true` objects, whose keys would meet Object.prototype.
    records = parseCsv(text, { delimiter, skip_empty_lines: true, bom: true, trim: true, relax_column_count: true }) as string[][]
  } catch (error) {
    throw _unreadable('csv', error)
  }
  const [header = [], ...data] = records
  return data.map((cells) => cells.slice(0, header.length).map((cell, i) => [header[i]!, cell] as [string, unknown]))
}

function _jsonRecords(text: string): Array<Array<[string, unknown]>> {
  let rows: unknown
  try {
    rows = JSON.parse(text)
  } catch (error) {
    throw _unreadable('json', error)
  }
  if (!Array.isArray(rows) || !rows.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))) {
    throw _invalid('body', 'expected an array of objects', 'body: expected a list of rows (objects)')
  }
  // Object.entries gives own keys only: JSON.parse makes a `"__proto__"` key an own one.
  return (rows as object[]).map((r) => Object.entries(r))
}

function _cell(v: unknown, format: 'csv' | 'json', path: string): ImportCell {
  let text: string
  if (v === null || v === undefined) text = ''
  else if (typeof v === 'object') {
    // JSON.stringify recurses: check the depth first, without recursion, so deep nesting cannot overflow the stack.
    if (_depthOver(v, IMPORT_CELL_MAX_DEPTH)) throw _invalid(path, `nested deeper than ${IMPORT_CELL_MAX_DEPTH} levels`)
    text = JSON.stringify(v)
    if (text.length > IMPORT_CELL_MAX_BYTES / 3 && Buffer.byteLength(text) > IMPORT_CELL_MAX_BYTES) throw _invalid(path, `larger than ${IMPORT_CELL_MAX_BYTES} bytes`)
    // Kept as structure: an import that cannot place it says so for its row, rather than storing its JSON text.
    return v as ImportCell
  } else text = String(v)
  if (text.length > IMPORT_CELL_MAX_BYTES / 3 && Buffer.byteLength(text) > IMPORT_CELL_MAX_BYTES) throw _invalid(path, `larger than ${IMPORT_CELL_MAX_BYTES} bytes`)
  // Our CSV export guards cells that a spreadsheet would run as formulas with a leading quote; take it off again.
  return format === 'csv' && /^'[=+\-@]/.test(text) ? text.slice(1) : text
}

/** Whether `root` (an object or array) nests more than `max` levels, itself being level 1. */
function _depthOver(root: object, max: number): boolean {
  const stack: Array<[unknown, number]> = [[root, 1]]
  while (stack.length) {
    const [value, depth] = stack.pop()!
    if (value === null || typeof value !== 'object') continue
    if (depth > max) return true
    for (const child of Object.values(value)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1])
  }
  return false
}

function _unreadable(format: 'csv' | 'json', error: unknown): ComplibError {
  const message = `not valid ${format.toUpperCase()} (${(error as Error).message})`
  return _invalid('body', message)
}

function _tooLarge(message: string): ComplibError {
  return new ComplibError('PAYLOAD_TOO_LARGE', message, { errors: [{ path: 'body', message }] })
}

function _invalid(path: string, message: string, detail = `${path}: ${message}`): ComplibError {
  return new ComplibError('VALIDATION_FAILED', detail, { errors: [{ path, message }] })
}
