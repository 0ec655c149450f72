import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

const ok = (method: string, path: string, body?: unknown, status?: number) => api.ok(method, path, body, status)
const MISSING = { mpn: 'mpn_01JD7W3T9X4QF5B8S2M6K0N1PZ', cmp: 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ' }

describe('mpns', () => {
  it('adds, lists, reads, patches, deletes and resolves', async () => {
    const c = await ok('POST', '/api/components', { name: 'Op amp', ipn: 'IC-1' }, 201)
    const mpn = await ok('POST', `/api/components/${c.id}/mpns`, { manufacturer: 'TI', partNumber: 'LM358DR' }, 201)
    expect((await ok('GET', `/api/components/${c.id}/mpns`)).map((m: { id: string }) => m.id)).toEqual([mpn.id])
    expect((await ok('GET', '/api/mpns?q=358')).map((m: { id: string }) => m.id)).toEqual([mpn.id])
    expect((await ok('GET', `/api/mpns/${mpn.id}`)).manufacturer).toBe('TI')
    expect((await ok('PATCH', `/api/mpns/${mpn.id}`, { partNumber: 'LM358P' })).partNumber).toBe('LM358P')
    const [hit] = await ok('POST', '/api/mpns/resolve', { items: [{ partNumber: 'lm358p' }] })
    expect(hit.matches[0]).toMatchObject({ componentId: c.id, ipn: 'IC-1' })
    await ok('DELETE', `/api/mpns/${mpn.id}`, undefined, 204)
    expect((await ok('GET', `/api/components/${c.id}`)).mpns).toEqual([])
  })

  it('answers bad input and unknown ids with problems', async () => {
    const c = await ok('POST', '/api/components', { name: 'A', mpns: [{ manufacturer: 'M', partNumber: 'P' }] }, 201)
    expect((await api.call('POST', `/api/components/${c.id}/mpns`, { body: { manufacturer: 'M', partNumber: 'P' } })).status).toBe(409)
    expect((await api.call('POST', `/api/components/${c.id}/mpns`, { body: { partNumber: '' } })).status).toBe(400)
    expect((await api.call('POST', `/api/components/${MISSING.cmp}/mpns`, { body: { manufacturer: 'M', partNumber: 'Q' } })).status).toBe(404)
    expect((await api.call('GET', `/api/components/${MISSING.cmp}/mpns`)).status).toBe(404)
    expect((await api.call('GET', `/api/mpns/${MISSING.mpn}`)).status).toBe(404)
    expect((await api.call('PATCH', `/api/mpns/${MISSING.mpn}`, { body: { partNumber: 'x' } })).status).toBe(404)
    expect((await api.call('DELETE', `/api/mpns/${MISSING.mpn}`)).status).toBe(404)
    expect((await api.call('POST', '/api/mpns/resolve', { body: { items: [] } })).status).toBe(400)
    expect((await api.call('GET', '/api/mpns?manufacturerId=nope')).status).toBe(400)
  })
})
