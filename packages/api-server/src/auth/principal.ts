import type { Actor, Role, User } from '@complib/core'
import { ROLE_PERMISSIONS, type Permission } from './permissions'

/** How a caller proved who it is. */
export type CredentialKind = 'session' | 'token' | 'api-key' | 'local' | 'none'

/**
 * Who a request acts as, after its credential was checked: the actor history
 * records, and the role it acts with now (a token's is its scope met with its
 * owner's current role).
 */
export interface Principal {
  actor: Actor
  role: Role
  permissions: ReadonlySet<Permission>
  via: CredentialKind
  /** The account behind a session or token; null for the API key and keyless loopback mode. */
  user: User | null
  /** The token used, when one was. */
  tokenId: string | null
  /** The hash of the sign-in session used, when one was. */
  sessionHash: string | null
}

/** The only caller when no account exists and the server listens on loopback: one person's laptop. */
export const LOCAL_PRINCIPAL: Principal = _principal({ kind: 'local', id: null, name: 'local' }, 'admin', 'local', null)

/** The bootstrap credential `--api-key`: an admin without an account (decision 1504). */
export const API_KEY_PRINCIPAL: Principal = _principal({ kind: 'api-key', id: null, name: 'api-key' }, 'admin', 'api-key', null)

export function sessionPrincipal(user: User, sessionHash: string): Principal {
  return { ..._principal({ kind: 'user', id: user.id, name: user.username }, user.role, 'session', user), sessionHash }
}

/** A token acts as its owner, named by both, with `role` (the scope met with the owner's role). */
export function tokenPrincipal(owner: User, tokenId: string, tokenName: string, role: Role): Principal {
  return { ..._principal({ kind: 'token', id: tokenId, name: `${owner.username} (token ${tokenName})` }, role, 'token', owner), tokenId }
}

function _principal(actor: Actor, role: Role, via: CredentialKind, user: User | null): Principal {
  return { actor, role, permissions: ROLE_PERMISSIONS[role], via, user, tokenId: null, sessionHash: null }
}

/** A caller without a credential, on a route anyone may call (health, sign-in). */
export const ANONYMOUS_PRINCIPAL: Principal = { ..._principal({ kind: 'anonymous', id: null, name: 'anonymous' }, 'viewer', 'none', null), permissions: new Set(['public']) }
