import { FastResponse } from 'srvx'

/**
 * A handler's answer with a status and headers other than the route's
 * default; returning a plain value answers it as JSON with the default status.
 * The status is a literal type, so a route's `responses` decide which
 * statuses and bodies its handler may give (RouteAnswer).
 */
export class Reply<S extends number = number, B = unknown> {
  constructor(
    readonly status: S,
    readonly body: B,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** 201 Created with a `Location` header. */
export function created<B extends {} | null>(body: B, location: string): Reply<201, B> {
  return new Reply(201, body, { location })
}

/** 204 No Content. */
export function noContent(): Reply<204, undefined> {
  return new Reply(204, undefined)
}

/** A JSON answer with extra headers (ETag, Link, X-Total-Count…), 200 unless `status` says otherwise. */
export function withHeaders<B extends {} | null>(body: B, headers: Record<string, string>): Reply<200, B>
export function withHeaders<B extends {} | null, const S extends number>(body: B, headers: Record<string, string>, status: S): Reply<S, B>
export function withHeaders(body: {} | null, headers: Record<string, string>, status = 200): Reply {
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
