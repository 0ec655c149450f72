// application
export { createApp, type AppOptions } from './app'
export { APP_VERSION } from './version'

// server
export { DEFAULTS, assertSafeBinding, startServer, type RunningServer, type ServerOptions } from './server'

// limits of an import upload (what POST /api/imports takes)
export { IMPORT_BODY_LIMIT, IMPORT_MAX_CELLS, IMPORT_MAX_COLUMNS, IMPORT_MAX_ROWS } from './imports/read-rows'

// helpers
export { isAuthorized, isLoopbackHost } from './auth'
export { problem, toProblemResponse } from './problem'
