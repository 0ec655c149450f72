import { ComplibError, type Channel, type Storage, type User } from '@complib/core'
import { deleteCookie, getCookie, setCookie, type H3Event } from 'h3'
import { createAuditRecorder, type AuditRecorder, type AuditSource } from './audit-recorder'
import { createAuthenticator, presentedCredential, unauthorized, type Authenticator } from './authenticator'
import { createLoginThrottle } from './login-throttle'
import { decoyHash, hashPassword, needsRehash, verifyPassword } from './passwords'
import { PERMISSIONS, rolesWith, type Permission } from './permissions'
import { ANONYMOUS_PRINCIPAL, LOCAL_PRINCIPAL, sessionPrincipal, type Principal } from './principal'
import type { RequestAuth } from './request-auth'
import { clientIpOf, commentOf, isHttps, requestIdOf } from './request-meta'
import { newSessionId, secretHash } from './secrets'

/** The sign-in session cookie. */
export const SESSION_COOKIE = 'complib_session'

export interface AccountServicesOptions {
  storage: Storage
  apiKey?: string | undefined
  /** Every request needs a credential whatever the accounts (off loopback). */
  alwaysRequired?: boolean | undefined
  /** Believe `X-Forwarded-For` and `X-Forwarded-Proto` (a reverse proxy in front that sets them). */
  trustProxy?: boolean | undefined
  sessionIdleMs?: number | undefined
  sessionMaxMs?: number | undefined
  /** How long another server's revocation may take to reach this one (default 2 s). */
  cacheMs?: number | undefined
  log?: ((message: string, cause?: unknown) => void) | undefined
}

/** What authorize needs of a route: the permission it declares, and its name for messages. */
export interface GuardedRoute {
  permission: Permission
  operationId: string
}

/** Credentials, sessions and the audit trail, as the routes use them. */
export interface AccountServices {
  authenticator: Authenticator
  audit: AuditRecorder
  /** Checks the request's credential against the route's permission; refusals are 401/403 and recorded. */
  authorize(event: H3Event, route: GuardedRoute): Promise<RequestAuth>
  /** Checks a user name and password (slowed per account and client); the user, or a 401/429. */
  checkPassword(event: H3Event, auth: RequestAuth, username: string, password: string): Promise<User>
  /** Starts a sign-in session for `user` and sets its cookie; the caller it makes. */
  startSession(event: H3Event, user: User): Promise<Principal>
  /** Ends the request's session (if it has one) and clears the cookie. */
  endSession(event: H3Event, auth: RequestAuth): Promise<void>
  /** Hashes a new password. */
  hashPassword(password: string): Promise<string>
}

