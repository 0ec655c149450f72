import { isSourceError } from '@complib/core'
import { describe, expect, it } from 'vitest'
import { createLimiter } from '../../src/runtime/limiter'

describe('the limiter of a source', () => {
  it('never lets more than the documented requests start in any minute, spacing the rest', async () => {
    let clock = 0
    const limiter = createLimiter({ requestsPerMinute: 3, requestsPerDay: null, maxWaitMs: 0, now: () => clock })
    await limiter.take()
    await limiter.take()
    await limiter.take()
    const refused = await limiter.take().then(
      () => null,
      (e: unknown) => e,
    )
    expect(isSourceError(refused) && refused.kind).toBe('quota')
    expect((refused as { retryAfter: number }).retryAfter).toBe(61)
    clock = 60_501
    await limiter.take()
    expect(limiter.used().minute).toBe(1)
  })

  it('waits for its turn when it comes soon enough', async () => {
    const limiter = createLimiter({ requestsPerMinute: 600, requestsPerDay: null })
    const started = performance.now()
    // 600 a minute: the 601st start waits for the first to leave the window; 3 starts fit at once.
    await Promise.all([limiter.take(), limiter.take(), limiter.take()])
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it('refuses at once past the day quota, saying when it frees', async () => {
    let clock = 1_000
    const limiter = createLimiter({ requestsPerMinute: null, requestsPerDay: 2, now: () => clock })
    await limiter.take()
    clock += 3_600_000
    await limiter.take()
    const refused = (await limiter.take().catch((e: unknown) => e)) as { kind: string; retryAfter: number; message: string }
    expect(refused.kind).toBe('quota')
    expect(refused.message).toContain('daily quota of 2')
    expect(refused.retryAfter).toBe(23 * 3600 + 1)
  })
})
