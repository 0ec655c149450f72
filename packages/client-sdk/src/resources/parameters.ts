import type {
  Page,
  Parameter,
  ParameterCreate,
  ParameterPatch,
  ParameterReport,
  ParameterReportQuery,
  ParameterType,
  ParameterTypeCreate,
  ParameterTypeListQuery,
  ParameterTypePatch,
} from '@complib/core'
import { iteratePages, readPage } from '../_internal/paging'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions, IterateQueryOf, QueryOf } from '../_internal/types'

/** `client.parameterTypes`: kinds of parameter (`Resistance`, …) with their unit, kind, choices and limits. */
export function createParameterTypesResource(t: Transport) {
  return {
    list: (query: QueryOf<typeof ParameterTypeListQuery> = {}): Promise<Page<ParameterType>> => readPage(t, '/parameter-types', query),
    iterate: (query: IterateQueryOf<typeof ParameterTypeListQuery> = {}): AsyncGenerator<ParameterType, void, undefined> => iteratePages(t, '/parameter-types', query),
    get: (id: string): Promise<ParameterType> => t.call('GET', path`/parameter-types/${id}`),
    create: (body: ParameterTypeCreate): Promise<ParameterType> => t.call('POST', '/parameter-types', { body }),
    patch: (id: string, body: ParameterTypePatch, options: IfMatchOptions = {}): Promise<ParameterType> =>
      t.call('PATCH', path`/parameter-types/${id}`, { body, ifMatch: options.ifMatch }),
    /** Refused (ConflictError) while a category's template uses it. */
    delete: (id: string): Promise<void> => t.call('DELETE', path`/parameter-types/${id}`),
    /** Values that do not conform to their type, and components lacking a parameter their category requires; each list cut at `limit`, with its total. */
    report: (query: QueryOf<typeof ParameterReportQuery> = {}): Promise<ParameterReport> => t.call('GET', '/parameter-types/report', { query }),
  }
}

/** `client.parameters`: the parameters of components, as records. */
export function createParametersResource(t: Transport) {
  return {
    forComponent: (componentId: string): Promise<Parameter[]> => t.call('GET', path`/components/${componentId}/parameters`),
    add: (componentId: string, body: ParameterCreate): Promise<Parameter> => t.call('POST', path`/components/${componentId}/parameters`, { body }),
    /** Replaces every parameter of the component. */
    replace: (componentId: string, body: ParameterCreate[]): Promise<Parameter[]> => t.call('PUT', path`/components/${componentId}/parameters`, { body }),
    patch: (id: string, body: ParameterPatch, options: IfMatchOptions = {}): Promise<Parameter> => t.call('PATCH', path`/parameters/${id}`, { body, ifMatch: options.ifMatch }),
    delete: (id: string): Promise<void> => t.call('DELETE', path`/parameters/${id}`),
  }
}

export type ParameterTypesResource = ReturnType<typeof createParameterTypesResource>
export type ParametersResource = ReturnType<typeof createParametersResource>
