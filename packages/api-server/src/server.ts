import { statSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { createPushRunner } from '@complib/connector-webhook'
import { BUILT_IN_SOURCE_TYPES, createSourceService } from '@complib/sources'
import { ComplibError, type AnySourceDefinition, type ConnectorDefinition, type Storage } from '@complib/core'
import { createPostgresStorage } from '@complib/core/postgres'
import { createSqliteStorage } from '@complib/core/sqlite'
import { toNodeHandler } from 'h3/node'
import { createApp } from './app'
import { type BlobStore, createDatabaseBlobStore } from './blobs'
import { startHousekeeping } from './auth/housekeeping'
import { isLoopbackHost } from './auth/loopback'
import { configuredConnectorModules, configuredSourceModules, loadConnectorTypes, loadSourceTypes } from './connectors/load'
import { answerClientError } from './client-error'
import { importJobs } from './imports/jobs'
import { enrichJobsFor, stopEnrichJobs } from './sources/background'
import { toOrigin } from './http/browser-safety'
import { answerHalfClosedClients } from './http/half-close'
import { DEFAULT_HTTP_TIMEOUTS, guardBodyRate, httpTimeoutOptions, type HttpTimeouts } from './http/timeouts'
import { answerProblem, ComplibServerResponse, createRequestListener } from './http/node-listener'

export interface ServerOptions {
  host?: string | undefined
  port?: number | undefined
  /** Data folder: the embedded database (`complib.db`), attachments, `complib.config.json`. */
  dataDir?: string | undefined
  /**
   * A PostgreSQL database (`postgres://…`) to keep the library in instead of the
   * data folder's SQLite file: several servers can share it. Attachments then live
   * in the database too; the data folder keeps only `complib.config.json`.
   */
  databaseUrl?: string | undefined
  /** The bootstrap admin credential (decision 1504). */
  apiKey?: string | undefined
  /** Believe `X-Forwarded-For`/`X-Forwarded-Proto` from a reverse proxy in front (`--trust-proxy`). */
  trustProxy?: boolean | undefined
  /** Web origins whose pages may use the API besides the server's own (`--allowed-origin`). */
  allowedOrigins?: readonly string[] | undefined
  /** Names besides localhost, 127.0.0.1 and [::1] that a loopback server answers to (`--allowed-host`). */
  allowedHosts?: readonly string[] | undefined
  /**
   * Connector types to load besides the built-in webhook one: definitions, or
   * modules (package names or paths, resolved from the working folder) that
   * export one. Those named in `<dataDir>/complib.config.json` load too.
   */
  connectors?: ReadonlyArray<string | ConnectorDefinition> | undefined
  /** Source types to load besides the built-in ones, as `connectors` (also `sources` in `<dataDir>/complib.config.json`). */
  sources?: ReadonlyArray<string | AnySourceDefinition> | undefined
  log?: ((message: string, cause?: unknown) => void) | undefined
  /**
   * How long a client has to send its headers, and how fast its body must come
   * (decision 1016); each figure left out keeps its default (DEFAULT_HTTP_TIMEOUTS).
   */
  timeouts?: Partial<HttpTimeouts> | undefined
}

export interface RunningServer {
  url: string
  server: Server
  storage: Storage
  /** Stops accepting requests, lets open ones finish, snapshots and releases the data folder. */
  close(): Promise<void>
}

/** The defaults of `complib serve`: loopback, so nothing is exposed unasked (decision 0010). */
export const DEFAULTS = { host: '127.0.0.1', port: 4000, dataDir: './data' } as const

/**
 * Opens the library in the data folder and serves the API. Off loopback every
 * route but health and sign-in needs a credential (an account's, a token, or
 * the API key); on loopback, once an account exists.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULTS.host
  const port = options.port ?? DEFAULTS.port
  const dataDir = resolve(options.dataDir ?? DEFAULTS.dataDir)
  const log = options.log ?? ((m, cause) => (cause ? console.error(m, cause) : console.error(m)))
  _assertDataFolder(dataDir)
  // A typo in an origin stops the start, before the data folder is touched.
  const allowedOrigins = (options.allowedOrigins ?? []).map(toOrigin)

  // Connector packages load before the data folder is opened: a broken one stops the start cleanly.
  const given = options.connectors ?? []
  const connectors = [
    ...given.filter((c): c is ConnectorDefinition => typeof c !== 'string'),
    ...(await loadConnectorTypes([
      ...given.filter((c): c is string => typeof c === 'string').map((module) => ({ module, from: process.cwd() })),
      ...configuredConnectorModules(dataDir),
    ])),
  ]
  const givenSources = options.sources ?? []
  const sources = [
    ...givenSources.filter((c): c is AnySourceDefinition => typeof c !== 'string'),
    ...(await loadSourceTypes([
      ...givenSources.filter((c): c is string => typeof c === 'string').map((module) => ({ module, from: process.cwd() })),
      ...configuredSourceModules(dataDir),
    ])),
  ]
  // The port is bound before the data folder is created or opened: a port in use stops the
  // start with nothing written. Until the library is open, requests get a 503.
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined
  const timeouts: HttpTimeouts = { ...DEFAULT_HTTP_TIMEOUTS }
  for (const [name, value] of Object.entries(options.timeouts ?? {})) if (value !== undefined) timeouts[name as keyof HttpTimeouts] = value
  const server = createServer({ ServerResponse: ComplibServerResponse, ...httpTimeoutOptions(timeouts) }, (req, res) => {
    guardBodyRate(req, res, timeouts)
    if (handler) handler(req, res)
    else answerProblem(res, new ComplibError('SERVICE_UNAVAILABLE', 'the library is still opening; try again in a moment'))
  })
  answerHalfClosedClients(server)
  server.on('clientError', answerClientError)
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port} on ${host} is in use (another complib?); stop that server or pass --port <n>`)
          : error.code === 'EACCES'
            ? new Error(`not allowed to listen on port ${port}; pass --port with a number above 1023`)
            : error,
      ),
    )
    server.listen(port, host, () => resolveListen())
  })
  let storage: Storage
  let blobs: BlobStore | undefined
  try {
    if (options.databaseUrl) {
      const postgres = await createPostgresStorage({ url: options.databaseUrl, log })
      storage = postgres
      blobs = createDatabaseBlobStore(postgres.blobs)
    } else {
      storage = await createSqliteStorage({ dir: dataDir, log })
    }
  } catch (error) {
    await new Promise<void>((r) => server.close(() => r()))
    throw error
  }
  const runner = createPushRunner({ storage, connectors, log })
  const sourceService = createSourceService({ types: [...BUILT_IN_SOURCE_TYPES, ...sources], log })
  const app = createApp({
    storage,
    runner,
    connectors,
    sources,
    sourceService,
    dataDir,
    blobs,
    apiKey: options.apiKey,
    requireCredentials: !isLoopbackHost(host),
    trustProxy: options.trustProxy,
    allowedOrigins,
    // On loopback, Host must name this machine (DNS rebinding); off loopback credentials guard the door.
    allowedHosts: isLoopbackHost(host) ? (options.allowedHosts ?? []) : undefined,
    log,
    debug: process.env.COMPLIB_DEBUG ? (m) => console.error(m) : undefined,
  })
  handler = createRequestListener(toNodeHandler(app), { log })
  // Runs a crash or a stop interrupted carry on; cron schedules start ticking.
  await runner.resumeInterrupted()
  await runner.syncSchedules()
  // Import jobs a crash or a stop interrupted: a commit is undone, a plan made again (decision 0616).
  await importJobs(storage).resumeInterrupted()
  // Sources' scheduled refreshes start ticking (decision 1608).
  await enrichJobsFor(storage, sourceService, log).schedules.sync()
  const stopHousekeeping = startHousekeeping(storage, log)
  const address = server.address() as AddressInfo
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  let closing: Promise<void> | undefined
  return {
    url: `http://${shownHost}:${address.port}`,
    server,
    storage,
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((r) => server.close(() => r()))
        stopHousekeeping()
        await importJobs(storage).stop()
        await stopEnrichJobs(storage)
        await runner.close()
        await storage.close()
      })()),
  }
}

/** Throws, before anything is created, when `--data` names something that is not a folder. */
function _assertDataFolder(dataDir: string): void {
  let stats
  try {
    stats = statSync(dataDir)
  } catch {
    return // created on open
  }
  if (!stats.isDirectory()) throw new Error(`--data ${dataDir} is a file, not a folder; name a folder for the library (it is created if missing)`)
}
