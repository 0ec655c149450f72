import { ComplibError, fromZodError, isId, ID_PREFIXES, withChange, type IdKind } from '@complib/core'
import { getRouterParams, type H3, type H3Event } from 'h3'
import * as z from 'zod'
import type { AnyRoute, AppServices } from './define-route'
import { jsonResponse, Reply } from './reply'
import { DEFAULT_BODY_LIMIT, queryObject, readJsonBody } from './request'

/**
 * Registers route objects on an h3 app: validates path, query and body with
 * the route's zod schemas (a failure is a 400 naming the field, and the
 * handler never runs), then turns what the handler returns into a response.
 */
export function registerRoutes(app: H3, routes: readonly AnyRoute[], services: AppServices): void {
  for (const route of routes) {
    const status = successStatus(route)
    // Unknown query parameters are errors, not silently ignored typos.
    const query = route.query ? route.query.strict() : undefined
    const audited = route.audit ?? route.method !== 'GET'
    const handle = async (event: H3Event) => {
      // Who is calling comes first: a caller without the permission learns nothing of the input's rules.
      const auth = await services.accounts.authorize(event, route)
      // h3 parses the URL once (lazily, srvx FastURL); no second parse per request.
      const url = event.url
      const params = route.params ? _parse(route.params, getRouterParams(event, { decode: true }), 'path') : undefined
      const parsedQuery = query ? _parse(query, queryObject(url), 'query') : _rejectQuery(url)
      const body = route.body ? _parse(route.body, await readJsonBody(event.req, route.bodyLimit ?? DEFAULT_BODY_LIMIT), 'body') : undefined
      // Every write the handler makes records who made it and why (core's change context).
      const change = { actor: auth.principal.actor, channel: auth.channel, requestId: auth.requestId, comment: auth.comment }
      const result = await withChange(change, () => route.handler({ event, params, query: parsedQuery, body, services, url, auth }))
      const response = toResponse(result, status)
      if (audited && response.status < 300) {
        const target = auth.auditTarget ?? _target(params) ?? (response.status === 201 ? _target({ created: response.headers.get('location')?.split('/').at(-1) }) : null)
        await services.accounts.audit.record(change, route.operationId, target, { status: response.status, ...auth.auditDetails })
      }
      return response
    }
    app.on(route.method, toH3Path(route.path), handle)
    // HEAD is GET without the body (RFC 9110 §9.3.2): the same status and headers.
    if (route.method === 'GET') {
      app.on('HEAD', toH3Path(route.path), async (event) => {
        const res = await handle(event)
        await res.body?.cancel().catch(() => {})
        return new Response(null, { status: res.status, headers: res.headers })
      })
    }
  }
}

/**
 * The methods a path answers to, for `Allow` (OPTIONS, 405): HEAD wherever
 * GET is, OPTIONS everywhere. Empty when no route has the path.
 */
export function allowedMethods(routes: readonly AnyRoute[], pathname: string): string[] {
  const methods = new Set<string>()
  for (const route of routes) if (_pathPattern(route.path).test(pathname)) methods.add(route.method)
  if (methods.size === 0) return []
  if (methods.has('GET')) methods.add('HEAD')
  methods.add('OPTIONS')
  return [...methods]
}

const _patterns = new Map<string, RegExp>()
function _pathPattern(path: string): RegExp {
  let pattern = _patterns.get(path)
  if (!pattern) {
    const source = path
      .split(/(\{\w+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('')
    pattern = new RegExp(`^${source}/?$`)
    _patterns.set(path, pattern)
  }
  return pattern
}

/** `/api/components/{id}` → `/api/components/:id` */
export function toH3Path(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1')
}

/** The lowest 2xx a route documents: what a plain returned value is answered with. */
export function successStatus(route: AnyRoute): number {
  return Math.min(...Object.keys(route.responses).map(Number).filter((s) => s >= 200 && s < 300))
}

/** A handler's result as a Response: a Response passes, a Reply sets status and headers, anything else is JSON. */
export function toResponse(result: unknown, status: number): Response {
  if (result instanceof Response) return result
  if (result instanceof Reply) {
    if (result.status === 204 || result.body === undefined) return new Response(null, { status: result.status, headers: result.headers })
    return jsonResponse(JSON.stringify(result.body), result.status, result.headers)
  }
  if (result === undefined) return new Response(null, { status: 204 })
  return jsonResponse(JSON.stringify(result), status)
}

function _parse<T extends z.ZodType>(schema: T, input: unknown, location: 'path' | 'query' | 'body'): z.output<T> {
  const result = schema.safeParse(input)
  if (!result.success) throw fromZodError(result.error, location)
  return result.data
}

function _rejectQuery(url: URL): undefined {
  const first = url.searchParams.keys().next()
  if (!first.done) {
    throw new ComplibError('VALIDATION_FAILED', `query.${first.value}: this route takes no query parameters`, {
      errors: [{ path: `query.${first.value}`, message: 'unknown parameter' }],
    })
  }
  return undefined
}

/** The record a request acted on, from its path: the first parameter that is an id. */
function _target(params: unknown): { type: string; id: string } | null {
  if (!params || typeof params !== 'object') return null
  for (const value of Object.values(params)) {
    if (typeof value !== 'string') continue
    const kind = _KIND_BY_PREFIX.get(value.slice(0, value.indexOf('_')))
    if (kind && isId(kind, value)) return { type: kind, id: value }
  }
  return null
}

const _KIND_BY_PREFIX = new Map(Object.entries(ID_PREFIXES).map(([kind, prefix]) => [prefix as string, kind as IdKind]))
