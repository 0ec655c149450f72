import { ERROR_STATUS, Problem, type ErrorCode } from '@complib/core'
import * as z from 'zod'
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi'
import { APP_VERSION } from '../version'
import { GROUPS, type AnyRoute } from './define-route'
import { PERMISSIONS, rolesWith } from '../auth/permissions'

/**
 * The OpenAPI 3.1 document, generated from the same route objects that
 * validate requests: one operation per route, one tag per group.
 */
export function buildOpenApiDocument(routes: readonly AnyRoute[]): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {}
  for (const route of routes) {
    const item = (paths[route.path] ??= {})
    item[route.method.toLowerCase() as 'get'] = _operation(route)
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'complib API',
      version: APP_VERSION,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'A local service over a library of electronic components. Errors are RFC 9457 application/problem+json. ' +
        'Credentials: on loopback with no account, none are needed (one person’s laptop); once an account exists, or off loopback, ' +
        'every operation but health and sign-in needs one: a token or the API key as `Authorization: Bearer <token>` (or `Token <token>`), ' +
        'or the session cookie of a sign-in. Each operation says the permission it needs (`x-permission`) and which roles hold it.',
    },
    // Relative: the document describes the server it is served by (the paths carry /api).
    servers: [{ url: '/', description: 'This complib server' }],
    tags: Object.entries(GROUPS).map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token (`clt_…`, POST /api/tokens) or the server’s API key; `Token <token>` is accepted too' },
        session: { type: 'apiKey', in: 'cookie', name: 'complib_session', description: 'The session a sign-in starts (POST /api/auth/login)' },
      },
    },
    security: [{ bearer: [] }, { session: [] }],
    paths,
  })
}

function _operation(route: AnyRoute): ZodOpenApiOperationObject {
  const responses: ZodOpenApiResponsesObject = {}
  for (const [status, spec] of Object.entries(route.responses)) {
    responses[status as '200'] = {
      description: spec.description,
      ...(spec.headers ? { headers: _headers(spec.headers) } : {}),
      ...(spec.schema ? { content: { [spec.contentType ?? 'application/json']: { schema: spec.schema } } } : spec.contentType ? { content: { [spec.contentType]: {} } } : {}),
    }
  }
  for (const code of _errorCodes(route)) {
    const status = String(ERROR_STATUS[code]) as '400'
    responses[status] ??= { description: _errorDescription(code), content: { 'application/problem+json': { schema: Problem } } }
  }
  const notes = [route.description, route.method === 'PATCH' ? MERGE_PATCH_NOTE : undefined, _permissionNote(route)]
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: notes.filter(Boolean).join('\n\n'),
    tags: [route.group],
    // Who may call it, read by tools and by the test that walks every operation with every role.
    'x-permission': route.permission,
    ...(route.permission === 'public' ? { security: [] } : {}),
    ...(route.params || route.query || route.ifMatch
      ? {
          requestParams: {
            ...(route.params ? { path: route.params } : {}),
            ...(route.query ? { query: route.query } : {}),
            ...(route.ifMatch ? { header: IF_MATCH } : {}),
          },
        }
      : {}),
    ...(route.body ? { requestBody: { required: true, content: _bodyContent(route) } } : {}),
    ...(route.rawBody
      ? {
          requestBody: {
            required: true,
            description: route.rawBody.description,
            content: Object.fromEntries(Object.entries(route.rawBody.content).map(([type, media]) => [type, media.schema ? { schema: media.schema } : {}])),
          },
        }
      : {}),
    responses,
  }
}

/** The `If-Match` header of the operations that honour it: a generated client gets a typed way to send it. */
const IF_MATCH = z.object({
  'if-match': z
    .string()
    .optional()
    .meta({ description: 'The ETag of the version you read, e.g. `"3"`: the change applies only to that version, else 412', example: '"3"' }),
})

const MERGE_PATCH_NOTE =
  'The body is a JSON merge patch (RFC 7396): members left out stay as they are, `null` clears a member, ' +
  'nested objects merge member by member, and arrays replace. Sent as `application/json` or `application/merge-patch+json`.'

/** JSON bodies; a PATCH also as `application/merge-patch+json`, which is what it is. */
function _bodyContent(route: AnyRoute) {
  const json = { schema: route.body! }
  return route.method === 'PATCH' ? { 'application/json': json, 'application/merge-patch+json': json } : { 'application/json': json }
}

function _headers(headers: Record<string, { description: string }>) {
  return Object.fromEntries(
    Object.entries(headers).map(([name, h]) => [name, { description: h.description, schema: { type: name === 'x-total-count' ? ('integer' as const) : ('string' as const) } }]),
  )
}

function _errorCodes(route: AnyRoute): ErrorCode[] {
  // Every route refuses unknown query parameters (400); every one that needs a credential, a missing one (401) and too few rights (403).
  const codes = new Set<ErrorCode>(['VALIDATION_FAILED', ...(route.permission === 'public' ? [] : (['UNAUTHORIZED', 'FORBIDDEN'] as const)), ...(route.errors ?? [])])
  if (route.params) codes.add('NOT_FOUND')
  if (route.ifMatch) codes.add('PRECONDITION_FAILED')
  if (route.body || route.rawBody) {
    codes.add('PAYLOAD_TOO_LARGE')
    codes.add('UNSUPPORTED_MEDIA_TYPE')
  }
  // Any write may meet a full data folder, and is refused from a page of another origin.
  if (route.method !== 'GET') {
    codes.add('INSUFFICIENT_STORAGE')
    codes.add('FORBIDDEN')
  }
  return [...codes]
}

function _errorDescription(code: ErrorCode): string {
  switch (ERROR_STATUS[code]) {
    case 400:
      return 'Invalid input: the problem names each offending field in `errors`'
    case 401:
      return 'A credential is needed (an account exists, or the server listens off loopback) and was missing, wrong, expired or revoked'
    case 403:
      return 'Refused: the credential lacks the permission, or the request came from a page of another origin or to a Host that is not this server (decisions 1000 and 1002)'
    case 404:
      return 'No such record'
    case 409:
      return 'Conflict with the current state (duplicate, transition, references)'
    case 412:
      return 'If-Match names an older version'
    case 413:
      return 'Body larger than the limit'
    case 415:
      return 'The body is not sent as application/json, or is compressed'
    case 507:
      return 'The data folder is full: nothing was saved; retry once space is freed'
    default:
      return code
  }
}

/** The line each operation carries about who may call it. */
function _permissionNote(route: AnyRoute): string {
  if (route.permission === 'public') return '**Who may call it:** anyone, without a credential.'
  const roles = rolesWith(route.permission)
  return `**Who may call it:** \`${route.permission}\` (${PERMISSIONS[route.permission].toLowerCase()}): ${roles.join(', ')}; tokens whose scope reaches that role.`
}
