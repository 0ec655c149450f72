import { ComplibError, type Storage } from '@complib/core'
import { LRUCache } from 'lru-cache'
import { createApiKeyCheck } from './api-key'
import { SCOPE_ROLE, lesserRole } from './permissions'
import { API_KEY_PRINCIPAL, LOCAL_PRINCIPAL, sessionPrincipal, tokenPrincipal, type Principal } from './principal'
import { looksLikeToken, secretHash } from './secrets'

export interface AuthenticatorOptions {
  storage: Storage
  /** The bootstrap admin credential (`--api-key`). */
  apiKey?: string | undefined
  /** Whether every request needs a credential whatever the accounts (the server listens off loopback). */
  alwaysRequired: boolean
  /** A session unused for this long ends (default 12 hours). */
  sessionIdleMs?: number | undefined
  /** A session ends this long after sign-in whatever its use (default 14 days). */
  sessionMaxMs?: number | undefined
  /**
   * How long a checked token or session is believed without asking the
   * database again (default 2 s): what another server's revocation, expiry or
   * disable takes to reach this one. This server's own forget at once.
   */
  cacheMs?: number | undefined
  log?: ((message: string, cause?: unknown) => void) | undefined
}

/** The credential a request carries, as found (before it is checked). */
export type Presented = { kind: 'none' } | { kind: 'bearer'; secret: string } | { kind: 'session'; secret: string } | { kind: 'malformed'; reason: string }

export interface Authenticator {
  /**
   * Who the credential is; null when none was given (the caller then answers
   * 401 unless keyless mode applies, `required()`). A credential given and
   * wrong is a 401 thrown here, whatever the mode: a typo must not pass.
   */
  authenticate(presented: Presented): Promise<Principal | null>
  /** Whether a request without a credential is refused: off loopback, with an API key, or once an account exists. */
  required(): Promise<boolean>
  /** Forget what this server believed of a session, or of everything of a user (ended, revoked, changed). */
  forgetSession(hash: string): void
  forgetUser(userId: string): void
  sessionIdleMs: number
  sessionMaxMs: number
}

const MINUTE = 60_000
/** A session unused this long ends, unless the server is told otherwise. */
export const DEFAULT_SESSION_IDLE_MS = 12 * 60 * MINUTE

