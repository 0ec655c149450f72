import { ComplibError, User, UserCreate, UserListQuery, UserPatch, idSchema, type Storage } from '@complib/core'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'
import { PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { created, etag, withHeaders } from '../routing/reply'
import { ifMatchVersion } from '../routing/request'

const Params = z.object({ id: idSchema('user') })

export const userRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/users',
    group: 'users',
    operationId: 'listUsers',
    permission: 'users:admin',
    summary: 'List accounts, by user name',
    query: UserListQuery,
    responses: { 200: { description: 'Accounts', schema: z.array(User), headers: PAGE_HEADERS } },
    handler: async ({ query, services, url }) => {
      const page = await services.storage.users.list(query)
      return withHeaders(page.items, pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/users',
    group: 'users',
    operationId: 'createUser',
    permission: 'users:admin',
    summary: 'Create an account',
    body: UserCreate,
    errors: ['CONFLICT'],
    responses: { 201: { description: 'Created', schema: User, headers: { location: { description: 'URL of the account' } } } },
    handler: async ({ body, services, auth }) => {
      const { accounts, storage } = services
      const user = await storage.users.create({
        username: body.username,
        displayName: body.displayName ?? body.username,
        role: body.role,
        passwordHash: await accounts.hashPassword(body.password),
      })
      // Every server asks for credentials from the first account on: this one at once.
      accounts.authenticator.forgetUser(user.id)
      auth.auditTarget = { type: 'user', id: user.id }
      auth.auditDetails.username = user.username
      auth.auditDetails.role = user.role
      return created(user, `/api/users/${user.id}`)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/users/{id}',
    group: 'users',
    operationId: 'getUser',
    permission: 'users:admin',
    summary: 'Get an account',
    params: Params,
    responses: { 200: { description: 'The account', schema: User, headers: { etag: { description: 'Its version' } } } },
    handler: async ({ params, services }) => {
      const user = await services.storage.users.get(params.id)
      return withHeaders(user, { etag: etag(user.version) })
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/users/{id}',
    group: 'users',
    operationId: 'patchUser',
    permission: 'users:admin',
    ifMatch: true,
    summary: 'Change an account: role, display name, disable, or reset its password',
    description:
      'A new role applies at once to the account’s sessions and tokens (a token acts with its scope met with its owner’s role now). ' +
      'Disabling or a password reset ends its sessions. The last enabled admin cannot be demoted or disabled (409).',
    params: Params,
    body: UserPatch,
    errors: ['CONFLICT', 'PRECONDITION_FAILED'],
    responses: { 200: { description: 'The account', schema: User } },
    handler: async ({ params, body, services, auth, event }) => {
      const { accounts, storage } = services
      const before = await storage.users.get(params.id)
      if (before.role === 'admin' && !before.disabled && ((body.role && body.role !== 'admin') || body.disabled === true)) await _assertAnotherAdmin(storage, before.id)
      const user = await storage.users.update(
        params.id,
        {
          ...(body.displayName !== undefined ? { displayName: body.displayName } : {}),
          ...(body.role !== undefined ? { role: body.role } : {}),
          ...(body.disabled !== undefined ? { disabled: body.disabled } : {}),
          ...(body.password !== undefined ? { passwordHash: await accounts.hashPassword(body.password) } : {}),
        },
        { ifVersion: ifMatchVersion(event.req) },
      )
      accounts.authenticator.forgetUser(user.id)
      // What changed, never the password itself.
      if (body.role !== undefined && body.role !== before.role) auth.auditDetails.role = { from: before.role, to: user.role }
      if (body.disabled !== undefined && body.disabled !== before.disabled) auth.auditDetails.disabled = user.disabled
      if (body.password !== undefined) auth.auditDetails.passwordReset = true
      if (body.displayName !== undefined && body.displayName !== before.displayName) auth.auditDetails.displayName = user.displayName
      return user
    },
  }),
]

/** 409 when `id` is the only enabled admin: a team must not lock itself out of its own server. */
async function _assertAnotherAdmin(storage: Storage, id: string): Promise<void> {
  let cursor: string | undefined
  do {
    const page = await storage.users.list({ limit: 1000, cursor })
    if (page.items.some((u) => u.id !== id && u.role === 'admin' && !u.disabled)) return
    cursor = page.nextCursor ?? undefined
  } while (cursor)
  throw new ComplibError('CONFLICT', 'this is the last enabled admin: make another admin first', { errors: [{ path: 'role', message: 'the last enabled admin' }] })
}
