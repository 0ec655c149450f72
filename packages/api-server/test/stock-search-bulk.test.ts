import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from './harness'

let api: TestApi
beforeEach(async () => {
  api = await createTestApi()
})
afterEach(async () => {
  await api.close()
})

const ok = (method: string, path: string, body?: unknown, status?: number) => api.ok(method, path, body, status)
const MISSING_LOC = 'loc_01JD7W3T9X4QF5B8S2M6K0N1PZ'
const MISSING_CMP = 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ'

describe('locations and stock', () => {
  it('builds a tree, lists by parent, renames and deletes', async () => {
    const shelf = await ok('POST', '/api/locations', { name: 'Shelf A' }, 201)
    const bin = await ok('POST', '/api/locations', { name: 'Bin 1', parentId: shelf.id }, 201)
    expect(bin.path).toBe('Shelf A / Bin 1')
    expect((await ok('GET', '/api/locations?parentId=root')).map((l: { id: string }) => l.id)).toEqual([shelf.id])
    expect((await ok('GET', `/api/locations?parentId=${shelf.id}`)).map((l: { id: string }) => l.id)).toEqual([bin.id])
    expect((await ok('GET', '/api/locations/tree'))[0].children[0].id).toBe(bin.id)
    expect((await ok('GET', `/api/locations/${bin.id}`)).name).toBe('Bin 1')
    expect((await ok('PATCH', `/api/locations/${bin.id}`, { name: 'Bin 2' })).path).toBe('Shelf A / Bin 2')
    expect((await api.call('DELETE', `/api/locations/${shelf.id}`)).status).toBe(409)
    await ok('DELETE', `/api/locations/${bin.id}`, undefined, 204)
  })

  it('sets, adjusts and moves stock, and lists where a component is', async () => {
    const c = await ok('POST', '/api/components', { name: 'A' }, 201)
    const a = await ok('POST', '/api/locations', { name: 'A' }, 201)
    const b = await ok('POST', '/api/locations', { name: 'B' }, 201)
    expect((await ok('PUT', `/api/components/${c.id}/locations/${a.id}`, { quantity: 10 })).quantity).toBe(10)
    expect((await ok('POST', '/api/stock/adjust', { componentId: c.id, locationId: a.id, delta: -3 })).quantity).toBe(7)
    const moved = await ok('POST', '/api/stock/move', { componentId: c.id, fromLocationId: a.id, toLocationId: b.id, quantity: 2 })
    expect([moved.from.quantity, moved.to.quantity]).toEqual([5, 2])
    expect((await ok('GET', `/api/components/${c.id}/locations`)).map((e: { locationName: string; quantity: number }) => [e.locationName, e.quantity])).toEqual([
      ['A', 5],
      ['B', 2],
    ])
  })

  it('refuses stock below zero, bad quantities, unknown places and cycles', async () => {
    const c = await ok('POST', '/api/components', { name: 'A' }, 201)
    const a = await ok('POST', '/api/locations', { name: 'A' }, 201)
    const child = await ok('POST', '/api/locations', { name: 'child', parentId: a.id }, 201)
    expect((await api.call('POST', '/api/stock/adjust', { body: { componentId: c.id, locationId: a.id, delta: -1 } })).status).toBe(409)
    expect((await api.call('POST', '/api/stock/adjust', { body: { componentId: c.id, locationId: a.id, delta: 0 } })).status).toBe(400)
    expect((await api.call('PUT', `/api/components/${c.id}/locations/${a.id}`, { body: { quantity: -1 } })).status).toBe(400)
    expect((await api.call('PUT', `/api/components/${c.id}/locations/${MISSING_LOC}`, { body: { quantity: 1 } })).status).toBe(404)
    expect((await api.call('POST', '/api/stock/move', { body: { componentId: c.id, fromLocationId: a.id, toLocationId: a.id, quantity: 1 } })).status).toBe(400)
    expect((await api.call('POST', '/api/stock/move', { body: { componentId: c.id, fromLocationId: a.id, toLocationId: child.id, quantity: 1 } })).status).toBe(409)
    expect((await api.call('PATCH', `/api/locations/${a.id}`, { body: { parentId: child.id } })).status).toBe(409)
    expect((await api.call('POST', '/api/locations', { body: { name: 'x', parentId: MISSING_LOC } })).status).toBe(400)
    expect((await api.call('GET', `/api/locations/${MISSING_LOC}`)).status).toBe(404)
    expect((await api.call('GET', `/api/components/${MISSING_CMP}/locations`)).status).toBe(404)
    expect((await api.call('GET', '/api/locations?parentId=top')).status).toBe(400)
  })
})

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

