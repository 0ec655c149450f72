import { LRUCache } from 'lru-cache'
import type { PoolClient } from 'pg'

/**
 * Component views kept by the server, keyed by the history event that holds
 * them (`component_events.seq`, what `components.view_seq` points at).
 *
 * An event's view never changes: a change of a component writes a new event
 * with a new seq, and the only statement that touches an old one (a purge)
 * removes the component, so no page lists that seq again. A view kept under
 * its seq is therefore right on every server, for as long as it is kept, and
 * needs no invalidation. A page then asks PostgreSQL for its order and seqs
 * instead of its views, so neither does the database build and send the
 * views, nor the driver decode them into a string that the server encodes
 * back into bytes: that was most of a page's cost (decision 0310; measured by
 * `npm run bench -- --only=postgres`).
 *
 * Bounded by bytes (least recently used first out).
 */
export class StoredViews {
  private readonly kept: LRUCache<number, Buffer>

  constructor(maxBytes = StoredViews.MAX_BYTES) {
    this.kept = new LRUCache<number, Buffer>({ maxSize: maxBytes, sizeCalculation: (view) => view.byteLength + 64 })
  }

  /** Default bound: about 30,000 views of a typical 1 KB. */
  static readonly MAX_BYTES = 32 * 1024 * 1024

  /**
   * The views of `seqs`, each as its UTF-8 bytes; those not kept are read on
   * `client` in one statement. A seq whose event holds no view (purged since)
   * is missing from the map.
   */
  async read(client: PoolClient, seqs: readonly number[]): Promise<Map<number, Buffer>> {
    const out = new Map<number, Buffer>()
    const missing: number[] = []
    for (const seq of seqs) {
      const view = this.kept.get(seq)
      if (view) out.set(seq, view)
      else missing.push(seq)
    }
    if (missing.length === 0) return out
    const { rows } = await client.query<[number, string]>({
      name: 'complib_stored_views',
      text: 'SELECT seq, snapshot FROM component_events WHERE seq = ANY($1::bigint[]) AND snapshot IS NOT NULL',
      values: [missing],
      rowMode: 'array',
    })
    for (const [seq, snapshot] of rows) {
      const view = Buffer.from(snapshot, 'utf8')
      this.kept.set(Number(seq), view)
      out.set(Number(seq), view)
    }
    return out
  }

  /** Views kept now (tests). */
  get size(): number {
    return this.kept.size
  }
}
