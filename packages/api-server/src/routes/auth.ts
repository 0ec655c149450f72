import { ComplibError, LoginRequest, Me, PasswordChange } from '@complib/core'
import { defineRoute } from '../routing/define-route'
import { noContent } from '../routing/reply'
import type { Principal } from '../auth/principal'

/** Who the caller is, and what the web interface should offer them. */
function _me(principal: Principal, authRequired: boolean): Me {
  return { user: principal.user, actor: principal.actor, role: principal.role, permissions: [...principal.permissions].sort(), authRequired }
}

export const authRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/auth/login',
    group: 'auth',
    operationId: 'login',
    permission: 'public',
    // Its entry is written by the sign-in itself (auth.login), with the account as actor.
    audit: false,
    summary: 'Sign in: starts a session (an HttpOnly cookie)',
    description:
      'Sets the `complib_session` cookie (HttpOnly, SameSite=Lax, Secure behind TLS). Failed attempts are recorded and, after a few, ' +
      'slowed per account and per client address: 429 with Retry-After.',
    body: LoginRequest,
    errors: ['UNAUTHORIZED', 'TOO_MANY_REQUESTS'],
    responses: { 200: { description: 'Signed in', schema: Me, headers: { 'set-cookie': { description: 'The session cookie' } } } },
    handler: async ({ event, body, services, auth }) => {
      const { accounts } = services
      const user = await accounts.checkPassword(event, auth, body.username, body.password)
      const principal = await accounts.startSession(event, user)
      await accounts.audit.record({ actor: principal.actor, channel: 'web', requestId: auth.requestId, comment: null }, 'auth.login', { type: 'user', id: user.id }, { clientIp: auth.clientIp })
      return _me(principal, true)
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/auth/logout',
    group: 'auth',
    operationId: 'logout',
    permission: 'account',
    summary: 'Sign out: ends this session',
    responses: { 204: { description: 'Signed out; the cookie is cleared' } },
    handler: async ({ event, services, auth }) => {
      await services.accounts.endSession(event, auth)
      return noContent()
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/auth/me',
    group: 'auth',
    operationId: 'getMe',
    permission: 'account',
    summary: 'Who is calling: the account, role and permissions',
    responses: { 200: { description: 'The caller', schema: Me } },
    handler: async ({ services, auth }) => _me(auth.principal, await services.accounts.authenticator.required()),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/auth/password',
    group: 'auth',
    operationId: 'changePassword',
    permission: 'account',
    summary: 'Change one’s own password',
    description: 'Needs the current password, and a signed-in session (not a token). Every other session of the account ends.',
    body: PasswordChange,
    errors: ['FORBIDDEN', 'TOO_MANY_REQUESTS'],
    responses: { 204: { description: 'Changed' } },
    handler: async ({ event, body, services, auth }) => {
      const { principal } = auth
      if (principal.via !== 'session' || !principal.user) throw new ComplibError('FORBIDDEN', 'sign in to change your password (a token or the API key cannot)')
      const { accounts, storage } = services
      await accounts.checkPassword(event, auth, principal.user.username, body.currentPassword)
      const user = await storage.users.update(principal.user.id, { passwordHash: await accounts.hashPassword(body.newPassword) })
      accounts.authenticator.forgetUser(user.id)
      // The store ended every session of the account; this one starts again.
      await accounts.startSession(event, user)
      auth.auditTarget = { type: 'user', id: user.id }
      return noContent()
    },
  }),
]
