import type { LoginRequest, Me, PasswordChange } from '@complib/core'
import type * as z from 'zod'
import type { Transport } from '../_internal/transport'

/**
 * `client.auth`: who the credential acts as, and the web interface's
 * sign-in. `login` starts a session held in an HttpOnly cookie: a browser on
 * the server's own origin keeps and sends it; Node's fetch keeps no cookies,
 * so a script signs in with a `token` instead (see `client.tokens`).
 *
 * @example
 * const me = await client.auth.me()
 * console.log(`${me.actor.name} acts as ${me.role}`)
 */
export function createAuthResource(t: Transport) {
  return {
    /** Signs in (a 401 for a wrong name or password, a 429 with `Retry-After` after several). */
    login: (body: z.input<typeof LoginRequest>): Promise<Me> => t.call('POST', '/auth/login', { body }),
    /** Ends this session and clears its cookie. */
    logout: (): Promise<void> => t.call('POST', '/auth/logout'),
    /** The account, role and permissions of the credential in use. */
    me: (): Promise<Me> => t.call('GET', '/auth/me'),
    /** Changes one's own password: needs a signed-in session (a token cannot), and ends the account's other sessions. */
    changePassword: (body: z.input<typeof PasswordChange>): Promise<void> => t.call('POST', '/auth/password', { body }),
  }
}

export type AuthResource = ReturnType<typeof createAuthResource>
