import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

const ok = (method: string, path: string, body?: unknown, status?: number) => api.ok(method, path, body, status)
const MISSING = { tag: 'tag_01JD7W3T9X4QF5B8S2M6K0N1PZ', cmp: 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ' }

describe('tags', () => {
  it('creates, lists with counts, renames, merges and deletes', async () => {
    const smd = await ok('POST', '/api/tags', { name: 'smd', color: '#00ff00' }, 201)
    const c = await ok('POST', '/api/components', { name: 'A', tags: ['smd', 'SMT'] }, 201)
    const smt = (await ok('GET', '/api/tags?q=smt'))[0]
    expect((await ok('GET', '/api/tags')).map((t: { name: string; count: number }) => [t.name, t.count])).toEqual([
      ['smd', 1],
      ['SMT', 1],
    ])
    expect((await ok('PATCH', `/api/tags/${smd.id}`, { name: 'SMD' })).name).toBe('SMD')
    expect((await ok('POST', `/api/tags/${smd.id}/merge`, { sourceIds: [smt.id] })).count).toBe(1)
    expect((await ok('GET', `/api/components/${c.id}`)).tags).toEqual(['SMD'])
    await ok('DELETE', `/api/tags/${smd.id}`, undefined, 204)
    expect((await ok('GET', `/api/components/${c.id}`)).tags).toEqual([])
  })

  it('sets and removes the tags of a component', async () => {
    const c = await ok('POST', '/api/components', { name: 'A' }, 201)
    const after = await ok('PUT', `/api/components/${c.id}/tags`, ['a', 'b'])
    expect(after.tags).toEqual(['a', 'b'])
    const a = (await ok('GET', '/api/tags?q=a'))[0]
    expect((await ok('DELETE', `/api/components/${c.id}/tags/${a.id}`)).tags).toEqual(['b'])
    expect((await api.call('DELETE', `/api/components/${c.id}/tags/${a.id}`)).status).toBe(404)
  })

  it('answers bad input and unknown ids with problems', async () => {
    await ok('POST', '/api/tags', { name: 'x' }, 201)
    expect((await api.call('POST', '/api/tags', { body: { name: 'X' } })).status).toBe(409)
    expect((await api.call('POST', '/api/tags', { body: { name: 'y', color: 'green' } })).status).toBe(400)
    expect((await api.call('PATCH', `/api/tags/${MISSING.tag}`, { body: { name: 'z' } })).status).toBe(404)
    expect((await api.call('DELETE', `/api/tags/${MISSING.tag}`)).status).toBe(404)
    expect((await api.call('POST', `/api/tags/${MISSING.tag}/merge`, { body: { sourceIds: [MISSING.tag] } })).status).toBe(404)
    expect((await api.call('PUT', `/api/components/${MISSING.cmp}/tags`, { body: ['a'] })).status).toBe(404)
    expect((await api.call('PUT', `/api/components/${MISSING.cmp}/tags`, { body: 'a' })).status).toBe(400)
  })
})
