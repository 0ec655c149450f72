import { Location, LocationCreate, LocationListQuery, LocationPatch, LocationTreeNode, StockAdjust, StockEntry, StockMove, StockMoveResult, StockSet, idSchema } from '@complib/core'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'
import { PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { created, noContent, withHeaders } from '../routing/reply'
import { ifMatchVersion } from '../routing/request'

const Params = z.object({ id: idSchema('location') })
const ComponentParams = z.object({ id: idSchema('component') })

export const locationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/locations',
    group: 'locations',
    operationId: 'listLocations',
    permission: 'library:read',
    summary: 'List stock locations, by name',
    description: '`parentId=root` lists the top level; a location id lists its children.',
    query: LocationListQuery,
    responses: { 200: { description: 'Locations', schema: z.array(Location), headers: PAGE_HEADERS } },
    handler: async ({ query, services, url }) => {
      const parentId = query.parentId === 'root' ? null : query.parentId
      const page = await services.storage.locations.list({ q: query.q, parentId, cursor: query.cursor, limit: query.limit })
      return withHeaders(page.items, pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/locations/tree',
    group: 'locations',
    operationId: 'getLocationTree',
    permission: 'library:read',
    summary: 'Every location, nested',
    responses: { 200: { description: 'Top-level locations with their children', schema: z.array(LocationTreeNode) } },
    handler: ({ services }) => services.storage.locations.tree(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/locations',
    group: 'locations',
    operationId: 'createLocation',
    permission: 'library:write',
    summary: 'Create a location',
    body: LocationCreate,
    errors: ['CONFLICT'],
    responses: { 201: { description: 'Created', schema: Location, headers: { location: { description: 'URL of the location' } } } },
    handler: async ({ body, services }) => {
      const l = await services.storage.locations.create(body)
      return created(l, `/api/locations/${l.id}`)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/locations/{id}',
    group: 'locations',
    operationId: 'getLocation',
    permission: 'library:read',
    summary: 'Get a location',
    params: Params,
    responses: { 200: { description: 'The location', schema: Location } },
    handler: ({ params, services }) => services.storage.locations.get(params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/locations/{id}',
    group: 'locations',
    operationId: 'patchLocation',
    permission: 'library:write',
    ifMatch: true,
    summary: 'Rename or move a location',
    params: Params,
    body: LocationPatch,
    errors: ['CONFLICT', 'PRECONDITION_FAILED'],
    responses: { 200: { description: 'The location', schema: Location } },
    handler: ({ params, body, services, event }) => services.storage.locations.update(params.id, body, { ifVersion: ifMatchVersion(event.req) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/locations/{id}',
    group: 'locations',
    operationId: 'deleteLocation',
    permission: 'library:write',
    summary: 'Delete an empty location (no children, no stock)',
    params: Params,
    errors: ['CONFLICT'],
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services }) => {
      await services.storage.locations.delete(params.id)
      return noContent()
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/{id}/locations',
    group: 'locations',
    operationId: 'listComponentLocations',
    permission: 'library:read',
    summary: 'Where a component is stocked, and how many',
    params: ComponentParams,
    responses: { 200: { description: 'Stock entries, by location path', schema: z.array(StockEntry) } },
    handler: ({ params, services }) => services.storage.locations.stockForComponent(params.id),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/components/{id}/locations/{locationId}',
    group: 'locations',
    operationId: 'setComponentStock',
    permission: 'library:write',
    summary: 'Set the quantity of a component in a location (0 removes it)',
    params: z.object({ id: idSchema('component'), locationId: idSchema('location') }),
    body: StockSet,
    responses: { 200: { description: 'The stock entry', schema: StockEntry } },
    handler: ({ params, body, services }) => services.storage.locations.setStock(params.id, params.locationId, body.quantity),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/stock/adjust',
    group: 'locations',
    operationId: 'adjustStock',
    permission: 'library:write',
    summary: 'Add to or take from stock (never below zero)',
    body: StockAdjust,
    errors: ['CONFLICT', 'NOT_FOUND'],
    responses: { 200: { description: 'The stock entry', schema: StockEntry } },
    handler: ({ body, services }) => services.storage.locations.adjust(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/stock/move',
    group: 'locations',
    operationId: 'moveStock',
    permission: 'library:write',
    summary: 'Move a quantity of a component between locations',
    body: StockMove,
    errors: ['CONFLICT', 'NOT_FOUND'],
    responses: { 200: { description: 'Both entries after the move', schema: StockMoveResult } },
    handler: ({ body, services }) => services.storage.locations.move(body),
  }),
]
