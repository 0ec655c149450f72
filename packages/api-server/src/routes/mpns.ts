import { Mpn, MpnCreate, MpnListQuery, MpnPatch, MpnResolveRequest, MpnResolveResult, idSchema } from '@complib/core'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'
import { PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { created, noContent, withHeaders } from '../routing/reply'
import { ifMatchVersion } from '../routing/request'

const Params = z.object({ id: idSchema('mpn') })
const ComponentParams = z.object({ id: idSchema('component') })

export const mpnRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/mpns',
    group: 'mpns',
    operationId: 'listMpns',
    permission: 'library:read',
    summary: 'List manufacturer part numbers of live components',
    query: MpnListQuery,
    responses: { 200: { description: 'MPNs', schema: z.array(Mpn), headers: PAGE_HEADERS } },
    handler: async ({ query, services, url }) => {
      const page = await services.storage.mpns.list(query)
      return withHeaders(page.items, pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/{id}/mpns',
    group: 'mpns',
    operationId: 'listComponentMpns',
    permission: 'library:read',
    summary: 'MPNs of a component',
    params: ComponentParams,
    responses: { 200: { description: 'MPNs in order', schema: z.array(Mpn) } },
    handler: ({ params, services }) => services.storage.mpns.listForComponent(params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/components/{id}/mpns',
    group: 'mpns',
    operationId: 'addComponentMpn',
    permission: 'library:write',
    summary: 'Add an MPN to a component (the manufacturer is created when new)',
    params: ComponentParams,
    body: MpnCreate,
    errors: ['CONFLICT'],
    responses: { 201: { description: 'Created', schema: Mpn, headers: { location: { description: 'URL of the MPN' } } } },
    handler: async ({ params, body, services }) => {
      const mpn = await services.storage.mpns.create(params.id, body)
      return created(mpn, `/api/mpns/${mpn.id}`)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/mpns/{id}',
    group: 'mpns',
    operationId: 'getMpn',
    permission: 'library:read',
    summary: 'Get an MPN',
    params: Params,
    responses: { 200: { description: 'The MPN', schema: Mpn } },
    handler: ({ params, services }) => services.storage.mpns.get(params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/mpns/{id}',
    group: 'mpns',
    operationId: 'patchMpn',
    permission: 'library:write',
    ifMatch: true,
    summary: 'Change an MPN',
    params: Params,
    body: MpnPatch,
    errors: ['CONFLICT', 'PRECONDITION_FAILED'],
    responses: { 200: { description: 'The MPN', schema: Mpn } },
    handler: ({ params, body, services, event }) => services.storage.mpns.update(params.id, body, { ifVersion: ifMatchVersion(event.req) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/mpns/{id}',
    group: 'mpns',
    operationId: 'deleteMpn',
    permission: 'library:write',
    summary: 'Remove an MPN from its component',
    params: Params,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services }) => {
      await services.storage.mpns.delete(params.id)
      return noContent()
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/mpns/resolve',
    group: 'mpns',
    operationId: 'resolveMpns',
    permission: 'library:read',
    // Changes nothing: not an entry of the audit trail.
    audit: false,
    summary: 'BOM lookup: which components have these part numbers',
    description: 'Up to 5,000 lines; case-insensitive; a manufacturer (name or alias) narrows a line. Answers in input order.',
    body: MpnResolveRequest,
    responses: { 200: { description: 'One result per line', schema: z.array(MpnResolveResult) } },
    handler: ({ body, services }) => services.storage.mpns.resolve(body.items),
  }),
]
