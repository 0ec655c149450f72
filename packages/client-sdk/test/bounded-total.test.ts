import { describe, expect, it } from 'vitest'
import { createClient } from '../src/index'
import { fakeFetch } from './fake-fetch'

// A filtered component list counts to a bound and says so in a header (the server's decisions 0209 and 0212).
describe('client-sdk: a page whose count stopped', () => {
  it('carries totalBounded from X-Total-Count-Bounded, and leaves it out when the count is exact', async () => {
    let bounded = true
    const { fetch } = fakeFetch(() => Response.json([], { headers: { 'x-total-count': '10000', ...(bounded ? { 'x-total-count-bounded': 'true' } : {}) } }))
    const client = createClient({ baseUrl: 'http://x', fetch, retries: 0 })
    expect(await client.components.list({ tag: 'smd' })).toMatchObject({ total: 10_000, totalBounded: true })
    bounded = false
    const exact = await client.components.list({ tag: 'smd' })
    expect(exact.total).toBe(10_000)
    expect(exact.totalBounded).toBeUndefined()
  })
})
