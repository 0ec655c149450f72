import type { Mpn, MpnCreate, MpnListQuery, MpnPatch, MpnResolveRequest, MpnResolveResult, Page } from '@complib/core'
import { iteratePages, readPage } from '../_internal/paging'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions, IterateQueryOf, QueryOf } from '../_internal/types'

/** `client.mpns`: manufacturer part numbers, and BOM lookup. */
export function createMpnsResource(t: Transport) {
  return {
    list: (query: QueryOf<typeof MpnListQuery> = {}): Promise<Page<Mpn>> => readPage(t, '/mpns', query),
    iterate: (query: IterateQueryOf<typeof MpnListQuery> = {}): AsyncGenerator<Mpn, void, undefined> => iteratePages(t, '/mpns', query),
    get: (id: string): Promise<Mpn> => t.call('GET', path`/mpns/${id}`),
    forComponent: (componentId: string): Promise<Mpn[]> => t.call('GET', path`/components/${componentId}/mpns`),
    /** Adds an MPN to a component (the manufacturer is created when new). */
    add: (componentId: string, body: MpnCreate): Promise<Mpn> => t.call('POST', path`/components/${componentId}/mpns`, { body }),
    patch: (id: string, body: MpnPatch, options: IfMatchOptions = {}): Promise<Mpn> => t.call('PATCH', path`/mpns/${id}`, { body, ifMatch: options.ifMatch }),
    delete: (id: string): Promise<void> => t.call('DELETE', path`/mpns/${id}`),
    /** A BOM's part numbers, answered in the same order with the components that carry them. Read-only, so retried. */
    resolve: (body: MpnResolveRequest): Promise<MpnResolveResult[]> => t.call('POST', '/mpns/resolve', { body, idempotent: true }),
  }
}

export type MpnsResource = ReturnType<typeof createMpnsResource>
