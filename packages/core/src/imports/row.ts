/**
 * One row of an import: column name → text cell. Rows are made without a
 * prototype, and read with `cellOf`, because a column may be named
 * `constructor`, `valueOf` or `__proto__` (a row without that cell must not
 * find `Object.prototype`'s member instead: decision 0608).
 */
export type ImportRow = Record<string, ImportCell>
/**
 * A cell: text, or, in a JSON file, a list or object kept as it was (complib's
 * own export carries `tags`, `mpns`, `parameters` … as lists). Numbers and
 * booleans become their text.
 */
export type ImportCell = string | unknown[] | { [key: string]: unknown }

/** The cell of `column` in `row` as text (a list or object as its JSON), '' when the row has none (never a member of Object.prototype). */
export function cellOf(row: ImportRow, column: string): string {
  const cell = rawCellOf(row, column)
  return typeof cell === 'string' ? cell : JSON.stringify(cell)
}

/** The cell of `column` in `row` as read: text, or a JSON file's list or object. */
export function rawCellOf(row: ImportRow, column: string): ImportCell {
  return Object.hasOwn(row, column) ? row[column]! : ''
}