describe('bulk', () => {
  it('creates many atomically and records a job', async () => {
    const res = await ok('POST', '/api/bulk/components', { items: [{ name: 'A' }, { name: 'B' }] })
    expect(res).toMatchObject({ dryRun: false, count: 2 })
    expect((await ok('GET', `/api/jobs/${res.jobId}`)).data.count).toBe(2)
    await ok('DELETE', `/api/jobs/${res.jobId}`, undefined, 204)
    expect((await api.call('GET', `/api/jobs/${res.jobId}`)).status).toBe(404)
  })

  it('creates nothing when one item fails, naming it', async () => {
    const res = await api.call('POST', '/api/bulk/components', { body: { items: [{ name: 'A', ipn: 'X' }, { name: 'B', ipn: 'X' }] } })
    expect(res.status).toBe(409)
    expect(res.body.errors[0].path).toBe('body.items[1].ipn')
    expect(await ok('GET', '/api/components')).toEqual([])
  })

  it('patches many atomically, and a dry run changes nothing', async () => {
    const a = await ok('POST', '/api/components', { name: 'A' }, 201)
    const b = await ok('POST', '/api/components', { name: 'B' }, 201)
    const dry = await ok('PATCH', '/api/bulk/components', { dryRun: true, items: [{ id: a.id, patch: { description: 'x' } }] })
    expect(dry).toMatchObject({ dryRun: true, jobId: null, count: 1 })
    expect((await ok('GET', `/api/components/${a.id}`)).description).toBeNull()
    const stale = await api.call('PATCH', '/api/bulk/components', {
      body: { items: [{ id: a.id, patch: { description: 'x' } }, { id: b.id, patch: { description: 'y' }, ifVersion: 9 }] },
    })
    expect(stale.status).toBe(412)
    expect((await ok('GET', `/api/components/${a.id}`)).description).toBeNull()
    await ok('PATCH', '/api/bulk/components', { items: [{ id: a.id, patch: { description: 'x' } }, { id: b.id, patch: { description: 'y' } }] })
    expect((await ok('GET', `/api/components/${b.id}`)).description).toBe('y')
  })

  it('deletes and restores many', async () => {
    const a = await ok('POST', '/api/components', { name: 'A' }, 201)
    const b = await ok('POST', '/api/components', { name: 'B' }, 201)
    expect((await ok('POST', '/api/bulk/components/delete', { ids: [a.id, b.id] })).count).toBe(2)
    expect(await ok('GET', '/api/components')).toEqual([])
    expect((await api.call('POST', '/api/bulk/components/delete', { body: { ids: [a.id] } })).status).toBe(404)
    expect((await ok('POST', '/api/bulk/components/restore', { ids: [a.id, b.id] })).count).toBe(2)
    expect((await api.call('POST', '/api/bulk/components/restore', { body: { ids: [] } })).status).toBe(400)
    expect((await api.call('GET', '/api/jobs/nope')).status).toBe(400)
  })
})

describe('bulk limits (issue 18)', () => {
  const params = (n: number) => Array.from({ length: n }, (_, j) => ({ type: `P${j}`, value: `${j}k` }))
  const tags = (n: number) => Array.from({ length: n }, (_, j) => `t${j}`)

  it('a bulk create over the per-component parameter/tag limits is a 400 naming the field', async () => {
    // 200 parameters and 100 tags were accepted; one such bulk create of 1,000 held the server for ~10 s.
    const res = await api.call('POST', '/api/bulk/components', { body: { items: [{ name: 'ok' }, { name: 'heavy', parameters: params(200), tags: tags(100) }] } })
    expect(res.status, res.text).toBe(400)
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['body.items[1].parameters', 'body.items[1].tags'])
    const mpns = Array.from({ length: 11 }, (_, j) => ({ manufacturer: 'M', partNumber: `p${j}` }))
    const patch = await api.call('PATCH', '/api/bulk/components', { body: { items: [{ id: MISSING_CMP, patch: { mpns } }] } })
    expect(patch.status, patch.text).toBe(400)
    expect(patch.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.items[0].patch.mpns'])
    expect(await ok('GET', '/api/components')).toEqual([])
  })

  it('takes a component at every per-component limit', async () => {
    const res = await ok('POST', '/api/bulk/components', { items: [{ name: 'full', parameters: params(50), tags: tags(20) }] })
    expect(res.items[0].parameters).toHaveLength(50)
    expect(res.items[0].tags).toHaveLength(20)
  })

  it('a bulk request carrying more than 20,000 parameters, tags and MPNs in all is a 400 naming body.items', async () => {
    const items = Array.from({ length: 401 }, (_, i) => ({ name: `p${i}`, parameters: params(50) }))
    const res = await api.call('POST', '/api/bulk/components', { body: { items } })
    expect(res.status, res.text).toBe(400)
    expect(res.body.errors).toEqual([{ path: 'body.items', message: expect.stringMatching(/20050 parameters, tags.*at most 20000/) }])
  })

  it('a bulk body over 2 MiB is a 413', async () => {
    const res = await api.call('POST', '/api/bulk/components', { body: { items: [{ name: 'x', description: 'x'.repeat(2 * 1024 * 1024) }] } })
    expect(res.status, res.text).toBe(413)
  })
})
