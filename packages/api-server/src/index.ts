// application
export { createApp, type AppOptions } from './app'
export { APP_VERSION } from './version'

// server
export { DEFAULTS, assertSafeBinding, startServer, type RunningServer, type ServerOptions } from './server'

// helpers
export { isAuthorized, isLoopbackHost } from './auth'
export { problem, toProblemResponse } from './problem'
