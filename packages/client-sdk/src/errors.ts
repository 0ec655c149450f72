import type { ErrorCode, FieldError, Problem } from '@complib/core'

/**
 * An answer of the API that was not a success. Carries the RFC 9457 problem
 * body: `status`, a stable `code` (`NOT_FOUND`, `PRECONDITION_FAILED`, …),
 * `detail`, and `errors` naming the offending fields (`body.name`).
 *
 * The common cases have their own subclasses, so a script can
 * `catch (e) { if (e instanceof PreconditionFailedError) … }`.
 */
export class ComplibApiError extends Error {
  readonly status: number
  /** Stable machine-readable code; one of core's `ErrorCode`s, or `HTTP_<status>` for an answer that was not a problem body (a proxy's error page). */
  readonly code: ErrorCode | `HTTP_${number}`
  readonly detail: string
  /** Field errors: `[{ path: 'body.ipn', message: '…' }]`; empty when the problem names none. */
  readonly errors: FieldError[]
  /** The problem body as received. */
  readonly problem: Problem
  /** `PATCH /api/components/cmp_…`: the request that failed. */
  readonly request: string

  constructor(problem: Problem, request = '') {
    super(`[complib] ${request ? `${request}: ` : ''}${problem.status} ${problem.code}: ${problem.detail}`)
    this.name = new.target.name
    this.status = problem.status
    this.code = problem.code as ComplibApiError['code']
    this.detail = problem.detail
    this.errors = problem.errors ?? []
    this.problem = problem
    this.request = request
  }
}

/** 400: the request was invalid; `errors` names each field. */
export class ValidationError extends ComplibApiError {}
/** 404: no such record (or no such route). */
export class NotFoundError extends ComplibApiError {}
/** 409: a conflict with the current state (duplicate ipn, status transition, a record still in use). */
export class ConflictError extends ComplibApiError {}
/** 412: `If-Match` named an older version: someone changed the record since you read it. */
export class PreconditionFailedError extends ComplibApiError {}

/** The request got no answer (connection refused, reset, timeout), after the retries. */
export class ComplibNetworkError extends Error {
  readonly request: string
  constructor(request: string, cause: unknown) {
    super(`[complib] ${request}: no answer (${cause instanceof Error ? cause.message : String(cause)})`, { cause })
    this.name = 'ComplibNetworkError'
    this.request = request
  }
}

/**
 * Whether `error` is an API error, optionally with a given code.
 *
 * @example
 * try { await client.components.get(id) } catch (e) { if (isComplibApiError(e, 'NOT_FOUND')) … }
 */
export function isComplibApiError(error: unknown, code?: ErrorCode): error is ComplibApiError {
  return error instanceof ComplibApiError && (code === undefined || error.code === code)
}

/** The error class for a problem body. */
export function toApiError(problem: Problem, request: string): ComplibApiError {
  switch (problem.status) {
    case 400:
      return new ValidationError(problem, request)
    case 404:
      return new NotFoundError(problem, request)
    case 409:
      return new ConflictError(problem, request)
    case 412:
      return new PreconditionFailedError(problem, request)
    default:
      return new ComplibApiError(problem, request)
  }
}
