import type { Component, ComponentOffer, EnrichJobCreate, Job, Enrich, EnrichResult, FieldProvenance, FromSource, ImportSession, Page, PageQuery, Source, SourceCreate, SourcePartResult, SourcePatch, SourcePullCreate, SourceSearchResult, SourceTypeInfo } from '@complib/core'
import { iteratePages, readPage } from '../_internal/paging'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions, IterateQueryOf, QueryOf } from '../_internal/types'

/**
 * `client.sources`: the configured sources of parts (DigiKey, Mouser, Nexar,
 * TME, and the peers InvenTree and Part-DB): their configuration, searching
 * them, reading one part, and pulling a peer's whole library.
 *
 * @example
 * const mouser = await client.sources.create({ type: 'mouser', name: 'Mouser', config: { apiKey } })
 * const { candidates } = await client.sources.search(mouser.id, 'LM358')
 * const part = await client.components.fromSource({ sourceId: mouser.id, ref: candidates[0].ref })
 */
export function createSourcesResource(t: Transport) {
  return {
    /** Source types this server can use: config schemas, which fields are credentials, capabilities and limits. */
    types: (): Promise<SourceTypeInfo[]> => t.call('GET', '/sources/types'),
    list: (query: QueryOf<typeof PageQuery> = {}): Promise<Page<Source>> => readPage(t, '/sources', query),
    iterate: (query: IterateQueryOf<typeof PageQuery> = {}): AsyncGenerator<Source, void, undefined> => iteratePages(t, '/sources', query),
    get: (id: string): Promise<Source> => t.call('GET', path`/sources/${id}`),
    /** Credentials go in `config`; answers show them as hints only. */
    create: (body: SourceCreate): Promise<Source> => t.call('POST', '/sources', { body }),
    /** `config` is merged into the current one (a credential left out keeps its value). */
    patch: (id: string, body: SourcePatch, options: IfMatchOptions = {}): Promise<Source> => t.call('PATCH', path`/sources/${id}`, { body, ifMatch: options.ifMatch }),
    delete: (id: string): Promise<void> => t.call('DELETE', path`/sources/${id}`),
    /** Parts matching an MPN or keywords (spends the provider's quota unless cached). */
    search: (id: string, q: string, options: { limit?: number } = {}): Promise<SourceSearchResult> => t.call('GET', path`/sources/${id}/search`, { query: { q, ...options } }),
    /** One part as the source gives it, before it is made a component. */
    part: (id: string, ref: string): Promise<SourcePartResult> => t.call('GET', path`/sources/${id}/part`, { query: { ref } }),
    /**
     * Enriches many components from the source as a job (a dry run unless `dryRun: false`): poll it
     * with `client.jobs.get(job.id)`. Never retried: a second job would spend the quota again.
     */
    enrichJob: (id: string, body: EnrichJobCreate): Promise<Job> => t.call('POST', path`/sources/${id}/enrich-jobs`, { body }),
    /**
     * Pulls a peer's whole library (InvenTree, Part-DB) into an import session, `planning` while the
     * parts are read: wait with `client.imports.waitFor(session.id)` until it is `pending`, look at its
     * preview, then `client.imports.commit(session.id)`. Pulling again later re-syncs.
     */
    pull: (id: string, body: SourcePullCreate = {}): Promise<ImportSession> => t.call('POST', path`/sources/${id}/pulls`, { body }),
  }
}

/** The component methods that go through a source: `client.components.fromSource`, `enrich`, `offers`, `provenance`. */
export function createSourceComponentMethods(t: Transport) {
  return {
    /** A new component from a part at a source, in one step (never retried: it creates). */
    fromSource: (body: FromSource): Promise<Component> => t.call('POST', '/components/from-source', { body }),
    /** The field-by-field difference with a part at a source, applied unless `dryRun`. */
    enrich: (id: string, body: Enrich): Promise<EnrichResult> => t.call('POST', path`/components/${id}/enrich`, { body }),
    /** Stock and prices as each source last gave them. */
    offers: (id: string): Promise<ComponentOffer[]> => t.call('GET', path`/components/${id}/offers`),
    /** Where each field was filled from, and when. */
    provenance: (id: string): Promise<FieldProvenance[]> => t.call('GET', path`/components/${id}/provenance`),
  }
}

export type SourcesResource = ReturnType<typeof createSourcesResource>
