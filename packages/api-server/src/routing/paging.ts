import { COMPONENT_COUNT_BOUND } from '@complib/core'
/**
 * Paging headers of a list: `X-Total-Count`, and `Link: <…>; rel="next"` when
 * more items follow (the same URL with the storage's next cursor). The storage
 * reads one row past the page, so it knows before any body is sent.
 */
export function pageHeaders(url: URL, page: { total: number; totalBounded?: boolean; nextCursor: string | null }): Record<string, string> {
  const headers: Record<string, string> = { 'x-total-count': String(page.total) }
  if (page.totalBounded) headers['x-total-count-bounded'] = 'true'
  if (page.nextCursor) {
    // The query alone, not a copy of the whole URL: this runs for every page.
    const query = new URLSearchParams(url.search)
    query.set('cursor', page.nextCursor)
    headers.link = `<${url.pathname}?${query}>; rel="next"`
  }
  return headers
}

/** Headers documented on every list response. */
export const PAGE_HEADERS = {
  'x-total-count': { description: 'Number of items matching the filters, over all pages' },
  link: { description: 'RFC 8288 link to the next page (`rel="next"`), absent on the last page' },
}

/** The headers of the component list, whose filtered count stops at a bound (decision 0209). */
export const BOUNDED_PAGE_HEADERS = {
  ...PAGE_HEADERS,
  'x-total-count': { description: 'Number of components matching the filters, over all pages; with `X-Total-Count-Bounded`, a lower bound' },
  'x-total-count-bounded': {
    description:
      `\`true\` when the count stopped at \`X-Total-Count\` (${COMPONENT_COUNT_BOUND}) and more components match; absent when the count is exact. Only a filtered list stops counting; the unfiltered count is exact, and so is a first page that holds every match.`,
  },
}
