import {
  Parameter,
  ParameterCreate,
  ParameterPatch,
  ParameterReport,
  ParameterReportQuery,
  ParameterType,
  ParameterTypeCreate,
  ParameterTypeListQuery,
  ParameterTypePatch,
  idSchema,
} from '@complib/core'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'
import { PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { created, noContent, withHeaders } from '../routing/reply'
import { ifMatchVersion } from '../routing/request'

const TypeParams = z.object({ id: idSchema('parameterType') })
const Params = z.object({ id: idSchema('parameter') })
const ComponentParams = z.object({ id: idSchema('component') })

export const parameterRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/parameter-types',
    group: 'parameters',
    operationId: 'listParameterTypes',
    permission: 'library:read',
    summary: 'List parameter types',
    query: ParameterTypeListQuery,
    responses: { 200: { description: 'Parameter types, by name', schema: z.array(ParameterType), headers: PAGE_HEADERS } },
    handler: async ({ query, services, url }) => {
      const page = await services.storage.parameterTypes.list(query)
      return withHeaders(page.items, pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/parameter-types',
    group: 'parameters',
    operationId: 'createParameterType',
    permission: 'library:write',
    summary: 'Create a parameter type',
    body: ParameterTypeCreate,
    errors: ['CONFLICT'],
    responses: { 201: { description: 'Created', schema: ParameterType, headers: { location: { description: 'URL of the parameter type' } } } },
    handler: async ({ body, services }) => {
      const t = await services.storage.parameterTypes.create(body)
      return created(t, `/api/parameter-types/${t.id}`)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/parameter-types/report',
    group: 'parameters',
    operationId: 'parameterReport',
    permission: 'library:read',
    summary: 'Values that do not conform to their parameter type, and components lacking a parameter their category requires (decision 0442)',
    query: ParameterReportQuery,
    responses: { 200: { description: 'Both lists, each cut at `limit`, with their totals', schema: ParameterReport } },
    handler: ({ query, services }) => services.storage.parameterTypes.report(query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/parameter-types/{id}',
    group: 'parameters',
    operationId: 'getParameterType',
    permission: 'library:read',
    summary: 'Get a parameter type',
    params: TypeParams,
    responses: { 200: { description: 'The parameter type', schema: ParameterType } },
    handler: ({ params, services }) => services.storage.parameterTypes.get(params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/parameter-types/{id}',
    group: 'parameters',
    operationId: 'patchParameterType',
    permission: 'library:write',
    ifMatch: true,
    summary: 'Change a parameter type',
    params: TypeParams,
    body: ParameterTypePatch,
    errors: ['CONFLICT', 'PRECONDITION_FAILED'],
    responses: { 200: { description: 'The parameter type', schema: ParameterType } },
    handler: ({ params, body, services, event }) => services.storage.parameterTypes.update(params.id, body, { ifVersion: ifMatchVersion(event.req) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/parameter-types/{id}',
    group: 'parameters',
    operationId: 'deleteParameterType',
    permission: 'library:write',
    summary: 'Delete a parameter type (parameters keep their values); refused while a category\'s template uses it',
    params: TypeParams,
    errors: ['CONFLICT'],
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services }) => {
      await services.storage.parameterTypes.delete(params.id)
      return noContent()
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/{id}/parameters',
    group: 'parameters',
    operationId: 'listComponentParameters',
    permission: 'library:read',
    summary: 'Parameters of a component, with their numeric values',
    params: ComponentParams,
    responses: { 200: { description: 'Parameters in order', schema: z.array(Parameter) } },
    handler: ({ params, services }) => services.storage.parameters.listForComponent(params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/components/{id}/parameters',
    group: 'parameters',
    operationId: 'addComponentParameter',
    permission: 'library:write',
    summary: 'Add a parameter to a component',
    params: ComponentParams,
    body: ParameterCreate,
    responses: { 201: { description: 'Created', schema: Parameter, headers: { location: { description: 'URL of the parameter' } } } },
    handler: async ({ params, body, services }) => {
      const p = await services.storage.parameters.add(params.id, body)
      return created(p, `/api/parameters/${p.id}`)
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/components/{id}/parameters',
    group: 'parameters',
    operationId: 'replaceComponentParameters',
    permission: 'library:write',
    summary: 'Replace all parameters of a component',
    params: ComponentParams,
    body: z.array(ParameterCreate).max(200),
    responses: { 200: { description: 'The new parameters', schema: z.array(Parameter) } },
    handler: ({ params, body, services }) => services.storage.parameters.replace(params.id, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/parameters/{id}',
    group: 'parameters',
    operationId: 'patchParameter',
    permission: 'library:write',
    ifMatch: true,
    summary: 'Change a parameter',
    params: Params,
    body: ParameterPatch,
    errors: ['PRECONDITION_FAILED'],
    responses: { 200: { description: 'The parameter', schema: Parameter } },
    handler: ({ params, body, services, event }) => services.storage.parameters.update(params.id, body, { ifVersion: ifMatchVersion(event.req) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/parameters/{id}',
    group: 'parameters',
    operationId: 'deleteParameter',
    permission: 'library:write',
    summary: 'Remove a parameter from its component (refused while its category requires it)',
    params: Params,
    errors: ['CONFLICT'],
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services }) => {
      await services.storage.parameters.delete(params.id)
      return noContent()
    },
  }),
]
