import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

describe('GET /api/components, streamed', () => {
  it('streams a full listing for a large limit, every component once', async () => {
    await api.storage.transaction(async (tx) => {
      for (let i = 0; i < 1200; i++) await tx.components.create({ name: `bulk ${i}`, ipn: `B-${i}` })
    })
    const res = await api.call('GET', '/api/components?limit=100000')
    expect(res.status).toBe(200)
    expect(res.body).toHaveLength(1200)
    expect(new Set(res.body.map((c: { id: string }) => c.id)).size).toBe(1200)
    expect(res.headers.get('x-total-count')).toBe('1200')
    expect(res.headers.get('link')).toBeNull()
  })
})
