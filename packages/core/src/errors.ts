import * as z from 'zod'

/**
 * Every error code the service can answer with, and its HTTP status. One
 * table, so a code can never be sent with two different statuses.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  INVALID_TRANSITION: 409,
  REQUEST_TIMEOUT: 408,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

const TITLES: Record<ErrorCode, string> = {
  BAD_REQUEST: 'Bad request',
  VALIDATION_FAILED: 'Validation failed',
  UNAUTHORIZED: 'Unauthorized',
  FORBIDDEN: 'Forbidden',
  NOT_FOUND: 'Not found',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  CONFLICT: 'Conflict',
  INVALID_TRANSITION: 'Invalid status transition',
  REQUEST_TIMEOUT: 'Request timeout',
  PRECONDITION_FAILED: 'Precondition failed',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  TOO_MANY_REQUESTS: 'Too many requests',
  HEADERS_TOO_LARGE: 'Request header fields too large',
  INTERNAL: 'Internal server error',
  NOT_IMPLEMENTED: 'Not implemented',
  BAD_GATEWAY: 'Bad gateway',
  SERVICE_UNAVAILABLE: 'Service unavailable',
  INSUFFICIENT_STORAGE: 'Insufficient storage',
}

/** One field-level problem: `path` names the field, e.g. `query.limit` or `body.mpns[0].partNumber`. */
export interface FieldError {
  path: string
  message: string
}

/** RFC 9457 problem details, as sent with `content-type: application/problem+json`. */
export const Problem = z
  .object({
    type: z.string().meta({ example: 'urn:complib:problem:validation-failed' }),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    code: z.string().meta({ description: 'Stable machine-readable code, e.g. NOT_FOUND' }),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details' })
export type Problem = z.infer<typeof Problem>

export interface ComplibErrorOptions {
  errors?: FieldError[]
  cause?: unknown
  /** Extra response headers, e.g. `Allow` or `Retry-After`. */
  headers?: Record<string, string>
}

/**
 * The one error class of complib. Thrown anywhere (storage, routes, connectors)
 * and turned into an RFC 9457 problem at the HTTP edge.
 *
 * @example
 * throw new ComplibError('NOT_FOUND', `component ${id} does not exist`)
 */
export class ComplibError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly detail: string
  readonly errors: FieldError[] | undefined
  readonly headers: Record<string, string> | undefined

  constructor(code: ErrorCode, detail: string, options: ComplibErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ComplibError'
    this.code = code
    this.status = ERROR_STATUS[code]
    this.detail = detail
    this.errors = options.errors
    this.headers = options.headers
  }

  /** The problem+json body of this error. */
  toProblem(): Problem {
    return {
      type: `urn:complib:problem:${this.code.toLowerCase().replaceAll('_', '-')}`,
      title: TITLES[this.code],
      status: this.status,
      detail: this.detail,
      code: this.code,
      ...(this.errors?.length ? { errors: this.errors } : {}),
    }
  }
}

/** Whether `value` is a ComplibError (also across package copies). */
export function isComplibError(value: unknown): value is ComplibError {
  return value instanceof ComplibError || (value instanceof Error && value.name === 'ComplibError' && 'code' in value)
}

/**
 * Turns a zod error into a 400 naming every offending field, with `location`
 * (`body`, `query`, `path`, `headers`) as the first path segment.
 */
export function fromZodError(error: z.ZodError, location?: string): ComplibError {
  const errors = error.issues.map((issue) => ({
    path: toFieldPath(location, issue.path),
    // zod says "Invalid input: expected string, received undefined" for a missing field.
    message: issue.code === 'invalid_type' && /received undefined$/.test(issue.message) ? 'required' : issue.message,
  }))
  const first = errors[0]
  const detail = first ? `${first.path || location || 'input'}: ${first.message}` : 'invalid input'
  return new ComplibError('VALIDATION_FAILED', detail, { errors, cause: error })
}

/**
 * Turns anything thrown into a ComplibError. Unknown errors become a 500 whose
 * detail does not leak the cause (the cause is kept for logging).
 */
export function toComplibError(error: unknown): ComplibError {
  if (isComplibError(error)) return error
  if (error instanceof z.ZodError) return fromZodError(error)
  return new ComplibError('INTERNAL', 'the server failed to handle the request', { cause: error })
}

/** `['mpns', 0, 'partNumber']` → `mpns[0].partNumber`, optionally under a location prefix. */
export function toFieldPath(location: string | undefined, path: readonly PropertyKey[]): string {
  let out = location ?? ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else out += out ? `.${String(key)}` : String(key)
  }
  return out
}
