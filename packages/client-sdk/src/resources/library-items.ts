import type { Component, Footprint, FootprintCreate, FootprintPatch, LibraryItemListQuery, Page, PageQuery, Symbol, SymbolCreate, SymbolPatch } from '@complib/core'
import { iteratePages, readPage } from '../_internal/paging'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions, IterateQueryOf, QueryOf } from '../_internal/types'

/**
 * `client.symbols` and `client.footprints`: one shape, two groups. Link one to
 * a component with `link(componentId, id)`.
 */
function createLibraryItemResource<T, C, P>(t: Transport, plural: 'symbols' | 'footprints') {
  const base = `/${plural}`
  return {
    list: (query: QueryOf<typeof LibraryItemListQuery> = {}): Promise<Page<T>> => readPage(t, base, query),
    iterate: (query: IterateQueryOf<typeof LibraryItemListQuery> = {}): AsyncGenerator<T, void, undefined> => iteratePages(t, base, query),
    get: (id: string): Promise<T> => t.call('GET', `${base}/${encodeURIComponent(id)}`),
    /** With `content` (the `.kicad_sym` / `.kicad_mod` text) and `fileName`, the file is stored too. */
    create: (body: C): Promise<T> => t.call('POST', base, { body }),
    patch: (id: string, body: P, options: IfMatchOptions = {}): Promise<T> => t.call('PATCH', `${base}/${encodeURIComponent(id)}`, { body, ifMatch: options.ifMatch }),
    /** A 409 while components link to it, unless `force: true` (the links go too). */
    delete: (id: string, options: IfMatchOptions & { force?: boolean | undefined } = {}): Promise<void> =>
      t.call('DELETE', `${base}/${encodeURIComponent(id)}`, { query: { force: options.force }, ifMatch: options.ifMatch }),
    /** Components linking to it (one page). */
    components: (id: string, query: QueryOf<typeof PageQuery> = {}): Promise<Page<Component>> => readPage(t, `${base}/${encodeURIComponent(id)}/components`, query),
    /** The stored file as text. */
    file: (id: string): Promise<string> => t.call('GET', `${base}/${encodeURIComponent(id)}/file`, { responseType: 'text' }),
    /** Links it to a component (idempotent); answers the component. */
    link: (componentId: string, id: string): Promise<Component> => t.call('PUT', path`/components/${componentId}/${plural}/${id}`),
    unlink: (componentId: string, id: string): Promise<Component> => t.call('DELETE', path`/components/${componentId}/${plural}/${id}`),
  }
}

export const createSymbolsResource = (t: Transport) => createLibraryItemResource<Symbol, SymbolCreate, SymbolPatch>(t, 'symbols')
export const createFootprintsResource = (t: Transport) => createLibraryItemResource<Footprint, FootprintCreate, FootprintPatch>(t, 'footprints')
export type SymbolsResource = ReturnType<typeof createSymbolsResource>
export type FootprintsResource = ReturnType<typeof createFootprintsResource>
