// application
export { createApp, type AppOptions } from './app'
export { APP_VERSION } from './version'

// server
export { DEFAULTS, startServer, type RunningServer, type ServerOptions } from './server'

// limits of an import upload (what POST /api/imports takes)
export { IMPORT_BODY_LIMIT, IMPORT_CHUNK_ROWS, IMPORT_MAX_CELLS, IMPORT_MAX_COLUMNS, IMPORT_MAX_ROWS } from './imports/read-rows'

// helpers
export { isLoopbackHost } from './auth/loopback'
export { PERMISSIONS, ROLE_PERMISSIONS, SCOPE_ROLE, type Permission } from './auth/permissions'
export { hashPassword, verifyPassword, SCRYPT_PARAMS } from './auth/passwords'
// credential checks: what every request with a token or session goes through (the bench times them)
export { createAuthenticator, presentedCredential, type Authenticator, type AuthenticatorOptions } from './auth/authenticator'
export { newToken, secretHash, tokenPrefix } from './auth/secrets'
export { problem, toProblemResponse } from './problem'
