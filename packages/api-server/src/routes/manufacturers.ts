import { Manufacturer, ManufacturerCreate, ManufacturerListQuery, ManufacturerMerge, ManufacturerPatch, idSchema } from '@complib/core'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'
import { PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { created, noContent, withHeaders } from '../routing/reply'
import { ifMatchVersion } from '../routing/request'

const Params = z.object({ id: idSchema('manufacturer') })

export const manufacturerRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/manufacturers',
    group: 'manufacturers',
    operationId: 'listManufacturers',
    permission: 'library:read',
    summary: 'List manufacturers, by name, with part counts',
    query: ManufacturerListQuery,
    responses: { 200: { description: 'Manufacturers', schema: z.array(Manufacturer), headers: PAGE_HEADERS } },
    handler: async ({ query, services, url }) => {
      const page = await services.storage.manufacturers.list(query)
      return withHeaders(page.items, pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/manufacturers',
    group: 'manufacturers',
    operationId: 'createManufacturer',
    permission: 'library:write',
    summary: 'Create a manufacturer',
    body: ManufacturerCreate,
    errors: ['CONFLICT'],
    responses: { 201: { description: 'Created', schema: Manufacturer, headers: { location: { description: 'URL of the manufacturer' } } } },
    handler: async ({ body, services }) => {
      const m = await services.storage.manufacturers.create(body)
      return created(m, `/api/manufacturers/${m.id}`)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/manufacturers/{id}',
    group: 'manufacturers',
    operationId: 'getManufacturer',
    permission: 'library:read',
    summary: 'Get a manufacturer',
    params: Params,
    responses: { 200: { description: 'The manufacturer', schema: Manufacturer } },
    handler: ({ params, services }) => services.storage.manufacturers.get(params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/manufacturers/{id}',
    group: 'manufacturers',
    operationId: 'patchManufacturer',
    permission: 'library:write',
    ifMatch: true,
    summary: 'Change a manufacturer (a rename shows in every component using it)',
    params: Params,
    body: ManufacturerPatch,
    errors: ['CONFLICT', 'PRECONDITION_FAILED'],
    responses: { 200: { description: 'The manufacturer', schema: Manufacturer } },
    handler: ({ params, body, services, event }) => services.storage.manufacturers.update(params.id, body, { ifVersion: ifMatchVersion(event.req) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/manufacturers/{id}',
    group: 'manufacturers',
    operationId: 'deleteManufacturer',
    permission: 'library:write',
    summary: 'Delete a manufacturer no MPN uses (merge it otherwise)',
    params: Params,
    errors: ['CONFLICT'],
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services }) => {
      await services.storage.manufacturers.delete(params.id)
      return noContent()
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/manufacturers/{id}/merge',
    group: 'manufacturers',
    operationId: 'mergeManufacturers',
    permission: 'library:write',
    summary: 'Fold other manufacturers into this one',
    description: 'Their MPNs move here (duplicates drop), their names become aliases, and they are deleted.',
    params: Params,
    body: ManufacturerMerge,
    responses: { 200: { description: 'The merged manufacturer', schema: Manufacturer } },
    handler: ({ params, body, services }) => services.storage.manufacturers.merge(params.id, body.sourceIds),
  }),
]
