import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

const ok = (method: string, path: string, body?: unknown, status?: number) => api.ok(method, path, body, status)
const MISSING = { mfr: 'mfr_01JD7W3T9X4QF5B8S2M6K0N1PZ' }

describe('manufacturers', () => {
  it('creates, lists, reads, patches, merges and deletes', async () => {
    const a = await ok('POST', '/api/manufacturers', { name: 'Texas Instruments', website: 'https://ti.com' }, 201)
    const b = await ok('POST', '/api/manufacturers', { name: 'TI' }, 201)
    expect((await ok('GET', '/api/manufacturers')).map((m: { name: string }) => m.name)).toEqual(['Texas Instruments', 'TI'])
    expect((await ok('GET', `/api/manufacturers/${a.id}`)).website).toBe('https://ti.com')
    expect((await ok('PATCH', `/api/manufacturers/${a.id}`, { aliases: ['Texas'] })).aliases).toEqual(['Texas'])
    expect((await ok('POST', `/api/manufacturers/${a.id}/merge`, { sourceIds: [b.id] })).aliases).toEqual(['Texas', 'TI'])
    await ok('DELETE', `/api/manufacturers/${a.id}`, undefined, 204)
  })

  it('refuses duplicates, bad websites, merging into itself and deleting one in use', async () => {
    const a = await ok('POST', '/api/manufacturers', { name: 'Murata' }, 201)
    expect((await api.call('POST', '/api/manufacturers', { body: { name: 'murata' } })).status).toBe(409)
    expect((await api.call('POST', '/api/manufacturers', { body: { name: 'X', website: 'ftp://x' } })).status).toBe(400)
    expect((await api.call('POST', `/api/manufacturers/${a.id}/merge`, { body: { sourceIds: [a.id] } })).status).toBe(400)
    await ok('POST', '/api/components', { name: 'C', mpns: [{ manufacturer: 'Murata', partNumber: 'GRM1' }] }, 201)
    expect((await api.call('DELETE', `/api/manufacturers/${a.id}`)).status).toBe(409)
    expect((await api.call('GET', `/api/manufacturers/${MISSING.mfr}`)).status).toBe(404)
    expect((await api.call('PATCH', `/api/manufacturers/${MISSING.mfr}`, { body: { name: 'x' } })).status).toBe(404)
  })
})
