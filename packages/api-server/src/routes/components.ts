import {
  Component,
  ComponentChanges,
  ComponentChangesQuery,
  ComponentCreate,
  ComponentDuplicate,
  ComponentExtras,
  ComponentExtrasQuery,
  ComponentGetQuery,
  ComponentHistoryEntry,
  ComponentIds,
  ComponentIdsQuery,
  ComponentListQuery,
  ComponentPatch,
  ComponentRevert,
  Ipn,
  NextIpn,
  NextIpnQuery,
  PageQuery,
  ComplibError,
  COMPONENT_COUNT_BOUND,
  idSchema,
} from '@complib/core'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'
import { BOUNDED_PAGE_HEADERS, PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { created, etag, jsonResponse, noContent, withHeaders } from '../routing/reply'
import { ifMatchVersion } from '../routing/request'
import { streamComponentList } from './component-stream'

const IdParams = z.object({ id: idSchema('component') })
const ETAG = { etag: { description: 'The record version; send it back as If-Match to update safely' } }
const one = (description: string) => ({ description, schema: Component, headers: ETAG })

/** Above this many items a listing is streamed in chunks instead of built as one string. */
const STREAM_ABOVE = 1000

export const componentRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/components',
    group: 'components',
    operationId: 'listComponents',
    permission: 'library:read',
    summary: 'List components',
    description:
      `A JSON array of components, deleted ones left out unless \`deleted=include\` (\`deleted=only\`: the trash). \`limit\` defaults to 100; any value up to 100000 is accepted for a full listing (streamed). The next page is in the \`Link\` header, the total in \`X-Total-Count\`: with filters, counted up to ${COMPONENT_COUNT_BOUND} and no further (\`X-Total-Count-Bounded: true\` says more match).`,
    query: ComponentListQuery,
    responses: { 200: { description: 'Components', schema: z.array(Component), headers: BOUNDED_PAGE_HEADERS } },
    handler: async ({ query, services, url }) => {
      if (query.limit > STREAM_ABOVE) return streamComponentList(services.storage, query, url)
      // The page as the stored views' bytes, joined by SQLite: no parse, serialize, decode or encode per record.
      const page = await services.storage.components.listJson(query)
      return jsonResponse(page.json, 200, pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/ids',
    group: 'components',
    operationId: 'listComponentIds',
    permission: 'library:read',
    summary: 'The ids of every component matching the list\'s filters',
    description:
      'The same filters, sort and cursor as `GET /api/components`, ids only, up to 100000 at once (the default): what "select every row matching the filter" needs (decision 0444).',
    query: ComponentIdsQuery,
    responses: { 200: { description: 'The ids, in the sort\'s order', schema: ComponentIds } },
    handler: async ({ query, services }) => {
      const page = await services.storage.components.listIds(query)
      return { ids: page.items, total: page.total, ...(page.totalBounded ? { totalBounded: true } : {}), nextCursor: page.nextCursor }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/extras',
    group: 'components',
    operationId: 'getComponentExtras',
    permission: 'library:read',
    summary: 'Total stock and image of a page of components',
    description:
      'For the library table, beside a page of the list: each component\'s stock over all locations and its image (its first attachment of kind `image` with stored bytes or a URL), by id. Unknown ids are left out (decisions 0443, 0445).',
    query: ComponentExtrasQuery,
    responses: { 200: { description: 'By component id', schema: ComponentExtras } },
    handler: async ({ query, services }) => await services.storage.components.extras(query.ids),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/{id}/image',
    group: 'components',
    operationId: 'getComponentImage',
    permission: 'library:read',
    summary: 'Redirect to a component\'s image',
    description: 'A 302 to its first attachment of kind `image`: the stored bytes (`/api/attachments/{id}/content`) or the attachment\'s URL; 404 when it has none (decision 0445).',
    params: IdParams,
    responses: { 302: { description: 'The image is at `location`', headers: { location: { description: 'Where the image is' } } } },
    handler: async ({ params, services }) => {
      const image = (await services.storage.components.extras([params.id]))[params.id]?.image
      if (!image) throw new ComplibError('NOT_FOUND', `component ${params.id} has no image`)
      return new Response(null, { status: 302, headers: { location: image.url } })
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/components',
    group: 'components',
    operationId: 'createComponent',
    permission: 'library:write',
    summary: 'Create a component',
    description: 'Only `name` is required. A missing `ipn` is generated (see next-ipn). Tags and manufacturers named here are created when new.',
    body: ComponentCreate,
    errors: ['CONFLICT'],
    responses: { 201: { description: 'Created', schema: Component, headers: { ...ETAG, location: { description: 'URL of the new component' } } } },
    handler: async ({ body, services }) => {
      const component = await services.storage.components.create(body)
      const reply = created(component, `/api/components/${component.id}`)
      reply.headers.etag = etag(component.version)
      return reply
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/next-ipn',
    group: 'components',
    operationId: 'getNextIpn',
    permission: 'library:read',
    summary: 'The next free internal part number',
    query: NextIpnQuery,
    responses: { 200: { description: 'The ipn', schema: NextIpn } },
    handler: async ({ query, services }) => ({ ipn: await services.storage.components.nextIpn(query.prefix) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/changes',
    group: 'components',
    operationId: 'listComponentChanges',
    permission: 'library:read',
    summary: 'Change feed: what changed since a sequence number',
    description: 'Every create, update, delete, restore and purge, oldest first. Poll with `since` set to the last `lastSeq` you received.',
    query: ComponentChangesQuery,
    responses: { 200: { description: 'Changes', schema: ComponentChanges } },
    handler: async ({ query, services }) => {
      const { items, lastSeq } = await services.storage.components.changes(query.since, query.limit)
      return { changes: items, lastSeq }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/by-ipn/{ipn}',
    group: 'components',
    operationId: 'getComponentByIpn',
    permission: 'library:read',
    summary: 'Get a component by internal part number',
    params: z.object({ ipn: Ipn }),
    responses: { 200: one('The component') },
    handler: async ({ params, services }) => _withEtag(await services.storage.components.getByIpn(params.ipn)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/{id}',
    group: 'components',
    operationId: 'getComponent',
    permission: 'library:read',
    summary: 'Get a component',
    params: IdParams,
    query: ComponentGetQuery,
    responses: { 200: one('The component') },
    handler: async ({ params, query, services }) => {
      // The stored JSON's bytes as is: the most frequent read parses, serializes and encodes nothing.
      const { json, version } = await services.storage.components.getJson(params.id, query)
      return jsonResponse(json, 200, { etag: etag(version) })
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/components/{id}',
    group: 'components',
    operationId: 'patchComponent',
    permission: 'library:write',
    ifMatch: true,
    summary: 'Change fields of a component',
    description:
      'JSON merge patch of the listed fields: absent fields stay, `null` clears `description` or `category`, arrays replace. A status change must follow the lifecycle (409 otherwise). With `If-Match`, a stale version is a 412.',
    params: IdParams,
    body: ComponentPatch,
    errors: ['CONFLICT', 'INVALID_TRANSITION', 'PRECONDITION_FAILED'],
    responses: { 200: one('The changed component') },
    handler: async ({ params, body, services, event }) =>
      _withEtag(await services.storage.components.update(params.id, body, { ifVersion: ifMatchVersion(event.req) })),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/components/{id}',
    group: 'components',
    operationId: 'deleteComponent',
    permission: 'library:write',
    ifMatch: true,
    summary: 'Delete a component (soft: it can be restored)',
    params: IdParams,
    errors: ['PRECONDITION_FAILED'],
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services, event }) => {
      await services.storage.components.delete(params.id, { ifVersion: ifMatchVersion(event.req) })
      return noContent()
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/components/{id}/restore',
    group: 'components',
    operationId: 'restoreComponent',
    permission: 'library:write',
    summary: 'Bring a deleted component back',
    params: IdParams,
    errors: ['CONFLICT'],
    responses: { 200: one('The restored component') },
    handler: async ({ params, services }) => _withEtag(await services.storage.components.restore(params.id)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/components/{id}/duplicate',
    group: 'components',
    operationId: 'duplicateComponent',
    permission: 'library:write',
    summary: 'Copy a component',
    description: 'The copy starts as `draft`, named `<name> (copy)` unless given, with a new ipn; MPNs, stock and attachments are not copied.',
    params: IdParams,
    body: ComponentDuplicate,
    errors: ['CONFLICT'],
    responses: { 201: { description: 'The copy', schema: Component, headers: { location: { description: 'URL of the copy' } } } },
    handler: async ({ params, body, services }) => {
      const copy = await services.storage.components.duplicate(params.id, body)
      return created(copy, `/api/components/${copy.id}`)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/{id}/history',
    group: 'components',
    operationId: 'getComponentHistory',
    permission: 'library:read',
    summary: 'Every version of a component, newest first',
    params: IdParams,
    query: PageQuery,
    responses: { 200: { description: 'History entries', schema: z.array(ComponentHistoryEntry), headers: PAGE_HEADERS } },
    handler: async ({ params, query, services, url }) => {
      const page = await services.storage.components.history(params.id, query)
      return withHeaders(page.items, pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/components/{id}/revert',
    group: 'components',
    operationId: 'revertComponent',
    permission: 'library:write',
    ifMatch: true,
    summary: 'Make a component what it was at an earlier version',
    description:
      'Its fields (not its attachments or stock) become those of `version`, as a new version whose history entry says `revertedTo`, ' +
      'with who did it and the `Complib-Comment` sent. When that state cannot be made again (its ipn taken since, a symbol deleted since) ' +
      'the answer is a 409 naming the field, and nothing changes.',
    params: IdParams,
    body: ComponentRevert,
    errors: ['CONFLICT', 'INVALID_TRANSITION', 'PRECONDITION_FAILED'],
    responses: { 200: { description: 'The component, at its new version', schema: Component, headers: { etag: { description: 'The new version' } } } },
    handler: async ({ params, body, services, event }) => _withEtag(await services.storage.components.revert(params.id, body.version, { ifVersion: ifMatchVersion(event.req) })),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/components/{id}/purge',
    group: 'components',
    operationId: 'purgeComponent',
    permission: 'library:write',
    summary: 'Delete a component for good, with its history',
    params: IdParams,
    responses: { 204: { description: 'Purged' } },
    handler: async ({ params, services }) => {
      await services.storage.components.purge(params.id)
      return noContent()
    },
  }),
]

function _withEtag(component: Component) {
  return withHeaders(component, { etag: etag(component.version) })
}
