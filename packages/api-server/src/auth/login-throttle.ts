import { LRUCache } from 'lru-cache'

/**
 * Slows password guessing (decision 1505): per account and per client
 * address, the first FREE_FAILURES failures within WINDOW_MS cost nothing;
 * each one after doubles the wait before the next attempt is heard (from 1 s
 * up to MAX_WAIT_MS), answered 429 with Retry-After. A success clears the
 * account's count (the client's stays: one address trying many accounts is
 * the pattern to slow). Kept in memory per server: several servers each slow
 * on their own, which still bounds guessing by their number.
 */
export const FREE_FAILURES = 5
const WINDOW_MS = 15 * 60_000
const MAX_WAIT_MS = 15 * 60_000

interface Failures {
  count: number
  last: number
}

export interface LoginThrottle {
  /** Milliseconds to wait before an attempt for (`username`, `client`) is heard; 0 when it may go ahead. */
  wait(username: string, client: string, now?: number): number
  failed(username: string, client: string, now?: number): void
  succeeded(username: string): void
}

export function createLoginThrottle(): LoginThrottle {
  // Bounded: a flood of made-up names cannot grow it without limit (the oldest are forgotten).
  const byKey = new LRUCache<string, Failures>({ max: 50_000, ttl: WINDOW_MS })
  const waitFor = (key: string, now: number): number => {
    const f = byKey.get(key)
    if (!f || f.count < FREE_FAILURES) return 0
    const wait = Math.min(MAX_WAIT_MS, 1000 * 2 ** (f.count - FREE_FAILURES))
    return Math.max(0, f.last + wait - now)
  }
  const fail = (key: string, now: number) => {
    const f = byKey.get(key)
    byKey.set(key, { count: (f?.count ?? 0) + 1, last: now })
  }
  return {
    wait: (username, client, now = Date.now()) => Math.max(waitFor(`u:${username}`, now), waitFor(`c:${client}`, now)),
    failed(username, client, now = Date.now()) {
      fail(`u:${username}`, now)
      fail(`c:${client}`, now)
    },
    succeeded(username) {
      byKey.delete(`u:${username}`)
    },
  }
}
