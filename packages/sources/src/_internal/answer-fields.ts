import type { SourceCandidate, SourcePart, SupplierOffer } from '@complib/core'

/**
 * What every built-in source does with the fields of a provider's answer
 * once read: numbers, links and codes taken only when they are what they
 * claim, texts trimmed and bounded.
 */

/** A whole number of at least 0, or null. */
export function count(n: number | null | undefined): number | null {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null
}

/** A whole number of at least 1 (a minimum or a multiple), or null. */
export function positive(n: number | null | undefined): number | null {
  const c = count(n)
  return c !== null && c >= 1 ? c : null
}

/** An http(s) link of at most 2,000 characters as given (a protocol-relative one made https), or null. */
export function httpUrl(value: string | null | undefined): string | null {
  let text = value?.trim()
  if (!text) return null
  if (text.startsWith('//')) text = `https:${text}`
  if (text.length > 2000) return null
  try {
    const url = new URL(text)
    return url.protocol === 'https:' || url.protocol === 'http:' ? text : null
  } catch {
    return null
  }
}

/** A path on a server (`/media/…`) made an http(s) link against `base`, which ends in `/`; an absolute link as `httpUrl` takes it; else null. */
export function absoluteUrl(path: string | null | undefined, base: string): string | null {
  const text = cleanText(path)
  if (!text) return null
  try {
    return httpUrl(new URL(text, base).href)
  } catch {
    return null
  }
}

/** Trimmed text, or null for none. */
export function cleanText(value: string | null | undefined): string | null {
  const text = value?.trim()
  return text ? text : null
}

/** Trimmed text cut to `max` characters, or null for none. */
export function clip(value: string | null | undefined, max: number): string | null {
  return cleanText(value)?.slice(0, max) ?? null
}

/** A currency code (ISO 4217: three letters, any case, trimmed) in capitals, or null. */
export function currencyCode(value: string | null | undefined): string | null {
  const code = value?.trim().toUpperCase()
  return code && /^[A-Z]{3}$/.test(code) ? code : null
}

/** A RoHS status in words ("RoHS3 Compliant", "Compliant by Exemption", "Non-Compliant", "Not Compliant"): compliant or not; anything else ("Not Applicable") says nothing. */
export function rohsCompliant(value: string | null | undefined): boolean | null {
  const text = cleanText(value)?.toLowerCase() ?? ''
  if (/non[- ]?compliant|not compliant/.test(text)) return false
  if (/compliant/.test(text)) return true
  return null
}

/** Unit prices by quantity as the contract's price breaks: ascending by quantity, at most 50. */
export function priceBreaksOf(byQuantity: ReadonlyMap<number, number>): SupplierOffer['priceBreaks'] {
  return [...byQuantity]
    .sort(([a], [b]) => a - b)
    .slice(0, 50)
    .map(([quantity, price]) => ({ quantity, price }))
}

/** A search's candidate from a part read whole, with the stock the provider gives for it. */
export function candidateOf(part: SourcePart, stock: number | null): SourceCandidate {
  return { ref: part.ref, manufacturer: part.manufacturer, mpn: part.mpn, description: part.description, imageUrl: part.imageUrl, productUrl: part.productUrl, lifecycle: part.lifecycle, stock }
}
