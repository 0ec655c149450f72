import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

const ok = (method: string, path: string, body?: unknown, status?: number) => api.ok(method, path, body, status)

describe('GET /api/suggest', () => {
  it('suggests components, prefix first, with numeric text coerced', async () => {
    await ok('POST', '/api/components', { name: 'Big resistor', ipn: 'R-2' }, 201)
    const first = await ok('POST', '/api/components', { name: 'Resistor 10k', ipn: 'R-1' }, 201)
    const hits = await ok('GET', '/api/suggest?entity=components&q=res&limit=7')
    expect(hits[0]).toEqual({ id: first.id, entity: 'components', label: 'Resistor 10k', detail: 'R-1' })
    expect(hits).toHaveLength(2)
  })

  it('leaves deleted components out', async () => {
    const c = await ok('POST', '/api/components', { name: 'Gone' }, 201)
    await ok('DELETE', `/api/components/${c.id}`, undefined, 204)
    expect(await ok('GET', '/api/suggest?entity=components&q=gone')).toEqual([])
  })

  for (const [query, field] of [
    ['entity=components', 'query.q'],
    ['entity=components&q=', 'query.q'],
    [`entity=components&q=${'x'.repeat(201)}`, 'query.q'],
    ['entity=components&q=a&limit=0', 'query.limit'],
    ['entity=components&q=a&limit=21', 'query.limit'],
    ['entity=components&q=a&limit=five', 'query.limit'],
    ['entity=widgets&q=a', 'query.entity'],
    ['q=a', 'query.entity'],
  ] as const) {
    it(`rejects ${query || 'no parameters'} with a 400 naming ${field}`, async () => {
      const res = await api.call('GET', `/api/suggest?${query}`)
      expect(res.status).toBe(400)
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field)
    })
  }
})

describe('search', () => {
  it('searches everything, grouped', async () => {
    await ok('POST', '/api/components', { name: 'Shunt', tags: ['shunt'] }, 201)
    const res = await ok('GET', '/api/search?q=shu')
    expect(res.components).toHaveLength(1)
    expect(res.tags).toHaveLength(1)
    expect((await api.call('GET', '/api/search')).status).toBe(400)
  })

  it('searches parameters by range', async () => {
    const c = await ok('POST', '/api/components', { name: 'R', parameters: [{ type: 'Resistance', value: '4k7' }] }, 201)
    const res = await ok('POST', '/api/search/parametric', { conditions: [{ type: 'Resistance', min: '1k', max: '10k' }] })
    expect(res.items.map((x: { id: string }) => x.id)).toEqual([c.id])
    expect((await api.call('POST', '/api/search/parametric', { body: { conditions: [] } })).status).toBe(400)
    expect((await api.call('POST', '/api/search/parametric', { body: { conditions: [{ type: 'R', min: 'big' }] } })).status).toBe(400)
  })
})
