import { createHash, timingSafeEqual } from 'node:crypto'
import { isIP } from 'node:net'

/** Whether `host` only accepts connections from this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (h === 'localhost') return true
  if (isIP(h) === 4) return h.startsWith('127.')
  if (isIP(h) === 6) return h === '::1' || h.startsWith('::ffff:127.')
  return false
}

/**
 * Checks an `Authorization: Bearer <key>` header (or `Token <key>`, which is
 * what KiCad's HTTP library sends) against the configured key in constant
 * time (both sides are hashed first, so lengths do not leak).
 */
export function isAuthorized(header: string | null, apiKey: string): boolean {
  const match = header ? /^(?:Bearer|Token)\s+(.+)$/i.exec(header.trim()) : null
  if (!match) return false
  const given = createHash('sha256').update(match[1]!).digest()
  const expected = createHash('sha256').update(apiKey).digest()
  return timingSafeEqual(given, expected)
}
