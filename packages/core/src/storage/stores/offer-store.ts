import type { ComponentOffer, PriceBreak } from '../../schemas/source'
import type { OfferStore } from '../types'
import type { StoreAccess, StoreRepo } from './repo'

/** Supplier offers kept per component and source: each source's last answer replaces its previous one whole. */
export const offers = {
  async list(ex, componentId) {
    const rows = await ex.all<_Row>(
      `SELECT o.*, s.id AS live_source FROM component_offers o LEFT JOIN sources s ON s.id = o.source_id
       WHERE o.component_id = ? ORDER BY o.supplier, o.sku, o.source_id, o.position`,
      [componentId],
    )
    return rows.map(_view)
  },

  async replace(ex, componentId, sourceId, ref, list) {
    await ex.run('DELETE FROM component_offers WHERE component_id = ? AND source_id = ?', [componentId, sourceId])
    for (const [position, o] of list.entries()) {
      await ex.run(
        `INSERT INTO component_offers (component_id, source_id, position, ref, supplier, sku, url, stock, minimum_quantity, multiple, packaging, currency, price_breaks, fetched_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [componentId, sourceId, position, ref, o.supplier, o.sku, o.url, o.stock, o.minimumQuantity, o.multiple, o.packaging, o.currency, JSON.stringify(o.priceBreaks), o.fetchedAt],
      )
    }
  },
} satisfies StoreRepo<OfferStore>

/** How each method uses the database (Access). */
export const offerAccess = { list: 'read', replace: 'write' } as const satisfies StoreAccess<OfferStore>

interface _Row {
  component_id: string
  source_id: string
  live_source: string | null
  ref: string
  supplier: string
  sku: string | null
  url: string | null
  stock: number | string | null
  minimum_quantity: number | string | null
  multiple: number | string | null
  packaging: string | null
  currency: string | null
  price_breaks: string
  fetched_at: string
}

const _int = (v: number | string | null) => (v === null ? null : Number(v))

function _view(r: _Row): ComponentOffer {
  return {
    sourceId: r.live_source,
    ref: r.ref,
    supplier: r.supplier,
    sku: r.sku,
    url: r.url,
    stock: _int(r.stock),
    minimumQuantity: _int(r.minimum_quantity),
    multiple: _int(r.multiple),
    packaging: r.packaging,
    currency: r.currency,
    priceBreaks: JSON.parse(r.price_breaks) as PriceBreak[],
    fetchedAt: r.fetched_at,
  }
}
