/**
 * How list-valued fields are written in one CSV cell, and read back: items
 * joined by `; `, a separator or backslash inside an item escaped with `\`
 * (`a\;b`). Plain spreadsheets that never escape still read as expected
 * (`smd; passive`, `smd, passive`). Decision 0601.
 */

/**
 * Splits `text` on any of `separators` not escaped by a backslash; items
 * trimmed, empty ones dropped. With `keepEscapes` the items keep their
 * backslashes, for a second split (a stock item's path).
 */
export function splitList(text: string, separators: string, keepEscapes = false): string[] {
  const items: string[] = []
  let current = ''
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (ch === '\\' && i + 1 < text.length) current += keepEscapes ? ch + text[++i] : text[++i]
    else if (separators.includes(ch)) {
      items.push(current)
      current = ''
    } else current += ch
  }
  items.push(current)
  return items.map((s) => s.trim()).filter(Boolean)
}

/** Joins items with `; `, escaping what `splitList(…, ';,|')` would split on. */
export function joinList(items: readonly string[]): string {
  return items.map((s) => escapeItem(s, ';,|')).join('; ')
}

/** `s` with backslashes and any of `special` escaped by a backslash. */
export function escapeItem(s: string, special: string): string {
  let out = ''
  for (const ch of s) out += ch === '\\' || special.includes(ch) ? `\\${ch}` : ch
  return out
}

/** The tag, symbol or footprint list of a cell: `;` separates when present, else `,` or `|`. */
export function readListCell(text: string): string[] {
  return splitList(text, _unescaped(text, ';') ? ';' : ',|')
}

/**
 * A KiCad library reference `Library:Name` (KiCad's LIB_ID: the nickname
 * before the first `:`, the item name after it), or null when it is not one.
 */
export function parseLibRef(text: string): { library: string; name: string } | null {
  const at = text.indexOf(':')
  if (at <= 0 || at === text.length - 1) return null
  const library = text.slice(0, at).trim()
  const name = text.slice(at + 1).trim()
  return library && name ? { library, name } : null
}

/** One stock entry of a CSV cell: `Shelf A/Bin 3=100` (path segments by `/`, the quantity after the last `=`). */
export function parseStockItem(text: string): { path: string[]; quantity: string } | null {
  const at = _lastUnescaped(text, '=')
  if (at < 0) return null
  return { path: splitList(text.slice(0, at), '/'), quantity: text.slice(at + 1).trim() }
}

/** A stock entry as a CSV cell item, the inverse of parseStockItem. */
export function formatStockItem(path: readonly string[], quantity: number): string {
  return `${path.map((p) => escapeItem(p, '/=;,|')).join('/')}=${quantity}`
}

function _unescaped(text: string, ch: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === ch) return true
  }
  return false
}

function _lastUnescaped(text: string, ch: string): number {
  let found = -1
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === ch) found = i
  }
  return found
}
