import { createSourceHttp, isSourceError, type SourceContext, type SourceDefinition, type SourceErrorKind } from '@complib/core'
import { afterEach, describe, expect, it } from 'vitest'
import type { Fake, Fault } from './serve'

export interface FailureMatrixOptions {
  fake: () => Fake
  config: () => Record<string, unknown>
  ref: string
  query: string
  /**
   * Faults to leave to the provider's own test, with why: e.g. a provider
   * whose token endpoint answers first sees the fault there, which the
   * matrix covers the same.
   */
  skip?: Partial<Record<string, string>>
}

/**
 * The provider failures every built-in source meets the same way (decision
 * 1606): 401, 429 with `Retry-After`, 500, malformed JSON, an answer that
 * never comes, and one of 50 MB each become the SourceError the server turns
 * into a clear problem, naming no credential.
 */
export function testFailureMatrix<Config extends Record<string, unknown>>(definition: SourceDefinition<Config>, options: FailureMatrixOptions): void {
  // Only the hang waits for the timeout; the others get one long enough for a loaded machine to read 8 MiB and refuse it.
  const context = (timeoutMs: number): SourceContext<Config> => {
    const raw = options.config()
    const secrets = definition.secretFields.map((f) => raw[f]).filter((v): v is string => typeof v === 'string')
    return {
      config: definition.configSchema.parse(raw),
      http: createSourceHttp({ secrets, timeoutMs }),
      signal: new AbortController().signal,
      memo: new Map(),
      now: () => new Date(),
    }
  }
  const cases: Array<{ name: string; fault: Fault; kind: SourceErrorKind; retryAfter?: number }> = [
    { name: '401', fault: { kind: 'status', status: 401, body: '{"message":"unauthorized"}' }, kind: 'auth' },
    { name: '429 with Retry-After', fault: { kind: 'status', status: 429, body: '{}', headers: { 'retry-after': '17' } }, kind: 'quota', retryAfter: 17 },
    { name: '500', fault: { kind: 'status', status: 500, body: 'oops' }, kind: 'unavailable' },
    { name: 'malformed JSON', fault: { kind: 'malformed' }, kind: 'bad-answer' },
    { name: 'no answer (timeout)', fault: { kind: 'hang' }, kind: 'timeout' },
    { name: 'an answer of 50 MB', fault: { kind: 'huge', bytes: 50 * 1024 * 1024 }, kind: 'bad-answer' },
  ]
  describe(`source type "${definition.type}" when its provider fails`, () => {
    afterEach(() => options.fake().heal())
    for (const c of cases) {
      const skipped = options.skip?.[c.name]
      it.skipIf(skipped !== undefined)(`${c.name} is a "${c.kind}" SourceError, for search and fetch`, async () => {
        for (const call of [(ctx: SourceContext<Config>) => definition.search(options.query, ctx, 5), (ctx: SourceContext<Config>) => definition.fetch(options.ref, ctx)]) {
          options.fake().fail(c.fault)
          const error = await call(context(c.fault.kind === 'hang' ? 500 : 10_000)).then(
            () => null,
            (e: unknown) => e,
          )
          expect(isSourceError(error), `expected a SourceError, got ${String(error)}`).toBe(true)
          expect((error as { kind: string }).kind).toBe(c.kind)
          if (c.retryAfter !== undefined) expect((error as { retryAfter?: number }).retryAfter).toBe(c.retryAfter)
          const raw = options.config()
          for (const f of definition.secretFields) if (typeof raw[f] === 'string') expect((error as Error).message).not.toContain(raw[f])
          options.fake().heal()
        }
      })
    }
  })
}
