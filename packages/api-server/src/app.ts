import { ComplibError, ERROR_STATUS, isComplibError, type AnySourceDefinition, type ConnectorDefinition, type ErrorCode, type Storage } from '@complib/core'
import { H3, type HTTPError } from 'h3'
import { join } from 'node:path'
import { createPushRunner, type PushRunner } from '@complib/connector-webhook'
import { BUILT_IN_SOURCE_TYPES, createSourceService, type SourceService } from '@complib/sources'
import { createAccountServices, type GuardedRoute } from './auth/account-services'
import { type BlobStore, createFileBlobStore, createMemoryBlobStore } from './blobs'
import { BUILT_IN_CONNECTOR_TYPES } from './connectors/registry'
import { toProblemResponse } from './problem'
import { ROUTES } from './routes'
import { docsRoutes } from './routes/docs'
import { allowedMethods, registerRoutes } from './routing/register'
import { ClientGoneError } from './routing/request'
import { assertIdentityEncoding, createBrowserSafety } from './http/browser-safety'
import { createWebUi } from './http/web-ui'

export interface AppOptions {
  storage: Storage
  /** Push runs; by default one is made over `storage` (close it with the storage). */
  runner?: PushRunner | undefined
  /** Data folder of the server (attachments); omit for an in-memory app. */
  dataDir?: string | undefined
  /** Where attachment bytes go; by default files in `<dataDir>/attachments` (in memory without a data folder). */
  blobs?: BlobStore | undefined
  /** Connector types loaded as plugins, besides the built-in webhook type (the runner must know them too). */
  connectors?: readonly ConnectorDefinition[] | undefined
  /** Source types loaded as plugins, besides the built-in ones (DigiKey, Mouser, Nexar, TME). */
  sources?: readonly AnySourceDefinition[] | undefined
  /** Calls to sources; by default one over the built-in and plugin types (tests give their own cache time and timeouts). */
  sourceService?: SourceService | undefined
  /**
   * The bootstrap admin credential: sent as `Authorization: Bearer <apiKey>`, it
   * acts as an admin without an account (decision 1504). Setting it makes
   * every route but health and sign-in need a credential.
   */
  apiKey?: string | undefined
  /**
   * Every route but health and sign-in needs a credential, whatever the
   * accounts (startServer sets it off loopback). Otherwise credentials are
   * needed once an account exists (or an API key is set).
   */
  requireCredentials?: boolean | undefined
  /** Believe `X-Forwarded-For` and `X-Forwarded-Proto` from a reverse proxy in front (README, "Teams"). */
  trustProxy?: boolean | undefined
  /** A sign-in session unused this long ends (default 12 hours). */
  sessionIdleMs?: number | undefined
  /** A sign-in session ends this long after sign-in (default 14 days). */
  sessionMaxMs?: number | undefined
  /** How long a checked token or session is believed before the database is asked again (default 2000 ms). */
  credentialCacheMs?: number | undefined
  /**
   * Web origins besides the server's own whose pages may change the library
   * (and read answers, through CORS): decisions 1000 and 1003.
   */
  allowedOrigins?: readonly string[] | undefined
  /**
   * Host names, besides the loopback ones, that requests may be addressed to;
   * undefined accepts any `Host` (startServer sets it on a loopback bind, against DNS rebinding).
   */
  allowedHosts?: readonly string[] | undefined
  /**
   * Folder of the built web interface served at `/` (packages/web's `dist`);
   * by default found beside the server. `false` serves none.
   */
  webDir?: string | false | undefined
  log?: ((message: string, cause?: unknown) => void) | undefined
  /** One-line notes of what is not a fault (a client that went away mid-request). */
  debug?: ((message: string) => void) | undefined
}

/**
 * The complib HTTP application (h3). It only handles requests: binding a
 * port, the data folder and shutdown belong to `startServer`.
 *
 * @example
 * const app = createApp({ storage: await createSqliteStorage() })
 * const res = await app.fetch(new Request('http://local/api/health'))
 */
