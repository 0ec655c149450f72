/** "3 minutes ago", "in 2 hours": relative time in words, for a timestamp. */
export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never'
  const diff = new Date(iso).getTime() - now
  const abs = Math.abs(diff)
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
    ['second', 1000],
  ]
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })
  for (const [unit, ms] of units) if (abs >= ms || unit === 'second') return rtf.format(Math.round(diff / ms), unit)
  return iso
}

export function dateTime(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'short', timeStyle: 'short' }) : '—'
}

export function count(n: number): string {
  return n.toLocaleString('en-US')
}

/**
 * A count with its noun, singular for exactly one: "1 component", "2 components",
 * "1,000 batches" (decision 1418). `many` defaults to `one` + "s".
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`
}

/** A count the server may have stopped at (`X-Total-Count-Bounded`): "more than 1,000 components" then, else as plural. */
export function pluralAtLeast(n: number, bounded: boolean, one: string, many = `${one}s`): string {
  return bounded ? `more than ${count(n)} ${many}` : plural(n, one, many)
}

const SI_PREFIXES: Array<[number, string]> = [
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
  [1, ''],
  [1e-3, 'm'],
  [1e-6, 'u'],
  [1e-9, 'n'],
  [1e-12, 'p'],
]

/** A number as a parameter value is written, with an SI prefix: 10000000 → "10M", 0.0000047 → "4.7u". */
export function siNumber(n: number): string {
  const abs = Math.abs(n)
  if (abs === 0 || !Number.isFinite(n)) return String(n)
  const [factor, prefix] = SI_PREFIXES.find(([f]) => abs >= f) ?? SI_PREFIXES.at(-1)!
  return `${Number((n / factor).toPrecision(6))}${prefix}`
}

/**
 * A unit price in its currency: "$0.366", "€0.41". Up to 5 decimals: parts
 * are priced in fractions of a cent at volume. An unknown or missing code is
 * shown beside the number, never guessed.
 */
export function price(n: number, currency: string | null): string {
  if (!currency) return String(n)
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 5 }).format(n)
  } catch {
    return `${n} ${currency}`
  }
}
