import type { SourcePart } from '../../queries/sources'
import { Lifecycle } from '../../ui/lifecycle'
import { OffersTable } from '../../ui/offers-table'

/** One part as the source gives it, before it is a component: its facts, parameters and offers with price breaks. */
export function PartDetails({ part }: { part: SourcePart }) {
  return (
    <div className="part-details">
      <p className="part-title">
        <strong>{part.mpn}</strong> <span className="muted">by {part.manufacturer ?? 'an unnamed manufacturer'}</span> <Lifecycle lifecycle={part.lifecycle} words={part.supplierStatus} />
      </p>
      {part.description && <p>{part.description}</p>}
      <dl className="summary">
        <dt>Supplier’s category</dt>
        <dd>{part.categoryHints.length ? part.categoryHints.join(' › ') : '—'}</dd>
        {part.package && (
          <>
            <dt>Package</dt>
            <dd>{part.package}</dd>
          </>
        )}
        <dt>RoHS</dt>
        <dd>{part.rohs === null ? 'not said' : part.rohs ? 'compliant' : 'not compliant'}</dd>
        <dt>Links</dt>
        <dd className="links-inline">
          {part.datasheetUrl && (
            <a href={part.datasheetUrl} target="_blank" rel="noreferrer noopener">
              Datasheet
            </a>
          )}
          {part.productUrl && (
            <a href={part.productUrl} target="_blank" rel="noreferrer noopener">
              Product page
            </a>
          )}
          {part.imageUrl && (
            <a href={part.imageUrl} target="_blank" rel="noreferrer noopener">
              Picture
            </a>
          )}
          {!part.datasheetUrl && !part.productUrl && !part.imageUrl && '—'}
        </dd>
      </dl>
      <h3>Parameters</h3>
      {part.parameters.length === 0 ? (
        <p className="muted">The source gives none.</p>
      ) : (
        <table className="simple parameters">
          <caption className="visually-hidden">Parameters of {part.mpn}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {part.parameters.map((p, i) => (
              <tr key={`${p.name}:${i}`}>
                <td>{p.name}</td>
                <td>
                  {p.value}
                  {p.unit ? ` ${p.unit}` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Offers</h3>
      <OffersTable offers={part.offers} caption={`Offers for ${part.mpn}`} />
    </div>
  )
}
