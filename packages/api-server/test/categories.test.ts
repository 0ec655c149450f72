import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

describe('categories', () => {
  it('lists the tree a component’s path makes, and renames keeping ids: components and KiCad follow', async () => {
    const r = await api.ok('POST', '/api/components', { name: 'R 10k', ipn: 'RES-1', category: 'Passives/Resistors/Thick film' }, 201)
    const tree = await api.ok('GET', '/api/categories')
    expect(tree.map((c: { path: string; count: number }) => [c.path, c.count])).toEqual([
      ['Passives', 1],
      ['Passives/Resistors', 1],
      ['Passives/Resistors/Thick film', 1],
    ])
    const resistors = tree[1]
    expect(await api.ok('GET', `/api/categories/${resistors.id}`)).toEqual(resistors)
    const kicadBefore = await api.ok('GET', '/api/kicad/v1/categories.json')
    expect(kicadBefore).toEqual([{ id: tree[2].id, name: 'Passives/Resistors/Thick film', description: '1 part' }])

    const stale = await api.call('PATCH', `/api/categories/${resistors.id}`, { body: { name: 'Fixed resistors' }, headers: { 'if-match': '"9"' } })
    expect(stale.status).toBe(412)
    const renamed = await api.ok('PATCH', `/api/categories/${resistors.id}`, { name: 'Fixed resistors' })
    expect(renamed).toMatchObject({ id: resistors.id, path: 'Passives/Fixed resistors', version: 2 })
    expect(await api.ok('GET', `/api/components/${r.id}`)).toMatchObject({ category: 'Passives/Fixed resistors/Thick film', version: 2 })
    const kicadAfter = await api.ok('GET', '/api/kicad/v1/categories.json')
    expect(kicadAfter).toEqual([{ id: tree[2].id, name: 'Passives/Fixed resistors/Thick film', description: '1 part' }])
    expect((await api.ok('GET', `/api/kicad/v1/parts/category/${tree[2].id}.json`)).map((p: { name: string }) => p.name)).toEqual(['RES-1'])
    expect((await api.call('GET', '/api/kicad/v1/parts/category/not-a-category.json')).status).toBe(404)
  })

  it('creates under a parent, refuses a name with / or one a sibling has, and deletes only an empty category', async () => {
    const passives = await api.ok('POST', '/api/categories', { name: 'Passives' }, 201)
    const caps = await api.ok('POST', '/api/categories', { name: 'Capacitors', parentId: passives.id }, 201)
    expect(caps).toMatchObject({ path: 'Passives/Capacitors', parentId: passives.id, count: 0 })
    const slash = await api.call('POST', '/api/categories', { body: { name: 'A/B' } })
    expect(slash.status).toBe(400)
    expect(slash.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.name'])
    expect((await api.call('POST', '/api/categories', { body: { name: 'capacitors', parentId: passives.id } })).status).toBe(409)
    expect((await api.call('PATCH', `/api/categories/${caps.id}`, { body: { name: '' } })).status).toBe(400)
    expect((await api.call('GET', '/api/categories/cat_00000000000000000000000000')).status).toBe(404)
    expect((await api.call('GET', '/api/categories?limit=5')).status).toBe(400)
    expect((await api.call('DELETE', `/api/categories/${passives.id}`)).status).toBe(409)
    expect((await api.call('DELETE', `/api/categories/${caps.id}`)).status).toBe(204)
    expect((await api.call('DELETE', `/api/categories/${caps.id}`)).status).toBe(404)
  })
})
