import { SourceError, type SourceCandidate, type SourcePart } from '@complib/core'
import type * as z from 'zod'

/**
 * What every built-in source does with a provider's answer once read: its
 * own normalised output checked against the contract, numbers and links
 * taken only when they are what they claim, credentials scrubbed from any
 * text repeated in a message.
 */

/** A value of ours checked against the contract: one out of its bounds came from an answer outside the provider's documented ones. */
export function conform<T>(provider: string, schema: z.ZodType<T>, value: T, what: string): T {
  const checked = schema.safeParse(value)
  if (!checked.success) throw new SourceError('bad-answer', `${provider} answered ${what} out of bounds (at ${issuePath(checked.error)})`)
  return checked.data
}

/** Where a zod check failed, for a message: `Products.0.Name`, or the answer as a whole. */
export function issuePath(error: z.ZodError): string {
  const issue = error.issues[0]
  return issue && issue.path.length > 0 ? issue.path.join('.') : 'its top level'
}

/** `text` with every credential (of four characters or more) replaced by `…`: providers repeat what they were sent. */
export function scrub(text: string, secrets: readonly string[]): string {
  return secrets.filter((s) => s.length >= 4).reduce((out, secret) => out.split(secret).join('…'), text)
}

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

/** Trimmed text, or null for none. */
export function cleanText(value: string | null | undefined): string | null {
  const text = value?.trim()
  return text ? text : null
}

/** Trimmed text cut to `max` characters, or null for none. */
export function clip(value: string | null | undefined, max: number): string | null {
  return cleanText(value)?.slice(0, max) ?? null
}

/** A search's candidate from a part read whole, with the stock the provider gives for it. */
export function candidateOf(part: SourcePart, stock: number | null): SourceCandidate {
  return { ref: part.ref, manufacturer: part.manufacturer, mpn: part.mpn, description: part.description, imageUrl: part.imageUrl, productUrl: part.productUrl, lifecycle: part.lifecycle, stock }
}
