import { Component, Footprint, FootprintCreate, FootprintPatch, LibraryItemListQuery, PageQuery, QueryBoolean, Symbol, SymbolCreate, SymbolPatch, idSchema } from '@complib/core'
import * as z from 'zod'
import { downloadHeaders } from '../http/download-headers'
import { attachmentDisposition } from '../routing/content-disposition'
import { defineRoute, type AnyRoute } from '../routing/define-route'
import { PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { created, etag, noContent, withHeaders } from '../routing/reply'
import { ifMatchVersion } from '../routing/request'

const KINDS = {
  symbol: { group: 'symbols', plural: 'symbols', title: 'Symbol', record: Symbol, create: SymbolCreate, patch: SymbolPatch, mime: 'application/x-kicad-symbol' },
  footprint: { group: 'footprints', plural: 'footprints', title: 'Footprint', record: Footprint, create: FootprintCreate, patch: FootprintPatch, mime: 'application/x-kicad-footprint' },
} as const

/** The nine routes of symbols or footprints: one shape, two groups. */
function libraryItemGroup(kind: 'symbol' | 'footprint'): AnyRoute[] {
  const k = KINDS[kind]
  const store = (services: { storage: { symbols: unknown; footprints: unknown } }) =>
    services.storage[k.plural] as import('@complib/core').LibraryItemStore<Symbol>
  const Params = z.object({ id: idSchema(kind) })
  const LinkParams = z.object({ id: idSchema('component'), itemId: idSchema(kind) })
  const base = `/api/${k.plural}`
  const linkPath = `/api/components/{id}/${k.plural}/{itemId}`
  return [
    defineRoute({
      method: 'GET',
      path: base,
      group: k.group,
      operationId: `list${k.title}s`,
      permission: 'library:read',
      summary: `List ${k.plural}`,
      query: LibraryItemListQuery,
      responses: { 200: { description: k.title + 's, by name', schema: z.array(k.record), headers: PAGE_HEADERS } },
      handler: async ({ query, services, url }) => {
        const page = await store(services).list(query)
        return withHeaders(page.items, pageHeaders(url, page))
      },
    }),
    defineRoute({
      method: 'POST',
      path: base,
      group: k.group,
      operationId: `create${k.title}`,
      permission: 'library:write',
      summary: `Create a ${kind}, optionally with its file as text`,
      body: k.create,
      bodyLimit: 5 * 1024 * 1024,
      responses: { 201: { description: 'Created', schema: k.record, headers: { location: { description: `URL of the ${kind}` } } } },
      handler: async ({ body, services }) => {
        const item = await store(services).create(body)
        return created(item, `${base}/${item.id}`)
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/{id}`,
      group: k.group,
      operationId: `get${k.title}`,
      permission: 'library:read',
      summary: `Get a ${kind}`,
      params: Params,
      responses: { 200: { description: `The ${kind}`, schema: k.record } },
      handler: async ({ params, services }) => {
        const item = await store(services).get(params.id)
        return withHeaders(item, { etag: etag(item.version) })
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: `${base}/{id}`,
      group: k.group,
      operationId: `patch${k.title}`,
      permission: 'library:write',
      ifMatch: true,
      summary: `Change a ${kind}`,
      params: Params,
      body: k.patch,
      bodyLimit: 5 * 1024 * 1024,
      errors: ['PRECONDITION_FAILED'],
      responses: { 200: { description: `The ${kind}`, schema: k.record } },
      handler: async ({ params, body, services, event }) => store(services).update(params.id, body, { ifVersion: ifMatchVersion(event.req) }),
    }),
    defineRoute({
      method: 'DELETE',
      path: `${base}/{id}`,
      group: k.group,
      operationId: `delete${k.title}`,
      permission: 'library:write',
      ifMatch: true,
      summary: `Delete a ${kind}`,
      description: `409 while components link to it, unless \`force=true\` (the links go too).`,
      params: Params,
      query: z.object({ force: QueryBoolean }),
      errors: ['CONFLICT', 'PRECONDITION_FAILED'],
      responses: { 204: { description: 'Deleted' } },
      handler: async ({ params, query, services, event }) => {
        await store(services).delete(params.id, { force: query.force, ifVersion: ifMatchVersion(event.req) })
        return noContent()
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/{id}/components`,
      group: k.group,
      operationId: `list${k.title}Components`,
      permission: 'library:read',
      summary: `Components linking to a ${kind}`,
      params: Params,
      query: PageQuery,
      responses: { 200: { description: 'Components', schema: z.array(Component), headers: PAGE_HEADERS } },
      handler: async ({ params, query, services, url }) => {
        const page = await store(services).components(params.id, query)
        return withHeaders(page.items, pageHeaders(url, page))
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/{id}/file`,
      group: k.group,
      operationId: `get${k.title}File`,
      permission: 'library:read',
      summary: `Download the ${kind} file`,
      params: Params,
      responses: { 200: { description: 'The file', contentType: k.mime } },
      handler: async ({ params, services }) => {
        const file = await store(services).getFile(params.id)
        return new Response(file.content, { headers: downloadHeaders(`${k.mime}; charset=utf-8`, attachmentDisposition(file.fileName)) })
      },
    }),
    defineRoute({
      method: 'PUT',
      path: linkPath,
      group: k.group,
      operationId: `link${k.title}`,
      permission: 'library:write',
      summary: `Link a ${kind} to a component (idempotent)`,
      params: LinkParams,
      responses: { 200: { description: 'The component', schema: Component } },
      handler: ({ params, services }) => store(services).link(params.id, params.itemId),
    }),
    defineRoute({
      method: 'DELETE',
      path: linkPath,
      group: k.group,
      operationId: `unlink${k.title}`,
      permission: 'library:write',
      summary: `Unlink a ${kind} from a component`,
      params: LinkParams,
      responses: { 200: { description: 'The component', schema: Component } },
      handler: ({ params, services }) => store(services).unlink(params.id, params.itemId),
    }),
  ]
}

export const libraryItemRoutes: AnyRoute[] = [...libraryItemGroup('symbol'), ...libraryItemGroup('footprint')]
