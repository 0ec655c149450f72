import { ComplibError } from '../errors'

/**
 * Why a provider could not answer, in the words every source uses, so the
 * server turns each into the same problem (decision 1606):
 * - `auth`: the provider refused the credentials (502: fix the source's config);
 * - `quota`: its limit, or ours kept on its behalf, is spent (429, `Retry-After`);
 * - `unavailable`: it failed or could not be reached (503, try later);
 * - `timeout`: it did not answer in time (503);
 * - `bad-answer`: it answered something that is not what its documentation says (502);
 * - `refused`: it refused the request itself, e.g. a query it cannot take (400).
 */
export type SourceErrorKind = 'auth' | 'quota' | 'unavailable' | 'timeout' | 'bad-answer' | 'refused'

export class SourceError extends Error {
  readonly kind: SourceErrorKind
  /** Seconds to wait before asking again, when the provider said (or our limiter knows). */
  readonly retryAfter: number | undefined

  constructor(kind: SourceErrorKind, message: string, options: { retryAfter?: number | undefined; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'SourceError'
    this.kind = kind
    this.retryAfter = options.retryAfter
  }
}

export function isSourceError(error: unknown): error is SourceError {
  return error instanceof SourceError || (error instanceof Error && error.name === 'SourceError' && typeof (error as SourceError).kind === 'string')
}

/**
 * The problem a source's failure answers with, naming the source so the
 * caller knows whose fault it is and what to do. The message is the source's
 * own, which never holds a credential (the shared suite checks it).
 */
export function sourceProblem(error: SourceError, sourceName: string): ComplibError {
  const detail = `source "${sourceName}": ${error.message}`
  switch (error.kind) {
    case 'auth':
      return new ComplibError('BAD_GATEWAY', `${detail} (the provider refused the source's credentials: check them with PATCH /api/sources/{id})`, { cause: error })
    case 'quota': {
      const retry = Math.max(1, Math.ceil(error.retryAfter ?? 60))
      return new ComplibError('TOO_MANY_REQUESTS', `${detail} (retry in ${retry} s)`, { cause: error, headers: { 'retry-after': String(retry) } })
    }
    case 'unavailable':
    case 'timeout': {
      const headers = error.retryAfter === undefined ? undefined : { 'retry-after': String(Math.max(1, Math.ceil(error.retryAfter))) }
      return new ComplibError('SERVICE_UNAVAILABLE', `${detail} (the provider did not answer usefully: try again later)`, { cause: error, ...(headers ? { headers } : {}) })
    }
    case 'bad-answer':
      return new ComplibError('BAD_GATEWAY', `${detail} (the provider's answer is not what its documentation describes)`, { cause: error })
    case 'refused':
      return new ComplibError('BAD_REQUEST', detail, { cause: error })
  }
}
