import type { Problem } from '@complib/core'

/**
 * An answer of the API that was not a success: carries the RFC 9457 problem
 * body (`code`, `detail`, and `errors` naming the fields).
 */
export class ComplibApiError extends Error {
  readonly status: number
  readonly problem: Problem

  constructor(problem: Problem) {
    super(`[complib] ${problem.status} ${problem.code}: ${problem.detail}`)
    this.name = 'ComplibApiError'
    this.status = problem.status
    this.problem = problem
  }

  get code(): string {
    return this.problem.code
  }
}
