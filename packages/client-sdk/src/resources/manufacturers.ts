import type { Manufacturer, ManufacturerCreate, ManufacturerListQuery, ManufacturerMerge, ManufacturerPatch, Page } from '@complib/core'
import { iteratePages, readPage } from '../_internal/paging'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions, IterateQueryOf, QueryOf } from '../_internal/types'

/** `client.manufacturers`. */
export function createManufacturersResource(t: Transport) {
  return {
    list: (query: QueryOf<typeof ManufacturerListQuery> = {}): Promise<Page<Manufacturer>> => readPage(t, '/manufacturers', query),
    iterate: (query: IterateQueryOf<typeof ManufacturerListQuery> = {}): AsyncGenerator<Manufacturer, void, undefined> => iteratePages(t, '/manufacturers', query),
    get: (id: string): Promise<Manufacturer> => t.call('GET', path`/manufacturers/${id}`),
    create: (body: ManufacturerCreate): Promise<Manufacturer> => t.call('POST', '/manufacturers', { body }),
    patch: (id: string, body: ManufacturerPatch, options: IfMatchOptions = {}): Promise<Manufacturer> =>
      t.call('PATCH', path`/manufacturers/${id}`, { body, ifMatch: options.ifMatch }),
    delete: (id: string): Promise<void> => t.call('DELETE', path`/manufacturers/${id}`),
    /** Folds `sourceIds` into `id` (their MPNs move) and deletes them. */
    merge: (id: string, body: ManufacturerMerge): Promise<Manufacturer> => t.call('POST', path`/manufacturers/${id}/merge`, { body }),
  }
}

export type ManufacturersResource = ReturnType<typeof createManufacturersResource>
