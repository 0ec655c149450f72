import type {
  ExternalReference,
  Component,
  ComponentChanges,
  ComponentChangesQuery,
  ComponentCreate,
  ComponentDuplicate,
  ComponentExtras,
  ComponentGetQuery,
  ComponentHistoryEntry,
  ComponentIds,
  ComponentIdsQuery,
  ComponentListQuery,
  ComponentPatch,
  ComponentRevert,
  NextIpn,
  NextIpnQuery,
  Page,
  PageQuery,
} from '@complib/core'
import { iteratePages, readPage } from '../_internal/paging'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions, IterateQueryOf, QueryOf } from '../_internal/types'
import { patchMany, type PatchManyItem, type PatchManyOptions, type PatchManyResult } from '../patch-many'

/**
 * `client.components`: the parts of the library (`/api/components`).
 *
 * @example
 * for await (const c of client.components.iterate({ q: 'RC0603' })) console.log(c.ipn)
 * await client.components.patch(c.id, { description: 'thick film' }, { ifMatch: c.version })
 */
export function createComponentsResource(t: Transport) {
  return {
    /**
     * One page: `{ items, total, nextCursor }`. Deleted components are left out
     * unless `deleted: 'include'` (`'only'`: the trash). Sorts by any column of
     * the library table, `parameter:<type>` too; filters by parameter
     * conditions (`parameter: ['Resistance:1k..10k', 'Package=0603']`).
     */
    list: (query: QueryOf<typeof ComponentListQuery> = {}): Promise<Page<Component>> => readPage(t, '/components', query),
    /** Every matching component, following the cursor page after page. */
    iterate: (query: IterateQueryOf<typeof ComponentListQuery> = {}): AsyncGenerator<Component, void, undefined> => iteratePages(t, '/components', query),
    /** The ids of every component matching the same filters as `list` (up to 100,000 at once), in the sort's order, with the total. */
    ids: (query: QueryOf<typeof ComponentIdsQuery> = {}): Promise<ComponentIds> => t.call('GET', '/components/ids', { query }),
    /** Total stock and image of up to 500 components, by id (unknown ids left out): what the library table shows beside a page. */
    extras: (ids: readonly string[]): Promise<ComponentExtras> => t.call('GET', '/components/extras', { query: { ids: [ids].flat().join(',') } }),
    /** The bytes of a component's image (its first `image` attachment), following the server's redirect; `NotFoundError` when it has none. */
    image: async (id: string): Promise<Uint8Array> => new Uint8Array(await t.call<ArrayBuffer>('GET', path`/components/${id}/image`, { responseType: 'arrayBuffer' })),
    get: (id: string, query: QueryOf<typeof ComponentGetQuery> = {}): Promise<Component> => t.call('GET', path`/components/${id}`, { query }),
    getByIpn: (ipn: string): Promise<Component> => t.call('GET', path`/components/by-ipn/${ipn}`),
    /** The next free internal part number (`CMP-00042`, or with your prefix). */
    nextIpn: async (query: QueryOf<typeof NextIpnQuery> = {}): Promise<string> => (await t.call<NextIpn>('GET', '/components/next-ipn', { query })).ipn,
    /** Only `name` is required; a missing `ipn` is generated. */
    create: (body: ComponentCreate): Promise<Component> => t.call('POST', '/components', { body }),
    /**
     * JSON merge patch: absent fields stay, `null` clears, arrays replace. With
     * `ifMatch` (the version you read) a concurrent change makes it fail with
     * `PreconditionFailedError` instead of being overwritten.
     */
    patch: (id: string, body: ComponentPatch, options: IfMatchOptions = {}): Promise<Component> =>
      t.call('PATCH', path`/components/${id}`, { body, ifMatch: options.ifMatch }),
    /** Soft delete: `restore` brings it back. */
    delete: (id: string, options: IfMatchOptions = {}): Promise<void> => t.call('DELETE', path`/components/${id}`, { ifMatch: options.ifMatch }),
    // Restoring twice is a 409, so a replay would report an error for a success: not retried.
    restore: (id: string): Promise<Component> => t.call('POST', path`/components/${id}/restore`),
    /** A copy as `draft`, without MPNs, stock or attachments. */
    /** The component's keys in the peers' databases its imports came from (InvenTree's part `ID`, Part-DB's `id`). */
    references: (id: string): Promise<ExternalReference[]> => t.call('GET', path`/components/${id}/references`),
    duplicate: (id: string, body: ComponentDuplicate = {}): Promise<Component> => t.call('POST', path`/components/${id}/duplicate`, { body }),
    /**
     * Makes the component's fields (not its attachments or stock) those of an
     * earlier `version`, as a new version whose history entry says
     * `revertedTo`. A state that cannot be made again (its ipn taken since) is
     * a `ConflictError` naming the field. Not retried: a replay would revert twice.
     */
    revert: (id: string, version: number, options: IfMatchOptions = {}): Promise<Component> =>
      t.call('POST', path`/components/${id}/revert`, { body: { version } satisfies ComponentRevert, ifMatch: options.ifMatch }),
    /** Deletes for good, with its history. */
    purge: (id: string): Promise<void> => t.call('DELETE', path`/components/${id}/purge`),
    /** Every version of a component, newest first (one page). */
    history: (id: string, query: QueryOf<typeof PageQuery> = {}): Promise<Page<ComponentHistoryEntry>> => readPage(t, path`/components/${id}/history`, query),
    iterateHistory: (id: string, query: IterateQueryOf<typeof PageQuery> = {}): AsyncGenerator<ComponentHistoryEntry, void, undefined> =>
      iteratePages(t, path`/components/${id}/history`, query),
    /** The change feed: pass the `lastSeq` you got as `since` next time. */
    changes: (query: QueryOf<typeof ComponentChangesQuery> = {}): Promise<ComponentChanges> => t.call('GET', '/components/changes', { query }),
    /**
     * Patches many components one request each, at most `concurrency` at a
     * time, reporting progress. Not atomic (see `client.bulk.patch` for an
     * all-or-nothing edit of up to 1,000); failures are collected, not thrown.
     *
     * @example
     * const items = []
     * for await (const c of client.components.iterate()) if (!c.description) items.push({ id: c.id, patch: { description: c.name }, ifMatch: c.version })
     * const result = await client.components.patchMany(items, { concurrency: 8, onProgress: (p) => console.log(`${p.done}/${p.total}`) })
     */
    patchMany: (items: Iterable<PatchManyItem> | AsyncIterable<PatchManyItem>, options: PatchManyOptions = {}): Promise<PatchManyResult> =>
      patchMany((item) => t.call<Component>('PATCH', path`/components/${item.id}`, { body: item.patch, ifMatch: item.ifMatch }), items, options),
  }
}

export type ComponentsResource = ReturnType<typeof createComponentsResource>
