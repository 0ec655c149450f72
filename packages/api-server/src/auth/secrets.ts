import { createHash, randomBytes } from 'node:crypto'

/**
 * API tokens and sign-in session ids: 32 random bytes (256 bits) in base64url,
 * stored only as their SHA-256. A fast hash is enough here, unlike for
 * passwords: a guess at 256 random bits is hopeless, and a lookup by hash
 * costs every request nothing (decision 1503).
 */
export const TOKEN_PREFIX = 'clt_'

/** A new API token: `clt_` and 43 base64url characters. */
export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url')
}

/** A new sign-in session id (the cookie's value). */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url')
}

/** What is stored of a token or session id. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

/** The start of a token shown in lists, to tell tokens apart: `clt_` and 4 characters. */
export function tokenPrefix(token: string): string {
  return token.slice(0, TOKEN_PREFIX.length + 4)
}

/** Whether text has the form of one of our tokens (a 400 would help no one: a wrong one is a 401). */
export function looksLikeToken(text: string): boolean {
  return /^clt_[A-Za-z0-9_-]{43}$/.test(text)
}
