import { SourceError, type SourceLimits } from '@complib/core'

export interface LimiterOptions extends SourceLimits {
  /** The longest a request waits for its turn before it is refused as over quota (default 20 s). */
  maxWaitMs?: number | undefined
  /** The clock, for tests. */
  now?: (() => number) | undefined
}

/**
 * Keeps one configured source within its provider's documented limits
 * (decision 1605): starts are spaced so that no sliding minute holds more
 * than `requestsPerMinute`, and no sliding day more than `requestsPerDay`. A
 * request that would wait longer than `maxWaitMs` for its turn, or one past
 * the day's quota, is refused at once with a `quota` SourceError and its
 * `retryAfter`, instead of holding the caller's request open for minutes.
 *
 * Written here rather than taken from p-throttle: that one queues without
 * bound and knows no daily quota to refuse on.
 */
export function createLimiter(options: LimiterOptions): { take(maxWaitMs?: number): Promise<void>; used(): { minute: number; day: number } } {
  const maxWait = options.maxWaitMs ?? 20_000
  const clock = options.now ?? Date.now
  const minute: number[] = []
  const day: number[] = []
  const prune = (at: number) => {
    while (minute.length && minute[0]! <= at - MINUTE) minute.shift()
    while (day.length && day[0]! <= at - DAY) day.shift()
  }
  // Turns are handed out in the order asked: the time each may start is booked when it asks.
  const take = async (wait: number = maxWait): Promise<void> => {
    const at = clock()
    prune(at)
    let start = at
    if (options.requestsPerDay !== null && day.length >= options.requestsPerDay) {
      const retryAfter = Math.ceil((day[day.length - options.requestsPerDay]! + DAY - at) / 1000)
      throw new SourceError('quota', `the provider's daily quota of ${options.requestsPerDay} requests is spent`, { retryAfter })
    }
    if (options.requestsPerMinute !== null) {
      const perMinute = Math.max(1, Math.floor(options.requestsPerMinute))
      if (minute.length >= perMinute) start = Math.max(at, minute[minute.length - perMinute]! + MINUTE)
    }
    if (start - at > wait) {
      throw new SourceError('quota', `the provider allows ${options.requestsPerMinute} requests a minute and more are waiting`, { retryAfter: Math.ceil((start - at) / 1000) })
    }
    minute.push(start)
    day.push(start)
    if (start > at) await new Promise((resolve) => setTimeout(resolve, start - at))
  }
  return { take, used: () => (prune(clock()), { minute: minute.length, day: day.length }) }
}

// Half a second more than a minute: a request that left late (a busy event loop, a slow connect) cannot bring two windows' worth into the provider's one.
const MINUTE = 60_500
const DAY = 24 * 60 * 60_000 + 500
