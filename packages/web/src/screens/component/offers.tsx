import type { Component } from '@complib/client-sdk'
import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { useCan } from '../../queries/auth'
import { offerQueries, type ComponentOffer } from '../../queries/offers'
import { sourceQueries } from '../../queries/sources'
import { ErrorBox } from '../../ui/error-box'
import { OffersTable } from '../../ui/offers-table'

/** The component's supplier offers as each source last gave them: stock, minimums, price breaks, and which source. */
export function Offers({ component }: { component: Component }) {
  const offers = useQuery(offerQueries.offers(component.id))
  // Source names are for those who may list the sources; the others see the supplier's part number.
  const reader = useCan('sources:read')
  const sources = useQuery({ ...sourceQueries.list(), enabled: reader })
  const id = useId()
  const from = (o: ComponentOffer) => (
    <>
      {o.sourceId ? (sources.data?.find((s) => s.id === o.sourceId)?.name ?? 'a source') : 'a deleted source'}
      <span className="hint">
        as <code>{o.ref}</code>
      </span>
    </>
  )
  return (
    <section aria-labelledby={`${id}-h`} className="wide">
      <h2 id={`${id}-h`}>Offers</h2>
      <ErrorBox error={offers.error} />
      {offers.data?.length === 0 ? (
        <p className="muted">No offers: a component made from a supplier’s part, or enriched from one, has its stock and prices here.</p>
      ) : (
        offers.data && <OffersTable offers={offers.data} caption={`Offers for ${component.name}`} source={from} />
      )}
    </section>
  )
}