export function createAccountServices(options: AccountServicesOptions): AccountServices {
  const { storage } = options
  const trustProxy = options.trustProxy ?? false
  const authenticator = createAuthenticator({
    storage,
    apiKey: options.apiKey,
    alwaysRequired: options.alwaysRequired ?? false,
    sessionIdleMs: options.sessionIdleMs,
    sessionMaxMs: options.sessionMaxMs,
    cacheMs: options.cacheMs,
    log: options.log,
  })
  const audit = createAuditRecorder(storage, options.log)
  const throttle = createLoginThrottle()

  const refuse = async (event: H3Event, source: AuditSource, clientIp: string, error: ComplibError): Promise<never> => {
    await audit.refused(source, clientIp, { status: error.status, method: event.req.method, path: event.url.pathname, reason: error.message })
    throw error
  }

  return {
    authenticator,
    audit,
    async authorize(event, route) {
      const requestId = requestIdOf(event)
      event.res.headers.set('x-request-id', requestId)
      const clientIp = clientIpOf(event, trustProxy)
      const presented = presentedCredential(event.req.headers.get('authorization'), getCookie(event, SESSION_COOKIE))
      const base = { requestId, clientIp, auditDetails: {} as Record<string, unknown> }
      const anonymous = { actor: ANONYMOUS_PRINCIPAL.actor, channel: _channel(event, ANONYMOUS_PRINCIPAL), requestId, comment: null }
      let principal: Principal
      if (route.permission === 'public') {
        // Anyone: a stale cookie or a wrong token must not stop a sign-in or a health check.
        principal = (await authenticator.authenticate(presented).catch(() => null)) ?? ANONYMOUS_PRINCIPAL
      } else {
        let found: Principal | null
        try {
          found = await authenticator.authenticate(presented)
        } catch (error) {
          return await refuse(event, anonymous, clientIp, error as ComplibError)
        }
        if (!found) {
          if (await authenticator.required()) {
            return await refuse(event, anonymous, clientIp, unauthorized('sign in, or send a token as `Authorization: Bearer <token>`'))
          }
          found = LOCAL_PRINCIPAL
        }
        principal = found
        if (!principal.permissions.has(route.permission)) {
          const roles = rolesWith(route.permission)
          const error = new ComplibError(
            'FORBIDDEN',
            `${route.operationId} needs the permission ${route.permission} (${PERMISSIONS[route.permission].toLowerCase()}), which ${roles.join(' and ')} have; you act as ${_article(principal.role)} ${principal.role}`,
          )
          return await refuse(event, { actor: principal.actor, channel: _channel(event, principal), requestId, comment: null }, clientIp, error)
        }
      }
      return { ...base, principal, channel: _channel(event, principal), comment: commentOf(event) }
    },
    async checkPassword(event, auth, username, password) {
      const wait = throttle.wait(username, auth.clientIp)
      const source = { actor: { kind: 'anonymous' as const, id: null, name: username }, channel: auth.channel, requestId: auth.requestId, comment: null }
      if (wait > 0) {
        const error = new ComplibError('TOO_MANY_REQUESTS', `too many failed sign-ins for this account or from this address; try again in ${Math.ceil(wait / 1000)} s`, {
          headers: { 'retry-after': String(Math.ceil(wait / 1000)) },
        })
        return await refuse(event, source, auth.clientIp, error)
      }
      const found = await storage.users.findCredentials(username)
      // An unknown name costs a hash too, so timing does not tell which names exist.
      const ok = await verifyPassword(password, found?.passwordHash ?? (await decoyHash()))
      if (!found || !ok || found.user.disabled) {
        throttle.failed(username, auth.clientIp)
        await audit.record(source, 'auth.login-failed', found ? { type: 'user', id: found.user.id } : null, {
          clientIp: auth.clientIp,
          reason: !found ? 'unknown user' : !ok ? 'wrong password' : 'account disabled',
        })
        throw unauthorized(found?.user.disabled && ok ? 'this account is disabled; ask an admin' : 'wrong user name or password')
      }
      throttle.succeeded(username)
      if (needsRehash(found.passwordHash)) await storage.users.update(found.user.id, { passwordHash: await hashPassword(password) })
      return found.user
    },
    async startSession(event, user) {
      const id = newSessionId()
      const idHash = secretHash(id)
      const now = Date.now()
      await storage.authSessions.create({ idHash, userId: user.id, createdAt: new Date(now).toISOString(), expiresAt: new Date(now + authenticator.sessionMaxMs).toISOString() })
      await storage.users.recordLogin(user.id, new Date(now).toISOString())
      setCookie(event, SESSION_COOKIE, id, {
        httpOnly: true,
        sameSite: 'lax',
        secure: isHttps(event, trustProxy),
        path: '/',
        maxAge: Math.floor(authenticator.sessionMaxMs / 1000),
      })
      return sessionPrincipal(user, idHash)
    },
    async endSession(event, auth) {
      const hash = auth.principal.sessionHash
      if (hash) {
        await storage.authSessions.delete(hash)
        authenticator.forgetSession(hash)
      }
      deleteCookie(event, SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: isHttps(event, trustProxy), path: '/' })
    },
    hashPassword: (password) => hashPassword(password),
  }
}

/**
 * How the request came: the web interface (a session cookie, or a page of this
 * server in keyless mode), KiCad (its HTTP library routes), or the API.
 */
function _channel(event: H3Event, principal: Principal): Channel {
  if (event.url.pathname.startsWith('/api/kicad/')) return 'kicad'
  if (principal.via === 'session') return 'web'
  if (principal.via !== 'token' && principal.via !== 'api-key' && event.req.headers.get('sec-fetch-site') === 'same-origin') return 'web'
  return 'api'
}

function _article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a'
}