export function createApp(options: AppOptions): H3 {
  const safety = createBrowserSafety({ allowedOrigins: options.allowedOrigins, allowedHosts: options.allowedHosts })
  const routes = [...ROUTES, ...docsRoutes(ROUTES)]
  const app = new H3({
    // Errors are answered (and 5xx logged) by toProblemResponse; h3's own logging would repeat them.
    silent: true,
    onError: (error, event) => {
      const cause = _fromH3Error(error)
      if (isComplibError(cause) && cause.cause instanceof ClientGoneError) options.debug?.(`[http] ${event.req.method} ${event.url.pathname}: ${cause.cause.message}`)
      const res = toProblemResponse(cause, options.log)
      const cors = safety.corsHeaders(event)
      if (cors) for (const [name, value] of Object.entries(cors)) res.headers.set(name, value)
      return res
    },
  })

  // Before anything else (credentials too): a page on another site learns nothing, not even whether a credential is needed.
  app.use((event) => {
    safety.check(event)
    assertIdentityEncoding(event)
    const cors = safety.corsHeaders(event)
    if (cors) for (const [name, value] of Object.entries(cors)) event.res.headers.set(name, value)
  })
  // OPTIONS: what a path allows; for an allowed origin, the CORS preflight answer too. Needs no credential.
  app.on('OPTIONS', '/**', (event) => {
    const allow = allowedMethods(routes, event.url.pathname)
    if (allow.length === 0) throw new ComplibError('NOT_FOUND', `no route for ${event.url.pathname}`)
    return new Response(null, { status: 204, headers: { allow: allow.join(', '), ...safety.corsHeaders(event) } })
  })

  const accounts = createAccountServices({
    storage: options.storage,
    apiKey: options.apiKey,
    alwaysRequired: options.requireCredentials,
    trustProxy: options.trustProxy,
    sessionIdleMs: options.sessionIdleMs,
    sessionMaxMs: options.sessionMaxMs,
    cacheMs: options.credentialCacheMs,
    log: options.log,
  })
  registerRoutes(app, routes, {
    storage: options.storage,
    dataDir: options.dataDir,
    blobs: options.blobs ?? (options.dataDir ? createFileBlobStore(join(options.dataDir, 'attachments')) : createMemoryBlobStore()),
    connectorTypes: [...BUILT_IN_CONNECTOR_TYPES, ...(options.connectors ?? [])],
    runner: options.runner ?? createPushRunner({ storage: options.storage, connectors: options.connectors, log: options.log }),
    accounts,
    sources: options.sourceService ?? createSourceService({ types: [...BUILT_IN_SOURCE_TYPES, ...(options.sources ?? [])], log: options.log }),
  })

  const webUi = options.webDir === false ? undefined : createWebUi(options.webDir)
  app.all('/**', async (event) => {
    const { pathname } = event.url
    if (webUi && !pathname.startsWith('/api/') && pathname !== '/api' && (event.req.method === 'GET' || event.req.method === 'HEAD')) {
      const page = await webUi.serve(pathname, event.req.method === 'HEAD')
      if (page) return page
    }
    // Without a credential where one is needed, nothing about the API is revealed: not even which paths exist.
    if (pathname === '/api' || pathname.startsWith('/api/')) await accounts.authorize(event, UNROUTED)
    const allow = allowedMethods(routes, event.url.pathname)
    if (allow.length > 0) {
      throw new ComplibError('METHOD_NOT_ALLOWED', `${event.req.method} is not allowed on ${event.url.pathname}; it allows ${allow.join(', ')}`, {
        headers: { allow: allow.join(', ') },
      })
    }
    throw new ComplibError('NOT_FOUND', `no route for ${event.req.method} ${event.url.pathname}`)
  })
  return app
}

/** What an unknown path or method of the API needs before it is told so: any credential. */
const UNROUTED: GuardedRoute = { permission: 'account', operationId: 'unknownRoute' }

/**
 * What h3 hands onError: errors thrown by our code arrive as its `cause`;
 * h3's own refusals (a URL with malformed percent-encoding, before any route
 * runs) carry only plain details and a 4xx status, which must stay a 4xx
 * rather than become a 500.
 */
function _fromH3Error(error: HTTPError): unknown {
  if (error.cause instanceof Error) return error.cause
  if (error.status >= 400 && error.status < 500) {
    const code = (Object.keys(ERROR_STATUS) as ErrorCode[]).find((c) => ERROR_STATUS[c] === error.status) ?? 'BAD_REQUEST'
    const detail = error.status === 400 && error.message === 'Bad Request' ? 'the request URL is malformed (invalid percent-encoding)' : error.message
    return new ComplibError(code, detail)
  }
  return error.cause ?? error
}
