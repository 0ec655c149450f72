import { defineRoute, type AnyRoute } from '../routing/define-route'
import { buildOpenApiDocument } from '../routing/openapi'
import { jsonResponse } from '../routing/reply'

/**
 * `GET /api/docs`: the OpenAPI 3.1 document of `routes` (itself included),
 * generated once from the route objects.
 */
export function docsRoutes(routes: readonly AnyRoute[]): AnyRoute[] {
  let document: string | undefined
  const docs: AnyRoute = defineRoute({
    method: 'GET',
    path: '/api/docs',
    group: 'system',
    operationId: 'getOpenApiDocument',
    permission: 'account',
    summary: 'The OpenAPI 3.1 document of this API',
    responses: { 200: { description: 'OpenAPI 3.1 document', contentType: 'application/json' } },
    // The document has no schema of its own to check a value against: its text is the answer.
    handler: () => jsonResponse((document ??= JSON.stringify(buildOpenApiDocument([...routes, docs])))),
  })
  return [docs]
}
