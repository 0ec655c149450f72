const PREFIXES: Record<string, number> = {
  p: 1e-12,
  n: 1e-9,
  u: 1e-6,
  µ: 1e-6,
  μ: 1e-6,
  m: 1e-3,
  '': 1,
  R: 1,
  k: 1e3,
  K: 1e3,
  M: 1e6,
  G: 1e9,
}

/**
 * Reads a parameter value as a number, with an SI prefix and an optional
 * trailing unit, or in RKM notation (`4k7`, `0R1`). Returns null for text
 * that is not a number, so parametric search can skip it.
 *
 * @example
 * parseSiNumber('10k')    // 10000
 * parseSiNumber('100nF')  // 1e-7
 * parseSiNumber('4k7')    // 4700
 * parseSiNumber('X7R')    // null
 */
export function parseSiNumber(text: string): number | null {
  const value = text.trim().replace(',', '.')
  const rkm = /^(\d+)([pnuµμmRkKMG])(\d+)$/.exec(value)
  if (rkm) return _scale(Number(`${rkm[1]}.${rkm[3]}`), rkm[2]!)
  const plain = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*([pnuµμmkKMG]?)(?:[A-Za-zΩ°%]{0,4})$/.exec(value)
  if (!plain) return null
  // A lone unit letter that is also a prefix (`1m` = 1 milli) is read as the prefix.
  return _scale(Number(plain[1]), plain[2] ?? '')
}

function _scale(n: number, prefix: string): number | null {
  const factor = PREFIXES[prefix]
  if (factor === undefined || !Number.isFinite(n)) return null
  // Round away binary noise (4.7e-6 rather than 4.699999e-6).
  return Number((n * factor).toPrecision(12))
}
