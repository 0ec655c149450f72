import type { Role, Storage, TokenScope, User } from '@complib/core'
import { hashPassword } from '../src/auth/passwords'
import { newToken, secretHash, tokenPrefix } from '../src/auth/secrets'

/** The password every test account has. */
export const PASSWORD = 'correct horse battery'

/**
 * An account made straight in the storage, its password hashed with cheap
 * scrypt parameters (a test makes many; the server re-hashes at sign-in, as it
 * would any hash weaker than today's).
 */
export async function addUser(storage: Storage, username: string, role: Role, password = PASSWORD): Promise<User> {
  return storage.users.create({ username, displayName: username[0]!.toUpperCase() + username.slice(1), role, passwordHash: await hashPassword(password, { N: 1024, r: 8, p: 1 }) })
}

/** A token for `user`, as the server would make it; returns the token itself. */
export async function addToken(storage: Storage, user: User, scope: TokenScope, expiresAt: string | null = null): Promise<string> {
  const token = newToken()
  await storage.tokens.create({ name: `${scope} token`, scope, ownerId: user.id, hash: secretHash(token), prefix: tokenPrefix(token), expiresAt })
  return token
}

/** `Authorization` for a token. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` }
}