export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const { storage } = options
  const cacheMs = options.cacheMs ?? 2000
  const sessionIdleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS
  const sessionMaxMs = options.sessionMaxMs ?? 14 * 24 * 60 * MINUTE
  const apiKey = options.apiKey || undefined
  if (apiKey && looksLikeToken(apiKey)) throw new Error('the API key has the form of a token (clt_…), which is checked as a token: choose another key')
  const isApiKey = apiKey ? createApiKeyCheck(apiKey) : undefined
  // What was read of a hash, for cacheMs; null: known not to work (a bad guess is not asked twice a second).
  const cache = new LRUCache<string, { principal: Principal | null; userId: string | null }>({ max: 10_000, ttl: cacheMs })
  let accountsExist = false
  let accountsCheckedAt = 0
  const touched = new LRUCache<string, number>({ max: 10_000, ttl: MINUTE })
  // A cached token's expiry, checked at each use of the cached answer too.
  const _expiry = new WeakMap<Principal, number>()

  const touchLater = (key: string, write: () => Promise<void>) => {
    // At most once a minute per token or session; never on the request's path.
    if (touched.has(key)) return
    touched.set(key, Date.now())
    write().catch((error: unknown) => options.log?.('[auth] could not record last use', error))
  }

  const resolveToken = async (secret: string): Promise<Principal | null> => {
    const hash = secretHash(secret)
    const known = cache.get(`t:${hash}`)
    if (known) return known.principal
    const found = await storage.tokens.resolve(hash)
    let principal: Principal | null = null
    if (found && !found.owner.disabled && (found.token.expiresAt === null || Date.parse(found.token.expiresAt) > Date.now())) {
      principal = tokenPrincipal(found.owner, found.token.id, found.token.name, lesserRole(SCOPE_ROLE[found.token.scope], found.owner.role))
    }
    cache.set(`t:${hash}`, { principal, userId: found?.owner.id ?? null })
    if (principal && found) {
      if (found.token.expiresAt) _expiry.set(principal, Date.parse(found.token.expiresAt))
      touchLater(`t:${hash}`, () => storage.tokens.touch(found.token.id, new Date().toISOString()))
    }
    return principal
  }

  const resolveSession = async (secret: string): Promise<Principal | null> => {
    const hash = secretHash(secret)
    const known = cache.get(`s:${hash}`)
    if (known) return known.principal
    const now = Date.now()
    const found = await storage.authSessions.resolve(hash, new Date(now).toISOString(), new Date(now - sessionIdleMs).toISOString())
    const principal = found && !found.user.disabled ? sessionPrincipal(found.user, hash) : null
    cache.set(`s:${hash}`, { principal, userId: found?.user.id ?? null })
    if (principal) touchLater(`s:${hash}`, () => storage.authSessions.touch(hash, new Date().toISOString()))
    return principal
  }

  return {
    sessionIdleMs,
    sessionMaxMs,
    async authenticate(presented) {
      if (presented.kind === 'none') return null
      if (presented.kind === 'malformed') throw unauthorized(presented.reason)
      if (presented.kind === 'session') {
        const principal = await resolveSession(presented.secret)
        if (!principal) throw unauthorized('your session has ended (signed out, expired, or the account changed): sign in again', true)
        return principal
      }
      // A token has its own form (clt_…): what the credential looks like decides which check runs,
      // so the time taken tells nothing about the key.
      if (looksLikeToken(presented.secret)) {
        const principal = await resolveToken(presented.secret)
        const expires = principal ? _expiry.get(principal) : undefined
        if (principal && (expires === undefined || expires > Date.now())) return principal
        throw unauthorized('the token is unknown, revoked or expired, or its owner is disabled')
      }
      if (isApiKey?.(presented.secret)) return API_KEY_PRINCIPAL
      throw unauthorized(apiKey ? 'the API key or token is wrong' : 'the token is wrong (tokens start with clt_)')
    },
    async required() {
      if (options.alwaysRequired || apiKey) return true
      if (accountsExist) return true
      // Until the first account: asked again after cacheMs (another server may have made it).
      if (Date.now() - accountsCheckedAt < cacheMs) return false
      accountsExist = (await storage.users.count()) > 0
      accountsCheckedAt = Date.now()
      return accountsExist
    },
    forgetSession: (hash) => cache.delete(`s:${hash}`),
    forgetUser(userId) {
      for (const [key, value] of cache.entries()) if (value.userId === userId) cache.delete(key)
      // The first account makes every server ask for credentials: this one at once.
      accountsExist = true
    },
  }
}

/** The credential of a request: `Authorization: Bearer|Token <secret>` first, else the session cookie. */
export function presentedCredential(authorization: string | null, sessionCookie: string | undefined): Presented {
  if (authorization !== null) {
    const match = /^(Bearer|Token)[ \t]+([^\s]+)[ \t]*$/i.exec(authorization)
    if (!match) return { kind: 'malformed', reason: 'the Authorization header must be `Bearer <token>` or `Token <token>`' }
    return { kind: 'bearer', secret: match[2]! }
  }
  if (sessionCookie) return { kind: 'session', secret: sessionCookie }
  return { kind: 'none' }
}

/** 401 for a missing or wrong credential, with the challenge RFC 9110 asks for. */
export function unauthorized(detail: string, session = false): ComplibError {
  return new ComplibError('UNAUTHORIZED', detail, {
    headers: { 'www-authenticate': session ? 'Bearer realm="complib", error="invalid_token"' : 'Bearer realm="complib"' },
  })
}
