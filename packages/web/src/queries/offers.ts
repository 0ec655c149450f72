import type { Component, ComplibClient } from '@complib/client-sdk'
import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { attachmentKeys } from './attachments'
import { componentSaved } from './components'

type Components = ComplibClient['components']
/** A supplier's offer kept for a component, with the source it came from. */
export type ComponentOffer = Awaited<ReturnType<Components['offers']>>[number]
/** Where one of a component's fields was filled from, and when. */
export type FieldProvenance = Awaited<ReturnType<Components['provenance']>>[number]
export type EnrichResult = Awaited<ReturnType<Components['enrich']>>
export type EnrichChange = EnrichResult['changes'][number]
export type EnrichField = EnrichChange['field']

/**
 * Keys of what a component holds from the sources: its offers and the
 * provenance of its fields. Apart from `componentKeys`: a bulk edit or an
 * import leaves them as they are.
 */
export const offerKeys = {
  offers: (componentId: string) => ['offers', componentId] as const,
  provenance: (componentId: string) => ['provenance', componentId] as const,
}

export const offerQueries = {
  offers: (componentId: string) => queryOptions({ queryKey: offerKeys.offers(componentId), queryFn: () => api().components.offers(componentId) }),
  provenance: (componentId: string) => queryOptions({ queryKey: offerKeys.provenance(componentId), queryFn: () => api().components.provenance(componentId) }),
}

/**
 * After fields were applied from a source: the component as the server
 * answered, and what the enrichment may also have written beside it (offers,
 * provenance, a datasheet link among its files).
 */
export function enriched(queryClient: QueryClient, c: Component): Promise<void> {
  return Promise.all([
    componentSaved(queryClient, c),
    queryClient.invalidateQueries({ queryKey: offerKeys.offers(c.id) }),
    queryClient.invalidateQueries({ queryKey: offerKeys.provenance(c.id) }),
    queryClient.invalidateQueries({ queryKey: attachmentKeys.forComponent(c.id) }),
  ]).then(() => undefined)
}
