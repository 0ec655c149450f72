/**
 * Paging headers of a list: `X-Total-Count`, and `Link: <…>; rel="next"` when
 * more items follow (the same URL with the storage's next cursor). The storage
 * reads one row past the page, so it knows before any body is sent.
 */
export function pageHeaders(url: URL, page: { total: number; nextCursor: string | null }): Record<string, string> {
  const headers: Record<string, string> = { 'x-total-count': String(page.total) }
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
