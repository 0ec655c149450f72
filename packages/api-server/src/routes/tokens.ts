import { ApiToken, ComplibError, TokenCreate, TokenCreated, TokenListQuery, idSchema } from '@complib/core'
import * as z from 'zod'
import { SCOPE_ROLE, roleCovers } from '../auth/permissions'
import { newToken, secretHash, tokenPrefix } from '../auth/secrets'
import { defineRoute } from '../routing/define-route'
import { PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { created, noContent, withHeaders } from '../routing/reply'

const Params = z.object({ id: idSchema('token') })

export const tokenRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/tokens',
    group: 'tokens',
    operationId: 'listTokens',
    permission: 'account',
    summary: 'List API tokens: one’s own, or (admins, `all=true`) everyone’s',
    query: TokenListQuery,
    errors: ['FORBIDDEN'],
    responses: { 200: { description: 'Tokens, newest first; never the tokens themselves', schema: z.array(ApiToken), headers: PAGE_HEADERS } },
    handler: async ({ query, services, url, auth }) => {
      const { principal } = auth
      if (query.all && !principal.permissions.has('users:admin')) throw new ComplibError('FORBIDDEN', 'only admins list everyone’s tokens (all=true)')
      if (!query.all && !principal.user) throw new ComplibError('FORBIDDEN', 'tokens belong to accounts; the API key and keyless mode have none (admins: all=true)')
      const page = await services.storage.tokens.list({ limit: query.limit, cursor: query.cursor, ownerId: query.all ? undefined : principal.user!.id })
      return withHeaders(page.items, pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/tokens',
    group: 'tokens',
    operationId: 'createToken',
    permission: 'account',
    summary: 'Create an API token for oneself (shown once)',
    description:
      'Send it as `Authorization: Bearer <token>` (or `Token <token>`, as KiCad does). It acts with its scope met with its owner’s role at each use. ' +
      'A token can create tokens of its own scope or less, never more.',
    body: TokenCreate,
    errors: ['FORBIDDEN'],
    responses: { 201: { description: 'The token, shown this once', schema: TokenCreated, headers: { location: { description: 'URL of the token' } } } },
    handler: async ({ body, services, auth }) => {
      const { principal } = auth
      if (!principal.user) throw new ComplibError('FORBIDDEN', 'tokens belong to accounts: sign in as a user (the API key and keyless mode have none; `complib users add` makes one)')
      if (!roleCovers(principal.role, SCOPE_ROLE[body.scope])) {
        throw new ComplibError('FORBIDDEN', `a ${body.scope} token needs the rights of ${SCOPE_ROLE[body.scope]}; you act as ${principal.role}`, {
          errors: [{ path: 'body.scope', message: 'more than the caller may do' }],
        })
      }
      if (body.expiresAt && Date.parse(body.expiresAt) <= Date.now()) {
        throw new ComplibError('VALIDATION_FAILED', 'body.expiresAt: a token must expire in the future', { errors: [{ path: 'body.expiresAt', message: 'in the past' }] })
      }
      const token = newToken()
      const stored = await services.storage.tokens.create({
        name: body.name,
        scope: body.scope,
        ownerId: principal.user.id,
        hash: secretHash(token),
        prefix: tokenPrefix(token),
        expiresAt: body.expiresAt ?? null,
      })
      auth.auditTarget = { type: 'token', id: stored.id }
      auth.auditDetails.name = stored.name
      auth.auditDetails.scope = stored.scope
      return created({ ...stored, token }, `/api/tokens/${stored.id}`)
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/tokens/{id}',
    group: 'tokens',
    operationId: 'revokeToken',
    permission: 'account',
    summary: 'Revoke a token (one’s own; admins: anyone’s)',
    params: Params,
    errors: ['FORBIDDEN'],
    responses: { 204: { description: 'Revoked: it stops working at once here, within seconds on other servers' } },
    handler: async ({ params, services, auth }) => {
      const { principal } = auth
      const token = await services.storage.tokens.get(params.id)
      if (token.owner.id !== principal.user?.id && !principal.permissions.has('users:admin')) {
        // Not 403: whether someone else's token exists is not the caller's to learn.
        throw new ComplibError('NOT_FOUND', `token ${params.id} not found`)
      }
      await services.storage.tokens.delete(params.id)
      if (token.owner.id) services.accounts.authenticator.forgetUser(token.owner.id)
      auth.auditDetails.name = token.name
      auth.auditDetails.owner = token.owner.username
      return noContent()
    },
  }),
]
