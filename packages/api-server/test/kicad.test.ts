import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

describe('KiCad HTTP library', () => {
  it('answers the root with its endpoint map, with or without the trailing slash', async () => {
    expect((await api.call('GET', '/api/kicad/v1/')).body).toEqual({ categories: '', parts: '' })
    expect((await api.call('GET', '/api/kicad/v1')).body).toEqual({ categories: '', parts: '' })
  })

  it('lists categories, their parts, and one part with symbol, footprint and fields', async () => {
    const sym = (await api.call('POST', '/api/symbols', { body: { name: 'R', library: 'Device' } })).body
    const fp = (await api.call('POST', '/api/footprints', { body: { name: 'R_0603_1608Metric', library: 'Resistor_SMD' } })).body
    const c = (
      await api.call('POST', '/api/components', {
        body: {
          name: 'R 10k 0603',
          ipn: 'RES-00001',
          category: 'Resistors',
          description: '10k thick film',
          parameters: [{ type: 'Resistance', value: '10k', unit: 'Ω' }, { type: 'Tolerance', value: '1%' }],
          mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' }],
          symbols: [sym.id],
          footprints: [fp.id],
          tags: ['smd'],
        },
      })
    ).body
    await api.call('POST', '/api/components', { body: { name: 'no category' } })
    const categories = (await api.call('GET', '/api/kicad/v1/categories.json')).body
    expect(categories).toEqual([{ id: expect.any(String), name: 'Resistors', description: '1 part' }])
    const parts = (await api.call('GET', `/api/kicad/v1/parts/category/${categories[0].id}.json`)).body
    const part = (await api.call('GET', `/api/kicad/v1/parts/${c.id}.json`)).body
    // The listing carries each part as the part route gives it, with its description (decision 0635).
    expect(parts).toEqual([{ ...part, description: '10k thick film' }])
    expect(part).toMatchObject({ id: c.id, name: 'RES-00001', symbolIdStr: 'Device:R', exclude_from_bom: 'False' })
    expect(part.fields).toMatchObject({
      value: { value: '10kΩ' },
      reference: { value: 'R' },
      footprint: { value: 'Resistor_SMD:R_0603_1608Metric', visible: 'False' },
      MPN: { value: 'RC0603FR-0710KL', visible: 'False' },
      Tolerance: { value: '1%', visible: 'False' },
    })
  })

  it('answers unknown categories and parts with 404, and malformed names with 400', async () => {
    expect((await api.call('GET', '/api/kicad/v1/parts/category/bm9uZQ.json')).status).toBe(404)
    expect((await api.call('GET', '/api/kicad/v1/parts/cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ.json')).status).toBe(404)
    expect((await api.call('GET', '/api/kicad/v1/parts/12.json')).status).toBe(404)
    expect((await api.call('GET', '/api/kicad/v1/parts/x.xml')).status).toBe(400)
  })

  it('shows as Value the category\'s value parameter, after kicadValue and before a Value parameter (decisions 0631, 0440)', async () => {
    await api.ok('POST', '/api/parameter-types', { name: 'Power', unit: 'W', kind: 'number' }, 201)
    const c = await api.ok('POST', '/api/components', { name: 'R 10k', category: 'Passives/Resistors', parameters: [{ type: 'Resistance', value: '10k' }, { type: 'Value', value: 'ten' }, { type: 'power', value: '0.25' }] }, 201)
    const value = async () => (await api.ok('GET', `/api/kicad/v1/parts/${c.id}.json`)).fields.value.value
    expect(await value()).toBe('ten')
    const resistors = (await api.ok('GET', '/api/categories')).find((x: { path: string }) => x.path === 'Passives/Resistors')
    await api.ok('PUT', `/api/categories/${resistors.parentId}/templates`, { templates: [{ parameterType: 'Power', isValue: true }] })
    expect(await value()).toBe('0.25W')
    await api.ok('PATCH', `/api/components/${c.id}`, { kicadValue: '10k 1/4W' })
    expect(await value()).toBe('10k 1/4W')
    const other = await api.ok('POST', '/api/components', { name: 'R bare', category: 'Passives/Resistors', parameters: [{ type: 'Resistance', value: '1k', unit: 'Ω' }] }, 201)
    expect((await api.ok('GET', `/api/kicad/v1/parts/${other.id}.json`)).fields.value.value).toBe('1kΩ')
  })

  it('accepts KiCad’s "Token" authorization when an API key is set', async () => {
    const { createApp } = await import('../src/app')
    const app = createApp({ storage: api.storage, apiKey: 'k' })
    expect((await app.fetch(new Request('http://x/api/kicad/v1/', { headers: { authorization: 'Token k' } }))).status).toBe(200)
    expect((await app.fetch(new Request('http://x/api/kicad/v1/', { headers: { authorization: 'Token nope' } }))).status).toBe(401)
  })
})
