import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

const ok = (method: string, path: string, body?: unknown, status?: number) => api.ok(method, path, body, status)
const MISSING = { pty: 'pty_01JD7W3T9X4QF5B8S2M6K0N1PZ', par: 'par_01JD7W3T9X4QF5B8S2M6K0N1PZ', cmp: 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ' }

describe('parameters', () => {
  it('manages parameter types', async () => {
    const t = await ok('POST', '/api/parameter-types', { name: 'Resistance', unit: 'Ω', kind: 'number' }, 201)
    expect((await ok('GET', '/api/parameter-types')).map((x: { name: string }) => x.name)).toEqual(['Resistance'])
    expect((await ok('GET', `/api/parameter-types/${t.id}`)).unit).toBe('Ω')
    expect((await ok('PATCH', `/api/parameter-types/${t.id}`, { description: 'R' })).description).toBe('R')
    expect((await api.call('POST', '/api/parameter-types', { body: { name: 'resistance' } })).status).toBe(409)
    expect((await api.call('POST', '/api/parameter-types', { body: { name: 'X', kind: 'color' } })).status).toBe(400)
    await ok('DELETE', `/api/parameter-types/${t.id}`, undefined, 204)
    expect((await api.call('GET', `/api/parameter-types/${MISSING.pty}`)).status).toBe(404)
    expect((await api.call('PATCH', `/api/parameter-types/${MISSING.pty}`, { body: { name: 'x' } })).status).toBe(404)
    expect((await api.call('DELETE', `/api/parameter-types/${MISSING.pty}`)).status).toBe(404)
  })

  it('manages the parameters of a component', async () => {
    const c = await ok('POST', '/api/components', { name: 'C' }, 201)
    const p = await ok('POST', `/api/components/${c.id}/parameters`, { type: 'Capacitance', value: '100n', unit: 'F' }, 201)
    expect(p.numeric).toBeCloseTo(1e-7)
    expect((await ok('GET', `/api/components/${c.id}/parameters`)).map((x: { id: string }) => x.id)).toEqual([p.id])
    expect((await ok('PATCH', `/api/parameters/${p.id}`, { value: '1u' })).numeric).toBeCloseTo(1e-6)
    const replaced = await ok('PUT', `/api/components/${c.id}/parameters`, [{ type: 'Voltage', value: '50' }])
    expect(replaced.map((x: { type: string }) => x.type)).toEqual(['Voltage'])
    await ok('DELETE', `/api/parameters/${replaced[0].id}`, undefined, 204)
    expect((await api.call('PATCH', `/api/parameters/${MISSING.par}`, { body: { value: '1' } })).status).toBe(404)
    expect((await api.call('DELETE', `/api/parameters/${MISSING.par}`)).status).toBe(404)
    expect((await api.call('GET', `/api/components/${MISSING.cmp}/parameters`)).status).toBe(404)
    expect((await api.call('POST', `/api/components/${c.id}/parameters`, { body: { value: '1' } })).status).toBe(400)
    expect((await api.call('PUT', `/api/components/${c.id}/parameters`, { body: { type: 'x' } })).status).toBe(400)
  })
})
