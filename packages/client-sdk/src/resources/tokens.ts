import type { ApiToken, Page, TokenCreate, TokenCreated, TokenListQuery } from '@complib/core'
import type * as z from 'zod'
import { iteratePages, readPage } from '../_internal/paging'
import { path, type Transport } from '../_internal/transport'
import type { IterateQueryOf, QueryOf } from '../_internal/types'

/**
 * `client.tokens`: API tokens, which belong to accounts. A token acts as its
 * owner, within its scope (`read`, `write`, `admin`), until revoked or expired.
 *
 * @example
 * const { token } = await client.tokens.create({ name: 'nightly sync', scope: 'write' })
 * const bot = createClient({ baseUrl, token }) // keep `token`: it is shown only this once
 */
export function createTokensResource(t: Transport) {
  return {
    /** One page of one's own tokens, newest first; admins pass `all: true` for everyone's. Never the tokens themselves. */
    list: (query: QueryOf<typeof TokenListQuery> = {}): Promise<Page<ApiToken>> => readPage(t, '/tokens', query),
    iterate: (query: IterateQueryOf<typeof TokenListQuery> = {}): AsyncGenerator<ApiToken, void, undefined> => iteratePages(t, '/tokens', query),
    /**
     * A new token for the calling account, of the caller's rights or less
     * (the API key and keyless mode have no account: a 403 `FORBIDDEN`). The
     * answer's `token` is the only time the secret is shown.
     */
    create: (body: z.input<typeof TokenCreate>): Promise<TokenCreated> => t.call('POST', '/tokens', { body }),
    /** Revokes one's own token (admins: anyone's); it stops working at once. */
    revoke: (id: string): Promise<void> => t.call('DELETE', path`/tokens/${id}`),
  }
}

export type TokensResource = ReturnType<typeof createTokensResource>
