import type { Page } from '@complib/core'
import type { Method, Transport } from './transport'

/** Reads one page of a list route: the JSON array, `X-Total-Count` and the `Link: rel="next"` cursor. */
export async function readPage<T>(transport: Transport, path: string, query: object = {}, method: Method = 'GET'): Promise<Page<T>> {
  const { data, headers } = await transport.raw<T[]>(method, path, { query })
  const items = Array.isArray(data) ? data : []
  const total = Number(headers.get('x-total-count') ?? items.length)
  const bounded = headers.get('x-total-count-bounded') === 'true'
  return { items, total: Number.isFinite(total) ? total : items.length, ...(bounded ? { totalBounded: true } : {}), nextCursor: nextCursor(headers.get('link')) }
}

/**
 * Every item of a list route, page after page, following the server's keyset
 * cursor (so items added or removed meanwhile are neither skipped nor repeated
 * among the ones that stay).
 */
export async function* iteratePages<T>(transport: Transport, path: string, query: object = {}, pageSize = DEFAULT_PAGE_SIZE): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined
  const seen = new Set<string>()
  do {
    const page = await readPage<T>(transport, path, { limit: pageSize, ...query, cursor })
    yield* page.items
    cursor = page.nextCursor ?? undefined
    // A server that hands back a cursor it already gave would loop forever.
    if (cursor !== undefined) {
      if (seen.has(cursor)) throw new Error(`[complib] GET ${path}: the server repeated cursor ${cursor}`)
      seen.add(cursor)
    }
  } while (cursor !== undefined)
}

/** Items per request while iterating: large enough to be few requests, small enough to stay out of the streamed range (above 1,000). */
export const DEFAULT_PAGE_SIZE = 500

/** The `cursor` of the `rel="next"` link of an RFC 8288 `Link` header, if any. */
export function nextCursor(link: string | null): string | null {
  if (!link) return null
  for (const part of link.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part)
    if (!match || !/(?:^|;)\s*rel="?(?:[^"]*\s)?next(?:\s[^"]*)?"?\s*(?:;|$)/.test(match[2]!)) continue
    return new URL(match[1]!, 'http://link.invalid').searchParams.get('cursor')
  }
  return null
}
