import { SavedView, SavedViewCreate, SavedViewPatch, idSchema } from '@complib/core'
import * as z from 'zod'
import type { Principal } from '../auth/principal'
import { defineRoute } from '../routing/define-route'
import { created, etag, noContent, withHeaders } from '../routing/reply'
import { ifMatchVersion } from '../routing/request'

// Saved views of the library table (decision 1508): whoever may read the
// library keeps views of their own; another's view answers 404.

const Params = z.object({ id: idSchema('savedView') })
const ETAG = { etag: { description: 'The view\'s version; send it back as If-Match to change it safely' } }

/** The owner of the caller's views: their account, or, without one (loopback open mode, the API key), a fixed owner per kind of caller. */
export function viewOwner(principal: Principal): string {
  return principal.user?.id ?? principal.actor.kind
}

export const viewRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/views',
    group: 'views',
    operationId: 'listViews',
    permission: 'library:read',
    summary: 'Your saved views, by name',
    responses: { 200: { description: 'The views', schema: z.array(SavedView) } },
    handler: async ({ services, auth }) => await services.storage.savedViews.list(viewOwner(auth.principal)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/views',
    group: 'views',
    operationId: 'createView',
    permission: 'library:read',
    summary: 'Save a view of the library table',
    description: 'The state is the web\'s (filters, columns, sort), stored as sent: a JSON object of at most 16 KiB. A name is unique among your views, case-insensitively (409).',
    body: SavedViewCreate,
    errors: ['CONFLICT'],
    responses: { 201: { description: 'Saved', schema: SavedView, headers: { ...ETAG, location: { description: 'URL of the view' } } } },
    handler: async ({ body, services, auth }) => {
      const view = await services.storage.savedViews.create(viewOwner(auth.principal), body)
      const reply = created(view, `/api/views/${view.id}`)
      reply.headers.etag = etag(view.version)
      return reply
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/views/{id}',
    group: 'views',
    operationId: 'patchView',
    permission: 'library:read',
    ifMatch: true,
    summary: 'Rename a saved view or replace its state',
    params: Params,
    body: SavedViewPatch,
    errors: ['CONFLICT', 'PRECONDITION_FAILED'],
    responses: { 200: { description: 'The view', schema: SavedView, headers: ETAG } },
    handler: async ({ params, body, services, auth, event }) => {
      const view = await services.storage.savedViews.update(viewOwner(auth.principal), params.id, body, { ifVersion: ifMatchVersion(event.req) })
      return withHeaders(view, { etag: etag(view.version) })
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/views/{id}',
    group: 'views',
    operationId: 'deleteView',
    permission: 'library:read',
    summary: 'Delete a saved view',
    params: Params,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services, auth }) => {
      await services.storage.savedViews.delete(viewOwner(auth.principal), params.id)
      return noContent()
    },
  }),
]
