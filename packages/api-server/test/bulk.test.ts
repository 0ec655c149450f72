import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

const ok = (method: string, path: string, body?: unknown, status?: number) => api.ok(method, path, body, status)
const MISSING_CMP = 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ'

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

describe('bulk limits', () => {
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
