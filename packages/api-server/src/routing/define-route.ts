import type { ErrorCode, Storage } from '@complib/core'
import type { H3Event } from 'h3'
import type * as z from 'zod'
import type { PushRunner } from '@complib/connector-webhook'
import type { SourceService } from '@complib/sources'
import type { BlobStore } from '../blobs'
import type { ConnectorType } from '../connectors/registry'
import type { AccountServices } from '../auth/account-services'
import type { Reply } from './reply'
import type { RequestAuth } from '../auth/request-auth'
import type { Permission } from '../auth/permissions'

/** The resource groups; one OpenAPI tag each (decision 0509). */
export const GROUPS = {
  system: 'Health, version, OpenAPI document and library statistics',
  components: 'Components: the parts of the library, their lifecycle, history and change feed',
  symbols: 'Schematic symbols, linked to components',
  footprints: 'PCB footprints, linked to components',
  attachments: 'Files (datasheets, images, CAD) linked to components',
  manufacturers: 'Manufacturers of parts',
  mpns: 'Manufacturer part numbers of components, and BOM lookup',
  parameters: 'Parameter types and the parameters of components',
  tags: 'Tags on components',
  categories: 'The category tree: ids that stay through a rename; components name their category by path',
  locations: 'Stock locations and quantities',
  search: 'Suggestions, full-text and parametric search',
  bulk: 'Bulk edits of many components, atomically',
  'import-export': 'Import CSV/JSON, export and backup',
  kicad: 'KiCad HTTP library',
  connectors: 'Outbound connectors (webhook): configuration, code, push runs',
  sources: 'Inbound sources of parts (DigiKey, Mouser, Nexar, TME): configuration, search, parts, enrichment jobs',
  auth: 'Signing in and out, who is calling, one’s own password',
  users: 'Accounts and their roles (admins)',
  tokens: 'API tokens: for scripts, CI and KiCad',
  audit: 'The audit trail: who did what, when, how and why (admins)',
  settings: 'Server settings (admins)',
  views: 'Saved views of the library table: each account\'s own',
} as const
export type Group = keyof typeof GROUPS

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** What every handler can reach besides the request. */
export interface AppServices {
  storage: Storage
  /** Data folder of the running server (attachments live under it); undefined for an in-memory app. */
  dataDir?: string | undefined
  /** Attachment bytes. */
  blobs: BlobStore
  /** Push runs of the connectors: start, resume, cancel, dry run, schedules. */
  runner: PushRunner
  /** Connector types this server can run (the built-in webhook, plus plugins). */
  connectorTypes: readonly ConnectorType[]
  /** Credentials: who a request is, sessions, the audit trail (auth/). */
  accounts: AccountServices
  /** The source types this server can use, and calls to configured sources (paced, cached). */
  sources: SourceService
}

export interface RouteContext<P, Q, B> {
  event: H3Event
  params: P
  query: Q
  body: B
  services: AppServices
  url: URL
  /** Who is calling, through which channel, with which request id and comment. */
  auth: RequestAuth
}

export interface ResponseSpec {
  description: string
  /** A zod schema of the JSON body; omit for an empty body. */
  schema?: z.ZodType | undefined
  /** Defaults to application/json when `schema` is set. */
  contentType?: string | undefined
  /** Response headers, documented. */
  headers?: Record<string, { description: string }> | undefined
}

/** Success responses by status. */
export type Responses = Record<number, ResponseSpec>

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined

/**
 * What a handler may answer for the responses `R`: a plain value for the
 * lowest 2xx, a Reply with a declared status and that status's body, or a
 * Response of its own (bytes: files, streams, stored JSON), which the types
 * leave unchecked.
 */
export type RouteAnswer<R extends Responses> = _PlainAnswer<R> | { [S in keyof R & number]: Reply<S, ResponseBody<R[S]>> }[keyof R & number] | Response

/**
 * The JSON body of a response: the output of its schema, since the value is
 * serialized as it is (nothing parses it on the way out) and the document
 * describes responses by their schemas' output. A response without a schema
 * has no body a value can give: empty, or bytes sent as a Response.
 */
