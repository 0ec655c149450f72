import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

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
