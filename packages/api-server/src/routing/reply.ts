import { FastResponse } from 'srvx'

/**
 * A handler's answer with a status and headers other than the route's
 * default; returning a plain value answers it as JSON with the default status.
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** 201 Created with a `Location` header. */
export function created(body: unknown, location: string): Reply {
  return new Reply(201, body, { location })
}

/** 204 No Content. */
export function noContent(): Reply {
  return new Reply(204, undefined)
}

/** A JSON answer with extra headers (ETag, Link, X-Total-Count…). */
export function withHeaders(body: unknown, headers: Record<string, string>, status = 200): Reply {
  return new Reply(status, body, headers)
}

/** The strong ETag of a record version. */
export function etag(version: number): string {
  return `"${version}"`
}

/**
 * A JSON answer from its text or its UTF-8 bytes. srvx's FastResponse: served on Node, it is
 * written as head and body in one go with a content-length; a global Response
 * would be read back as a web stream and sent chunked (a third of the
 * server's time on `GET /api/components/:id` went to those extra writes).
 */
export function jsonResponse(text: string | Uint8Array, status = 200, headers: Readonly<Record<string, string>> = {}): Response {
  // A plain object: srvx writes it as is, where a Headers object (undici's) costs a construction per response.
  return new FastResponse(text, { status, headers: { ...headers, 'content-type': 'application/json' } }) as unknown as Response
}
