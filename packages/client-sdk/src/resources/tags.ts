import type { Component, Page, Tag, TagCreate, TagListQuery, TagMerge, TagPatch } from '@complib/core'
import { iteratePages, readPage } from '../_internal/paging'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions, IterateQueryOf, QueryOf } from '../_internal/types'

/** `client.tags`: tags with their counts; set a component's tags with `setOnComponent`. */
export function createTagsResource(t: Transport) {
  return {
    list: (query: QueryOf<typeof TagListQuery> = {}): Promise<Page<Tag>> => readPage(t, '/tags', query),
    iterate: (query: IterateQueryOf<typeof TagListQuery> = {}): AsyncGenerator<Tag, void, undefined> => iteratePages(t, '/tags', query),
    create: (body: TagCreate): Promise<Tag> => t.call('POST', '/tags', { body }),
    patch: (id: string, body: TagPatch, options: IfMatchOptions = {}): Promise<Tag> => t.call('PATCH', path`/tags/${id}`, { body, ifMatch: options.ifMatch }),
    delete: (id: string): Promise<void> => t.call('DELETE', path`/tags/${id}`),
    /** Folds `sourceIds` into `id` and deletes them. */
    merge: (id: string, body: TagMerge): Promise<Tag> => t.call('POST', path`/tags/${id}/merge`, { body }),
    /** Replaces the component's tags by these names (new names become tags). */
    setOnComponent: (componentId: string, names: string[]): Promise<Component> => t.call('PUT', path`/components/${componentId}/tags`, { body: names }),
    removeFromComponent: (componentId: string, tagId: string): Promise<Component> => t.call('DELETE', path`/components/${componentId}/tags/${tagId}`),
  }
}

export type TagsResource = ReturnType<typeof createTagsResource>
