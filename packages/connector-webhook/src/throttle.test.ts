import { describe, expect, it } from 'vitest'
import { createThrottle } from './throttle'

describe('createThrottle', () => {
  it('six starts fell within 995 ms at 5 per second; now no one-second window holds more than 5 starts, even when the event loop stalls', async () => {
    const throttle = createThrottle({ concurrency: 8, requestsPerSecond: 5 })
    const starts: number[] = []
    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        throttle(async () => {
          starts.push(performance.now())
          // Stall the event loop now and then, as a busy server does.
          if (i % 4 === 1) {
            const until = performance.now() + 120
            while (performance.now() < until) {
              // busy
            }
          }
        }),
      ),
    )
    starts.sort((a, b) => a - b)
    for (let i = 0; i + 5 < starts.length; i++) expect(starts[i + 5]! - starts[i]!, `starts ${i} and ${i + 5}`).toBeGreaterThan(1000)
    // …and it does not crawl: 16 starts at 5 per second take about 3 seconds, not more than 4.
    expect(starts.at(-1)! - starts[0]!).toBeLessThan(4000)
  }, 10_000)

  it('keeps at most `concurrency` requests in flight', async () => {
    const throttle = createThrottle({ concurrency: 2, requestsPerSecond: 1000 })
    let inFlight = 0
    let most = 0
    await Promise.all(
      Array.from({ length: 10 }, () =>
        throttle(async () => {
          most = Math.max(most, ++inFlight)
          await new Promise((r) => setTimeout(r, 20))
          inFlight--
        }),
      ),
    )
    expect(most).toBe(2)
  })
})
