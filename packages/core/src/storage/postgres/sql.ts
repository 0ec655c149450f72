/**
 * The stores' SQL is written once, in forms SQLite and PostgreSQL share; the
 * few SQLite forms they keep are rewritten here for PostgreSQL, once per SQL
 * text (the result is cached):
 * - `?` parameters become `$1`, `$2`…; numbered ones (`?2`) become `$2`;
 * - `x COLLATE NOCASE` becomes `lower(x) COLLATE "C"`: SQLite's NOCASE compares
 *   case-folded text by code point, whatever the database's own collation;
 * - `LIKE` becomes `ILIKE` (SQLite's LIKE ignores case);
 * - `CAST(x AS BLOB)` becomes `convert_to(x, 'UTF8')`: the text's bytes;
 * - a camelCase alias (`AS deletedAt`) is quoted, since PostgreSQL folds names to lower case.
 * Quoted strings and identifiers are left alone.
 */
export function toPostgres(sql: string): string {
  let cached = CACHE.get(sql)
  if (cached === undefined) {
    cached = _rewrite(sql)
    if (CACHE.size > 4096) CACHE.clear()
    CACHE.set(sql, cached)
  }
  return cached
}

const CACHE = new Map<string, string>()

function _rewrite(sql: string): string {
  let out = _castBlob(sql)
  out = _outsideQuotes(out, (code) =>
    code
      .replace(/(\?\d*|(?:\b\w+\.)?\b\w+) COLLATE NOCASE\b/g, (_m, operand: string) => `lower(${operand.startsWith('?') ? `${operand}::text` : operand}) COLLATE "C"`)
      .replace(/\bAS ([a-z][a-z0-9]*[A-Z]\w*)\b/g, 'AS "$1"')
      .replace(/\bNOT LIKE\b/g, 'NOT ILIKE')
      .replace(/(?<!NOT )\bLIKE\b/g, 'ILIKE'),
  )
  let next = 0
  return _outsideQuotes(out, (code) =>
    code.replace(/\?(\d+)?/g, (_m, n: string | undefined) => {
      if (n !== undefined) return `$${n}`
      next += 1
      return `$${next}`
    }),
  )
}

/** `CAST(<expr> AS BLOB)` → `convert_to(<expr>, 'UTF8')`, with nested parentheses in `<expr>`. */
function _castBlob(sql: string): string {
  let out = ''
  let i = 0
  for (;;) {
    const at = sql.indexOf('CAST(', i)
    if (at < 0) return out + sql.slice(i)
    let depth = 0
    let end = -1
    for (let j = at + 4; j < sql.length; j++) {
      if (sql[j] === '(') depth++
      else if (sql[j] === ')' && --depth === 0) {
        end = j
        break
      }
    }
    const inner = end > 0 ? sql.slice(at + 5, end) : ''
    const match = /^([\s\S]*) AS BLOB$/.exec(inner)
    if (!match) {
      out += sql.slice(i, at + 5)
      i = at + 5
      continue
    }
    out += `${sql.slice(i, at)}convert_to(${_castBlob(match[1]!)}, 'UTF8')`
    i = end + 1
  }
}

/** Applies `fn` to the parts of `sql` outside '…' strings and "…" identifiers. */
function _outsideQuotes(sql: string, fn: (code: string) => string): string {
  let out = ''
  let start = 0
  let i = 0
  while (i < sql.length) {
    const c = sql[i]
    if (c === "'" || c === '"') {
      out += fn(sql.slice(start, i))
      let j = i + 1
      while (j < sql.length) {
        if (sql[j] === c) {
          if (sql[j + 1] === c) j += 2
          else break
        } else j++
      }
      out += sql.slice(i, j + 1)
      i = j + 1
      start = i
    } else i++
  }
  return out + fn(sql.slice(start))
}
