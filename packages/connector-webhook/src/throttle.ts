import pLimit from 'p-limit'

export interface ThrottleOptions {
  /** Requests in flight at once. */
  concurrency: number
  /** Requests started per second, at most, over any one-second window. */
  requestsPerSecond: number
}

/**
 * The outbound throttle of a run: at most `concurrency` requests in flight
 * (p-limit), and at most `requestsPerSecond` starts in any one-second window,
 * measured at the moment each request really starts. A start waits until the
 * start `requestsPerSecond` places before it is more than a second old, so a
 * late timer or a busy event loop can only make starts later, never closer
 * together (evenly spaced slots, which this replaced, let six starts fall
 * within 995 ms at 5 per second when one slot ran late).
 *
 * @example
 * const throttle = createThrottle({ concurrency: 4, requestsPerSecond: 10 })
 * await throttle(() => fetch(url))
 */
export function createThrottle(options: ThrottleOptions): <T>(fn: () => Promise<T>) => Promise<T> {
  const limit = pLimit(options.concurrency)
  const perSecond = Math.max(1, Math.floor(options.requestsPerSecond))
  // The last `perSecond` starts, oldest first. A start is entered when its slot is granted and
  // its time set again the moment the request really starts (a busy event loop can delay that).
  const starts: Array<{ at: number }> = []
  // Slots are handed out one caller at a time, in the order they asked.
  let turn: Promise<unknown> = Promise.resolve()
  const takeSlot = (): Promise<{ at: number }> => {
    const slot = turn.then(async () => {
      for (;;) {
        if (starts.length < perSecond) break
        const wait = starts[0]!.at + WINDOW_MS - performance.now()
        if (wait < 0) break
        await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait) + 1))
      }
      const entry = { at: performance.now() }
      starts.push(entry)
      if (starts.length > perSecond) starts.shift()
      return entry
    })
    turn = slot
    return slot
  }
  return (fn) =>
    limit(async () => {
      const entry = await takeSlot()
      entry.at = performance.now()
      return fn()
    })
}

/** The window with a margin: a start exactly one second after another shares no closed one-second window with it, and a pause between the recorded start and the request itself does not bring two into one. */
const WINDOW_MS = 1010
