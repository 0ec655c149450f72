import { isSourceError, type SourceError } from '@complib/core'
import { expect } from 'vitest'

/** The SourceError a call fails with; the test fails when it succeeds or fails otherwise. */
export async function failure(promise: Promise<unknown>): Promise<SourceError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(isSourceError(error), `expected a SourceError, got ${String(error)}`).toBe(true)
  return error as SourceError
}
