import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

/** A small library: one resistor with a symbol, a footprint and a category. */
async function library() {
  await api.ok('POST', '/api/parameter-types', { name: 'Power', unit: 'W', kind: 'number' }, 201)
  const sym = await api.ok('POST', '/api/symbols', { name: 'R', library: 'Device' }, 201)
  const fp = await api.ok('POST', '/api/footprints', { name: 'R_0603_1608Metric', library: 'Resistor_SMD' }, 201)
  const r = await api.ok('POST', '/api/components', { name: 'R 10k', ipn: 'RES-1', category: 'Passives/Resistors', parameters: [{ type: 'Resistance', value: '10k', unit: 'Ω' }, { type: 'Power', value: '0.1', unit: 'W' }], symbols: [sym.id], footprints: [fp.id] }, 201)
  const category = (await api.ok('GET', '/api/kicad/v1/categories.json'))[0]
  return { sym, fp, r, category }
}

async function get(path: string, headers: Record<string, string> = {}) {
  return await api.call('GET', path, { headers })
}

describe('KiCad answers: ETag, Cache-Control and 304 (decision 0636)', () => {
  it('every route sends a strong ETag and private max-age, and answers its If-None-Match with an empty 304', async () => {
    const { r, category } = await library()
    for (const path of ['/api/kicad/v1/', '/api/kicad/v1/categories.json', `/api/kicad/v1/parts/category/${category.id}.json`, `/api/kicad/v1/parts/${r.id}.json`]) {
      const first = await get(path)
      expect(first.status, path).toBe(200)
      const tag = first.headers.get('etag')!
      expect(tag, path).toMatch(/^"[\w-]{27}"$/)
      expect(first.headers.get('cache-control'), path).toBe('private, max-age=60')
      const again = await get(path, { 'if-none-match': tag })
      expect(again.status, path).toBe(304)
      expect(again.text, path).toBe('')
      expect(again.headers.get('etag'), path).toBe(tag)
      expect(again.headers.get('cache-control'), path).toBe('private, max-age=60')
      // A list of tags, a weak form of ours and `*` match; another tag does not.
      expect((await get(path, { 'if-none-match': `"other", W/${tag}` })).status, path).toBe(304)
      expect((await get(path, { 'if-none-match': '*' })).status, path).toBe(304)
      const other = await get(path, { 'if-none-match': '"other"' })
      expect(other.status, path).toBe(200)
      expect(other.body, path).toEqual(first.body)
    }
  })

  it('the max-age is the KiCad settings’ cacheMaxAge, and changing it changes every ETag', async () => {
    const { r } = await library()
    const before = await get(`/api/kicad/v1/parts/${r.id}.json`)
    await api.ok('PATCH', '/api/settings', { kicad: { cacheMaxAge: 300 } })
    const after = await get(`/api/kicad/v1/parts/${r.id}.json`, { 'if-none-match': before.headers.get('etag')! })
    expect(after.status).toBe(200)
    expect(after.headers.get('cache-control')).toBe('private, max-age=300')
    expect(after.body).toEqual(before.body)
    await api.ok('PATCH', '/api/settings', { kicad: { cacheMaxAge: 0 } })
    expect((await get('/api/kicad/v1/')).headers.get('cache-control')).toBe('private, max-age=0')
  })

  // Each change moves the tag of the answers that show it (a category's name is only in categories.json).
  it('a change to the part, its category, symbol, footprint, attachment or templates changes the ETag KiCad revalidates', async () => {
    const { sym, fp, r, category } = await library()
    const paths = { listing: `/api/kicad/v1/parts/category/${category.id}.json`, part: `/api/kicad/v1/parts/${r.id}.json`, categories: '/api/kicad/v1/categories.json' }
    const tags = async () => ({
      listing: (await get(paths.listing)).headers.get('etag'),
      part: (await get(paths.part)).headers.get('etag'),
      categories: (await get(paths.categories)).headers.get('etag'),
    })
    const changes: Array<[string, () => Promise<unknown>, Array<keyof typeof paths>]> = [
      ['the part', () => api.ok('PATCH', `/api/components/${r.id}`, { description: 'thick film' }), ['listing', 'part']],
      ['the symbol', () => api.ok('PATCH', `/api/symbols/${sym.id}`, { name: 'R_Small' }), ['listing', 'part']],
      ['the footprint', () => api.ok('PATCH', `/api/footprints/${fp.id}`, { name: 'R_0805_2012Metric' }), ['listing', 'part']],
      ['an attachment', () => api.ok('POST', '/api/attachments/from-url', { url: 'https://www.yageo.com/RC.pdf', name: 'RC.pdf', componentId: r.id, kind: 'datasheet' }, 201), ['listing', 'part']],
      ['the templates', async () => {
        const resistors = (await api.ok('GET', '/api/categories')).find((x: { path: string }) => x.path === 'Passives/Resistors')
        return await api.ok('PUT', `/api/categories/${resistors.id}/templates`, { templates: [{ parameterType: 'Power', isValue: true }] })
      }, ['listing', 'part']],
      ['a new part in the category', () => api.ok('POST', '/api/components', { name: 'R 1k', ipn: 'RES-2', category: 'Passives/Resistors' }, 201), ['listing', 'categories']],
      ['the category', () => api.ok('PATCH', `/api/categories/${category.id}`, { name: 'Chip resistors' }), ['categories']],
      ['the KiCad settings', () => api.ok('PATCH', '/api/settings', { kicad: { fields: { ipn: { name: 'Internal PN' } } } }), ['listing', 'part', 'categories']],
    ]
    for (const [what, change, affected] of changes) {
      const before = await tags()
      await change()
      const after = await tags()
      for (const key of affected) {
        expect(after[key], `${what} → ${key}`).not.toBe(before[key])
        expect((await get(paths[key], { 'if-none-match': before[key]! })).status, `${what} → ${key}`).toBe(200)
      }
    }
    // Nothing changed: every tag still matches.
    const now = await tags()
    for (const key of Object.keys(paths) as Array<keyof typeof paths>) expect((await get(paths[key], { 'if-none-match': now[key]! })).status).toBe(304)
  })
})