export type ResponseBody<S> = S extends { schema: infer T extends z.ZodType } ? z.output<T> : S extends { contentType: string } ? never : undefined

export interface RouteSpec<P extends z.ZodObject | undefined, Q extends z.ZodObject | undefined, B extends z.ZodType | undefined, R extends Responses> extends _RouteBase<P, Q, B> {
  /** Success responses by status; the lowest 2xx is the default status of a returned value. */
  responses: R
  /** Typed by `responses` (RouteAnswer, decision 0511): a body or status the route does not declare is a compile error. */
  handler: (ctx: RouteContext<Infer<P>, Infer<Q>, Infer<B>>) => RouteAnswer<NoInfer<R>> | Promise<RouteAnswer<NoInfer<R>>>
}

/** A route as stored in the route table (types erased). */
export interface AnyRoute extends _RouteBase<z.ZodObject | undefined, z.ZodObject | undefined, z.ZodType | undefined> {
  responses: Responses
  handler: (ctx: RouteContext<Infer<z.ZodObject | undefined>, Infer<z.ZodObject | undefined>, Infer<z.ZodType | undefined>>) => unknown
}

/**
 * Declares one route. The same object registers the h3 handler, validates
 * the request and becomes the OpenAPI operation, so the document at
 * `/api/docs` cannot drift from the code.
 *
 * @example
 * defineRoute({
 *   method: 'GET', path: '/api/components/{id}', group: 'components', operationId: 'getComponent',
 *   summary: 'Get a component', params: z.object({ id: idSchema('component') }),
 *   responses: { 200: { description: 'The component', schema: Component } },
 *   handler: ({ params, services }) => services.storage.components.get(params.id),
 * })
 */
export function defineRoute<
  const R extends Responses,
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<P, Q, B, R>): AnyRoute {
  return spec as unknown as AnyRoute
}

/** 2xx statuses in order: the first one a route declares is where a plain returned value goes. */
type _SuccessStatuses = [200, 201, 202, 203, 204, 205, 206, 207, 208, 226]
type _Lowest<K, L extends readonly number[] = _SuccessStatuses> = L extends readonly [infer H extends number, ...infer T extends number[]] ? (H extends K ? H : _Lowest<K, T>) : never

/** A plain value is answered with the lowest 2xx: its schema's output, or nothing when that is a 204 (register.ts answers undefined with 204). */
type _PlainAnswer<R extends Responses> =
  _Lowest<keyof R> extends infer S extends keyof R ? (R[S] extends { schema: z.ZodType } ? ResponseBody<R[S]> : S extends 204 ? undefined : never) : never

/** What every route declares besides its responses and handler. */
interface _RouteBase<P extends z.ZodObject | undefined, Q extends z.ZodObject | undefined, B extends z.ZodType | undefined> {
  method: HttpMethod
  /** OpenAPI path template, e.g. `/api/components/{id}`. */
  path: string
  group: Group
  operationId: string
  /**
   * Who may call it (auth/permissions.ts): checked before the request is read,
   * shown in the OpenAPI document. Required, so a route without one does not compile.
   */
  permission: Permission
  /**
   * Whether a successful call is an entry of the audit trail: by default every
   * method but GET. False for a POST that changes nothing (a search); true for a
   * GET worth knowing about (a backup downloaded).
   */
  audit?: boolean | undefined
  summary: string
  description?: string | undefined
  params?: P
  query?: Q
  /** JSON body schema. */
  body?: B
  /**
   * A body that is not JSON, read by the handler itself (uploads, import files):
   * documented by media type. Exclusive with `body`.
   */
  rawBody?: { description: string; content: Record<string, { schema?: z.ZodType | undefined }> } | undefined
  /** The handler honours `If-Match` (optimistic concurrency): documented as a header parameter, with the 412. */
  ifMatch?: boolean | undefined
  /** Largest accepted body in bytes (default 1 MiB); more is a 413. */
  bodyLimit?: number | undefined
  /** Error codes this route may answer with beyond the automatic ones (400 for input, 404 for ids, 413 for bodies). */
  errors?: readonly ErrorCode[] | undefined
}
