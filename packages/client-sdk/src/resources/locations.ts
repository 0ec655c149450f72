import type { Location, LocationCreate, LocationListQuery, LocationPatch, LocationTreeNode, Page, StockAdjust, StockEntry, StockMove, StockMoveResult } from '@complib/core'
import { iteratePages, readPage } from '../_internal/paging'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions, IterateQueryOf, QueryOf } from '../_internal/types'

/** `client.locations`: stock locations (they nest). */
export function createLocationsResource(t: Transport) {
  return {
    /** `parentId: 'root'` lists the top level; a location id lists its children. */
    list: (query: QueryOf<typeof LocationListQuery> = {}): Promise<Page<Location>> => readPage(t, '/locations', query),
    iterate: (query: IterateQueryOf<typeof LocationListQuery> = {}): AsyncGenerator<Location, void, undefined> => iteratePages(t, '/locations', query),
    tree: (): Promise<LocationTreeNode[]> => t.call('GET', '/locations/tree'),
    get: (id: string): Promise<Location> => t.call('GET', path`/locations/${id}`),
    create: (body: LocationCreate): Promise<Location> => t.call('POST', '/locations', { body }),
    patch: (id: string, body: LocationPatch, options: IfMatchOptions = {}): Promise<Location> => t.call('PATCH', path`/locations/${id}`, { body, ifMatch: options.ifMatch }),
    delete: (id: string): Promise<void> => t.call('DELETE', path`/locations/${id}`),
  }
}

/** `client.stock`: how many of a component sit where. */
export function createStockResource(t: Transport) {
  return {
    /** `GET /api/components/:id/locations`: the component's stock entries. */
    forComponent: (componentId: string): Promise<StockEntry[]> => t.call('GET', path`/components/${componentId}/locations`),
    /** Sets the quantity in one location (idempotent). */
    set: (componentId: string, locationId: string, quantity: number): Promise<StockEntry> =>
      t.call('PUT', path`/components/${componentId}/locations/${locationId}`, { body: { quantity } }),
    // Adjusting twice adds twice: never retried.
    /** Adds (or, negative, takes) `delta`; stock never goes below zero (409). */
    adjust: (body: StockAdjust): Promise<StockEntry> => t.call('POST', '/stock/adjust', { body }),
    move: (body: StockMove): Promise<StockMoveResult> => t.call('POST', '/stock/move', { body }),
  }
}

export type LocationsResource = ReturnType<typeof createLocationsResource>
export type StockResource = ReturnType<typeof createStockResource>
