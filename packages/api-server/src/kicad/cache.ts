import { createHash } from 'node:crypto'
import type { KicadSettings } from '@complib/core'
import { FastResponse } from 'srvx'

/**
 * Caching headers for KiCad's routes (decision 0636). The validator is a
 * digest of the answer's bytes and of the KiCad settings: it changes exactly
 * when what the client is sent changes (a part, its category, symbol,
 * footprint, datasheet or value template), and when an admin changes the
 * KiCad settings, even a setting the body does not show (the max-age).
 * `private`: the answers are read with a user's credentials, so a shared
 * cache must not keep them.
 */
export function kicadAnswer(req: Request, body: string | readonly Uint8Array[], settings: KicadSettings): Response {
  const hash = createHash('sha256').update(JSON.stringify(settings))
  const parts = typeof body === 'string' ? [Buffer.from(body)] : body
  for (const part of parts) hash.update(part)
  const tag = `"${hash.digest('base64url').slice(0, 27)}"`
  const headers = { etag: tag, 'cache-control': `private, max-age=${settings.cacheMaxAge}` }
  if (matches(req.headers.get('if-none-match'), tag)) return new FastResponse(null, { status: 304, headers }) as unknown as Response
  const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts)
  return new FastResponse(bytes, { status: 200, headers: { ...headers, 'content-type': 'application/json' } }) as unknown as Response
}

/** If-None-Match (RFC 9110 §13.1.2): `*`, or a list of tags compared weakly (a `W/` prefix ignored). */
export function matches(header: string | null, tag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === tag)
}
