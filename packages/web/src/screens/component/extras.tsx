import type { Component } from '@complib/client-sdk'
import { useCan } from '../../queries/auth'
import { Attachments } from './attachments'
import { Enrich } from './enrich'
import { History } from './history'
import { Offers } from './offers'
import { Provenance } from './provenance'
import { Stock } from './stock'

/**
 * What hangs off a saved component: attachments, stock per location, where
 * its fields came from, its suppliers' offers, enrichment from a source
 * (for those who may search sources and change the library), history.
 */
export function ComponentExtras({ component }: { component: Component }) {
  const writer = useCan('library:write')
  const searcher = useCan('sources:search')
  return (
    <div className="extras">
      <Attachments component={component} />
      <Stock component={component} />
      <Provenance component={component} />
      <Offers component={component} />
      {writer && searcher && !component.deletedAt && <Enrich component={component} />}
      <History component={component} />
    </div>
  )
}
