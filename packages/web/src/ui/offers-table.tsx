import type { ReactNode } from 'react'
import type { SourcePart } from '../queries/sources'
import { count, dateTime, price, relativeTime } from './format'
import './sources.css'

type Offer = SourcePart['offers'][number]

/**
 * Suppliers' offers: SKU (linked to the supplier's page), stock, minimum and
 * multiple, price breaks, when asked. Shared by a part not yet in the library
 * and a component's kept offers; `source` adds a column naming where each came from.
 */
export function OffersTable<O extends Offer>({ offers, caption, source }: { offers: readonly O[]; caption: string; source?: (offer: O) => ReactNode }) {
  return (
    <table className="simple offers">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Supplier</th>
          <th scope="col">SKU</th>
          <th scope="col" className="num">
            Stock
          </th>
          <th scope="col">MOQ / multiple</th>
          <th scope="col">Price breaks</th>
          <th scope="col">Fetched</th>
          {source && <th scope="col">From</th>}
        </tr>
      </thead>
      <tbody>
        {offers.length === 0 && (
          <tr>
            <td colSpan={source ? 7 : 6} className="muted">
              No offers.
            </td>
          </tr>
        )}
        {offers.map((o, i) => (
          <tr key={`${o.supplier}:${o.sku ?? i}`}>
            <td>
              {o.supplier}
              {o.packaging && <span className="hint">{o.packaging}</span>}
            </td>
            <td>{o.sku ? o.url ? <a href={o.url} target="_blank" rel="noreferrer noopener">{o.sku}</a> : <code>{o.sku}</code> : '—'}</td>
            <td className="num">{o.stock === null ? '—' : count(o.stock)}</td>
            <td>
              {o.minimumQuantity ?? '—'} / {o.multiple ?? '—'}
            </td>
            <td>
              <PriceBreaks breaks={o.priceBreaks} currency={o.currency} />
            </td>
            <td title={dateTime(o.fetchedAt)}>{relativeTime(o.fetchedAt)}</td>
            {source && <td>{source(o)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** "1+ $0.52 · 10+ $0.366 …", each break on its own chip so the row wraps between them, never inside one. */
function PriceBreaks({ breaks, currency }: { breaks: Offer['priceBreaks']; currency: string | null }) {
  if (breaks.length === 0) return <span className="muted">no prices</span>
  return (
    <ul className="price-breaks">
      {breaks.map((b) => (
        <li key={b.quantity}>
          <span className="muted">{count(b.quantity)}+</span> {price(b.price, currency)}
        </li>
      ))}
    </ul>
  )
}
