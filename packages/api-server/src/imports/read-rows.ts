import { ComplibError, type ImportCell, type ImportRow } from '@complib/core'
import { parse as parseCsvStream } from 'csv-parse'

/** What was detected of an uploaded file. */
export interface FileShape {
  format: 'csv' | 'json'
  /** `utf-8`, `utf-16le`, `utf-16be` or `windows-1252` (a file that is not UTF-8). */
  encoding: string
  /** The CSV delimiter found in the header row; null for JSON. */
  delimiter: ',' | ';' | '\t' | null
}

/**
 * Most rows, and most non-empty cells, one import takes: a library of
 * 100,000 parts in one spreadsheet. A file of more than one chunk
 * (IMPORT_CHUNK_ROWS) is read, planned and committed a chunk at a time, with
 * turns for other requests between (decisions 0615, 0616 and 1102).
 */
export const IMPORT_MAX_ROWS = 100_000
export const IMPORT_MAX_CELLS = 3_000_000
/** Most columns one import takes (each is mapped and read for every row). */
export const IMPORT_MAX_COLUMNS = 256
/** Largest import file, in bytes: 100,000 rows of a typical spreadsheet (about 30 columns of short texts). */
export const IMPORT_BODY_LIMIT = 64 * 1024 * 1024
/**
 * Rows of one chunk: a file of at most this many rows is planned and committed
 * within its request, in one transaction (decision 0606); a larger one as a job
 * (decision 0616).
 */
export const IMPORT_CHUNK_ROWS = 1000
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
export async function readRows(text: string, format: 'csv' | 'json', delimiter: FileShape['delimiter'] = ','): Promise<ImportRow[]> {
  const records = format === 'csv' ? await _csvRecords(text, delimiter ?? ',') : _jsonRecords(text)
  if (records.length === 0) throw _invalid('body', 'no rows', 'body: the file has no rows')
  if (records.length > IMPORT_MAX_ROWS) throw _tooLarge(records.length)
  let cells = 0
  const rows: ImportRow[] = []
  for (const [i, entries] of records.entries()) {
    // A turn for other requests now and then: 100,000 rows take a while (decision 1103).
    if (i % IMPORT_CHUNK_ROWS === IMPORT_CHUNK_ROWS - 1) await _turn()
    const row: ImportRow = Object.create(null)
    for (const [key, value] of entries) {
      const column = key.trim()
      const cell = _cell(value, format, i + 2, column)
      row[column] = cell
      if (cell !== '') cells++
    }
    rows.push(row)
  }
  if (cells > IMPORT_MAX_CELLS) throw _tooLargeBy(`the file has ${cells} non-empty cells; an import takes at most ${IMPORT_MAX_CELLS}`)
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
/** Records as readRows takes them: how many, and each as [column, cell] pairs. */
interface Records {
  length: number
  entries(): Iterable<[number, Array<[string, unknown]>]>
}

async function _csvRecords(text: string, delimiter: string): Promise<Records> {
  const records: string[][] = []
  // Arrays, not csv-parse's `columns: true` objects, whose keys would meet Object.prototype.
  // Fed a slice at a time with a turn between: 64 MiB parsed in one go would hold every other request for seconds.
  const parser = parseCsvStream({ delimiter, skip_empty_lines: true, bom: true, trim: true, relax_column_count: true })
  let failure: unknown
  parser.on('readable', () => {
    let record: string[] | null
    while ((record = parser.read() as string[] | null) !== null) records.push(record)
  })
  const ended = new Promise<void>((resolve) => {
    parser.on('end', resolve)
    parser.on('error', (error) => {
      failure = error
      resolve()
    })
  })
  for (let at = 0; at < text.length && failure === undefined; at += CSV_SLICE) {
    parser.write(text.slice(at, at + CSV_SLICE))
    await _turn()
    // More rows than any import takes: said now, before the rest is read.
    if (records.length > IMPORT_MAX_ROWS + 1) throw _tooLarge(null)
  }
  if (failure === undefined) parser.end()
  await ended
  if (failure !== undefined) throw _unreadable('csv', failure)
  const header = records[0] ?? []
  // Pairs made a row at a time as they are read (readRows), not all at once: 3,000,000 cells would be as many small arrays.
  return { length: Math.max(0, records.length - 1), *entries() {
    for (let r = 1; r < records.length; r++) {
      const cells = records[r]!
      yield [r - 1, cells.slice(0, header.length).map((cell, i) => [header[i]!, cell] as [string, unknown])] as [number, Array<[string, unknown]>]
    }
  } }
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

/** The cell at row `row`, column `column` (named in an error as `rows[<row>].<column>`; the text made only then). */
function _cell(v: unknown, format: 'csv' | 'json', row: number, column: string): ImportCell {
  if (typeof v === 'string' && v.length <= IMPORT_CELL_MAX_BYTES / 3) return format === 'csv' && v.length > 1 && v.charCodeAt(0) === 39 && /^'[=+\-@]/.test(v) ? v.slice(1) : v
  const path = `rows[${row}].${column}`
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

/** A 413 for a file of `rows` rows (null: more than the limit, counted no further). */
function _tooLarge(rows: number | null): ComplibError {
  return _tooLargeBy(`the file has ${rows === null ? 'more than ' + IMPORT_MAX_ROWS : rows} rows; an import takes at most ${IMPORT_MAX_ROWS}`)
}

function _tooLargeBy(message: string): ComplibError {
  return new ComplibError('PAYLOAD_TOO_LARGE', message, { errors: [{ path: 'body', message }] })
}

/** Characters of CSV parsed between two turns. */
const CSV_SLICE = 256 * 1024

function _turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

function _invalid(path: string, message: string, detail = `${path}: ${message}`): ComplibError {
  return new ComplibError('VALIDATION_FAILED', detail, { errors: [{ path, message }] })
}

/**
 * A Part-DB JSON row with its nested records that have no name (`eda_info`:
 * KiCad symbol, footprint, value and flags) spread into one column per key,
 * `eda_info.kicad_symbol`, as the same export's CSV writes them, so one
 * mapping reads both (decision 0642). Named records (`{ name, full_name }`: a
 * category, a manufacturer) and lists stay whole: the row reader takes their
 * name or items. Other files are read as they are: an object where text is
 * expected stays a row error.
 */
export function spreadUnnamedRecords(row: ImportRow): ImportRow {
  const out: ImportRow = Object.create(null)
  const put = (prefix: string, cells: Record<string, unknown>, depth: number) => {
    for (const [key, value] of Object.entries(cells)) {
      const column = `${prefix}${key}`
      if (depth < IMPORT_CELL_MAX_DEPTH && value !== null && typeof value === 'object' && !Array.isArray(value) && !Object.hasOwn(value, 'name')) put(`${column}.`, value as Record<string, unknown>, depth + 1)
      // A nested scalar as the top-level reader writes one (`true` → "true"); a record already read stays as it is.
      else out[column] = depth === 0 ? row[key]! : value === null || value === undefined ? '' : typeof value === 'object' ? (value as ImportRow[string]) : String(value)
    }
  }
  put('', row, 0)
  return out
}
