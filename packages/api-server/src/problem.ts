import { ComplibError, toComplibError } from '@complib/core'

/**
 * The one place an error becomes a response: RFC 9457 problem+json. Unknown
 * errors are logged with their cause and answered as a 500 that leaks nothing.
 */
export function toProblemResponse(error: unknown, log: (message: string, cause?: unknown) => void = _logError): Response {
  const e = toComplibError(error)
  if (e.status >= 500) log(`[api] ${e.code}: ${e.detail}`, e.cause ?? error)
  const headers = new Headers(e.headers)
  headers.set('content-type', 'application/problem+json')
  return new Response(JSON.stringify(e.toProblem()), { status: e.status, headers })
}

/** A problem response for a code, without throwing. */
export function problem(code: ConstructorParameters<typeof ComplibError>[0], detail: string): Response {
  return toProblemResponse(new ComplibError(code, detail))
}

function _logError(message: string, cause?: unknown): void {
  console.error(message, cause)
}
