import type { ComponentListQuery, Storage } from '@complib/core'
import { pageHeaders } from '../routing/paging'

const CHUNK = 500

/**
 * A full listing as a streamed JSON array: the page's ids are read first
 * (so the Link and X-Total-Count headers are known before the body), then
 * the records go out 500 at a time, pulled as the client reads: memory stays
 * bounded at 100,000 components and a slow client slows the reads, not the heap.
 */
export async function streamComponentList(storage: Storage, query: ComponentListQuery, url: URL): Promise<Response> {
  const page = await storage.components.listIds(query)
  const ids = page.items
  const encoder = new TextEncoder()
  let next = 0
  let first = true
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next >= ids.length) {
        controller.enqueue(encoder.encode(first ? '[]' : ']'))
        controller.close()
        return
      }
      const chunk = ids.slice(next, next + CHUNK)
      next += CHUNK
      // A component deleted since its id was read is skipped, as it would be on the next request.
      // Each record's stored JSON text as is: no parse and serialize per record.
      const components = await storage.components.getManyJson(chunk, { includeDeleted: query.includeDeleted })
      if (components.length === 0) return
      const text = (first ? '[' : ',') + components.join(',')
      first = false
      controller.enqueue(encoder.encode(text))
    },
  })
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json', ...pageHeaders(url, page) } })
}
