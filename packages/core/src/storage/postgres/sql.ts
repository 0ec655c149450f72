/**
 * The stores write `?` parameters, as SQLite takes them; PostgreSQL numbers
 * them: `?` becomes `$1`, `$2`…, and a numbered `?2` becomes `$2`. Nothing
 * else is rewritten: what the engines say differently is the dialect's
 * (dialect.ts). Quoted strings and identifiers are left alone. Once per SQL
 * text (the result is cached).
 */
export function toPostgres(sql: string): string {
  let cached = CACHE.get(sql)
  if (cached === undefined) {
    cached = _numberParameters(sql)
    if (CACHE.size > 4096) CACHE.clear()
    CACHE.set(sql, cached)
  }
  return cached
}

/**
 * `expr` compared as SQLite's NOCASE compares: case-folded, code point by
 * code point, whatever the database's own collation. The expression indexes
 * of schema.ts are written in this form, so comparisons made with it use them.
 */
export function nocase(expr: string): string {
  return `lower(${expr.startsWith('?') ? `${expr}::text` : expr}) COLLATE "C"`
}

const CACHE = new Map<string, string>()

function _numberParameters(sql: string): string {
  let next = 0
  return _outsideQuotes(sql, (code) =>
    code.replace(/\?(\d+)?/g, (_m, n: string | undefined) => {
      if (n !== undefined) return `$${n}`
      next += 1
      return `$${next}`
    }),
  )
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
