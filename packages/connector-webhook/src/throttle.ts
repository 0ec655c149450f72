import pLimit from 'p-limit'

export interface ThrottleOptions {
  /** Requests in flight at once. */
  concurrency: number
  /** Requests started per second, at most, over any one-second window. */
  requestsPerSecond: number
}

/**
 * The outbound throttle of a run: at most `concurrency` requests in flight
 * (p-limit), and starts spaced at least 1000/requestsPerSecond ms apart, so
 * no one-second window holds more than `requestsPerSecond` starts.
 *
 * @example
 * const throttle = createThrottle({ concurrency: 4, requestsPerSecond: 10 })
 * await throttle(() => fetch(url))
 */
export function createThrottle(options: ThrottleOptions): <T>(fn: () => Promise<T>) => Promise<T> {
  const limit = pLimit(options.concurrency)
  const interval = 1000 / options.requestsPerSecond
  let nextStart = 0
  return (fn) =>
    limit(async () => {
      // Reserve a start slot before waiting, so concurrent callers queue in order.
      const now = performance.now()
      const at = Math.max(now, nextStart)
      nextStart = at + interval
      if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now))
      return fn()
    })
}
