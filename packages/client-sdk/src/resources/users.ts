import type { Page, User, UserCreate, UserListQuery, UserPatch } from '@complib/core'
import type * as z from 'zod'
import { iteratePages, readPage } from '../_internal/paging'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions, IterateQueryOf, QueryOf } from '../_internal/types'

/**
 * `client.users`: the accounts of the server (admins only). Passwords are
 * write-only: no answer carries one.
 *
 * @example
 * const ada = await client.users.create({ username: 'ada', password: 'a long passphrase', role: 'editor' })
 * await client.users.patch(ada.id, { role: 'viewer' }, { ifMatch: ada.version })
 */
export function createUsersResource(t: Transport) {
  return {
    /** One page of accounts, by user name; `q` matches part of a user or display name. */
    list: (query: QueryOf<typeof UserListQuery> = {}): Promise<Page<User>> => readPage(t, '/users', query),
    iterate: (query: IterateQueryOf<typeof UserListQuery> = {}): AsyncGenerator<User, void, undefined> => iteratePages(t, '/users', query),
    get: (id: string): Promise<User> => t.call('GET', path`/users/${id}`),
    /** A taken user name is a `ConflictError`. */
    create: (body: z.input<typeof UserCreate>): Promise<User> => t.call('POST', '/users', { body }),
    /**
     * Role, display name, `disabled`, or a new `password` (a reset: the
     * account's sessions end). Demoting or disabling the last enabled admin
     * is a `ConflictError`.
     */
    patch: (id: string, body: z.input<typeof UserPatch>, options: IfMatchOptions = {}): Promise<User> =>
      t.call('PATCH', path`/users/${id}`, { body, ifMatch: options.ifMatch }),
  }
}

export type UsersResource = ReturnType<typeof createUsersResource>
