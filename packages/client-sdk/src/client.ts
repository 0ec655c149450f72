import type { Health, LibraryStats, Version } from '@complib/core'
import { createTransport, type CallOptions, type Method, type RawResult, type Transport, type TransportOptions } from './_internal/transport'
import type { ClientOptions } from './options'
import { createAttachmentsResource } from './resources/attachments'
import { createAuditResource } from './resources/audit'
import { createAuthResource } from './resources/auth'
import { createBulkResource, createJobsResource } from './resources/bulk'
import { createComponentsResource } from './resources/components'
import { createConnectorsResource, createRunsResource } from './resources/connectors'
import { createSourceComponentMethods, createSourcesResource } from './resources/sources'
import { createExportsResource, createImportsResource } from './resources/imports'
import { createFootprintsResource, createSymbolsResource } from './resources/library-items'
import { createLocationsResource, createStockResource } from './resources/locations'
import { createManufacturersResource } from './resources/manufacturers'
import { createMpnsResource } from './resources/mpns'
import { createParametersResource, createParameterTypesResource } from './resources/parameters'
import { createSearchMethods } from './resources/search'
import { createCategoriesResource } from './resources/categories'
import { createSettingsResource } from './resources/settings'
import { createTagsResource } from './resources/tags'
import { createTokensResource } from './resources/tokens'
import { createUsersResource } from './resources/users'
import { createViewsResource } from './resources/views'

/** Options of the untyped `request` escape hatch. */
export interface RequestOptions extends CallOptions {
  /** Default GET. */
  method?: Method | undefined
}

/**
 * Creates a client for the complib API: one object per route group
 * (`client.components`, `client.tags`, …), with request and response types
 * inferred from `@complib/core`'s schemas, async iterators for full listings,
 * typed errors and retries.
 *
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:4000', token: process.env.COMPLIB_TOKEN })
 * for await (const c of client.components.iterate({ category: 'Resistors' })) {
 *   if (!c.description) await client.components.patch(c.id, { description: `${c.name}, thick film` }, { ifMatch: c.version })
 * }
 */
export function createClient(options: ClientOptions): ComplibClient {
  return _client(options)
}

/** The client `createClient` makes. */
export interface ComplibClient extends _Resources {
  /**
   * The same client (base URL, credential, retries), every request of which
   * carries `comment` as its `Complib-Comment` header: the reason the
   * server records with each change, in the component's history and in the
   * audit trail. One line, at most 1,000 characters; any text (it is sent
   * percent-encoded when it is not plain ASCII).
   *
   * @example
   * const fix = client.withComment('Datasheet rev C: tolerance is 1 %')
   * await fix.components.patch(c.id, { description: '10k 1% 0603' }, { ifMatch: c.version })
   */
  withComment(comment: string): ComplibClient
}

type _Resources = ReturnType<typeof _resources>

function _client(options: TransportOptions): ComplibClient {
  return { ..._resources(createTransport(options)), withComment: (comment) => _client({ ...options, comment }) }
}

function _resources(t: Transport) {
  return {
    // system
    /** `GET /api/health`. */
    health: (): Promise<Health> => t.call('GET', '/health'),
    /** `GET /api/version`: the application build. */
    version: async (): Promise<string> => (await t.call<Version>('GET', '/version')).version,
    /** Counts of everything in the library. */
    stats: (): Promise<LibraryStats> => t.call('GET', '/stats'),

    // resources
    components: { ...createComponentsResource(t), ...createSourceComponentMethods(t) },
    symbols: createSymbolsResource(t),
    footprints: createFootprintsResource(t),
    attachments: createAttachmentsResource(t),
    manufacturers: createManufacturersResource(t),
    mpns: createMpnsResource(t),
    parameterTypes: createParameterTypesResource(t),
    parameters: createParametersResource(t),
    tags: createTagsResource(t),
    categories: createCategoriesResource(t),
    locations: createLocationsResource(t),
    stock: createStockResource(t),
    ...createSearchMethods(t),
    bulk: createBulkResource(t),
    jobs: createJobsResource(t),
    imports: createImportsResource(t),
    exports: createExportsResource(t),
    connectors: createConnectorsResource(t),
    runs: createRunsResource(t),
    sources: createSourcesResource(t),
    auth: createAuthResource(t),
    users: createUsersResource(t),
    tokens: createTokensResource(t),
    audit: createAuditResource(t),
    settings: createSettingsResource(t),
    views: createViewsResource(t),

    // escape hatch
    /**
     * Any route, untyped, with the same base URL, key, retries and typed
     * errors: for the routes the typed surface leaves out (KiCad, the OpenAPI
     * document).
     *
     * @example
     * const categories = await client.request<{ id: string; name: string }[]>('/kicad/v1/categories.json')
     */
    request: <T = unknown>(path: string, { method = 'GET', ...call }: RequestOptions = {}): Promise<T> => t.call<T>(method, path, call),
    /** Like `request`, with the status and headers of the answer. */
    requestRaw: <T = unknown>(path: string, { method = 'GET', ...call }: RequestOptions = {}): Promise<RawResult<T>> => t.raw<T>(method, path, call),
  }
}
