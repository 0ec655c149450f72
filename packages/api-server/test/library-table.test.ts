import { describe, expect, it } from 'vitest'
import { useTestApi, type CallResult } from './harness'

// What the library table reads (decisions 0443, 0444, 0445): sorts, filters, the trash, every matching id, stock and images.

const api = useTestApi()
const MISSING = 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ'

async function library() {
  const make = (body: Record<string, unknown>) => api.ok('POST', '/api/components', body, 201)
  const r1 = await make({ name: 'R1', category: 'Passives', parameters: [{ type: 'Resistance', value: '10k' }], mpns: [{ manufacturer: 'Yageo', partNumber: 'RC1' }] })
  const r2 = await make({ name: 'R2', category: 'Passives', parameters: [{ type: 'Resistance', value: '4.7k' }], mpns: [{ manufacturer: 'Vishay', partNumber: 'CR1' }] })
  const r3 = await make({ name: 'R3', parameters: [{ type: 'Resistance', value: '100k' }] })
  const u1 = await make({ name: 'U1', category: 'ICs' })
  const shelf = await api.ok('POST', '/api/locations', { name: 'Shelf' }, 201)
  await api.ok('PUT', `/api/components/${r3.id}/locations/${shelf.id}`, { quantity: 40 })
  await api.ok('PUT', `/api/components/${r1.id}/locations/${shelf.id}`, { quantity: 3 })
  return { r1, r2, r3, u1, shelf }
}

/** Every item of a listing, following its Link header page after page. */
async function follow(path: string): Promise<string[]> {
  const out: string[] = []
  let next: string | null = path
  while (next) {
    const res: CallResult = await api.call('GET', next)
    expect(res.status, res.text).toBe(200)
    out.push(...res.body.map((c: { name: string }) => c.name))
    next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? null
    if (next?.startsWith('http')) next = new URL(next).pathname + new URL(next).search
  }
  return out
}

describe('GET /api/components: the table\'s sorts and filters', () => {
  it('sorts by stock, manufacturer and a parameter across pages', async () => {
    await library()
    expect(await follow('/api/components?sort=-stock&limit=1')).toEqual(['R3', 'R1', 'U1', 'R2'])
    expect(await follow('/api/components?sort=manufacturer&limit=1')).toEqual(['R2', 'R1', 'R3', 'U1'])
    expect(await follow('/api/components?sort=parameter:Resistance&limit=2')).toEqual(['R2', 'R1', 'R3', 'U1'])
    expect(await follow('/api/components?sort=-parameter%3AResistance&limit=3')).toEqual(['R3', 'R1', 'R2', 'U1'])
  })

  it('refuses an unknown sort with a 400 naming query.sort', async () => {
    for (const sort of ['price', 'parameter:', '--name']) {
      const res = await api.call('GET', `/api/components?sort=${encodeURIComponent(sort)}`)
      expect(res.status, sort).toBe(400)
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain('query.sort')
    }
  })

  it('filters by parameter ranges, and refuses one that is no range with a 400 naming query.parameter', async () => {
    await library()
    expect(await follow('/api/components?parameter=Resistance:1k..20k&sort=name')).toEqual(['R1', 'R2'])
    expect(await follow('/api/components?parameter=Resistance:5k..&parameter=Resistance:..50k')).toEqual(['R1'])
    const res = await api.call('GET', '/api/components?parameter=Resistance:lots..')
    expect(res.status).toBe(400)
    expect(res.body.errors[0].path).toMatch(/^query\.parameter/)
  })

  it('lists the trash with deleted=only', async () => {
    const { r2, u1 } = await library()
    await api.ok('DELETE', `/api/components/${r2.id}`, undefined, 204)
    expect(await follow('/api/components?deleted=only')).toEqual(['R2'])
    await api.ok('POST', `/api/components/${r2.id}/restore`)
    expect(await follow('/api/components?deleted=only')).toEqual([])
    await api.ok('DELETE', `/api/components/${u1.id}`, undefined, 204)
    expect((await api.ok('GET', '/api/components/ids?deleted=only')).ids).toEqual([u1.id])
    expect((await api.call('GET', '/api/components?deleted=some')).status).toBe(400)
  })
})

describe('GET /api/components/ids', () => {
  it('answers every matching id in the sort\'s order, with the total', async () => {
    const { r1, r2, r3 } = await library()
    expect(await api.ok('GET', '/api/components/ids?category=Passives&sort=-name')).toEqual({ ids: [r2.id, r1.id], total: 2, nextCursor: null })
    expect(await api.ok('GET', '/api/components/ids?parameter=Resistance:1k..&sort=-stock')).toEqual({ ids: [r3.id, r1.id, r2.id], total: 3, nextCursor: null })
    const first = await api.ok('GET', '/api/components/ids?limit=2')
    expect(first).toMatchObject({ total: 4, ids: [r1.id, r2.id] })
    expect((await api.ok('GET', `/api/components/ids?limit=2&cursor=${first.nextCursor}`)).ids).toEqual([r3.id, expect.any(String)])
  })

  it('refuses a limit above 100000 with a 400 naming query.limit', async () => {
    const res = await api.call('GET', '/api/components/ids?limit=100001')
    expect(res.status).toBe(400)
    expect(res.body.errors[0].path).toBe('query.limit')
  })
})

describe('GET /api/components/extras', () => {
  it('answers stock totals and images by id, unknown ids left out', async () => {
    const { r1, r2, r3 } = await library()
    const image = await api.ok('POST', '/api/attachments/from-url', { componentId: r1.id, url: 'https://example.com/r1.png', kind: 'image' }, 201)
    await api.ok('POST', '/api/attachments/from-url', { componentId: r2.id, url: 'https://example.com/r2.pdf', kind: 'datasheet' }, 201)
    expect(await api.ok('GET', `/api/components/extras?ids=${r1.id},${r2.id},${r3.id},${MISSING}`)).toEqual({
      [r1.id]: { stock: 3, image: { attachmentId: image.id, url: 'https://example.com/r1.png' } },
      [r2.id]: { stock: 0, image: null },
      [r3.id]: { stock: 40, image: null },
    })
  })

  it('refuses a list that is not ids, or more than 500, with a 400 naming query.ids', async () => {
    for (const ids of ['', 'nope', Array.from({ length: 501 }, (_, i) => `cmp_01JD7W3T9X4QF5B8S2M6K0${String(i).padStart(4, '0')}`).join(',')]) {
      const res = await api.call('GET', `/api/components/extras?ids=${ids}`)
      expect(res.status).toBe(400)
      expect(res.body.errors[0].path).toMatch(/^query\.ids/)
    }
  })
})

describe('GET /api/components/{id}/image', () => {
  it('redirects to the first image, stored bytes to their content route', async () => {
    const { r1 } = await library()
    await api.ok('POST', '/api/attachments/from-url', { componentId: r1.id, url: 'https://example.com/a.png', kind: 'image' }, 201)
    await api.ok('POST', '/api/attachments/from-url', { componentId: r1.id, url: 'https://example.com/b.png', kind: 'image' }, 201)
    const res = await api.call('GET', `/api/components/${r1.id}/image`)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('https://example.com/a.png')
  })

  it('answers 404 for a part without an image, or no part', async () => {
    const { r2 } = await library()
    expect((await api.call('GET', `/api/components/${r2.id}/image`)).status).toBe(404)
    expect((await api.call('GET', `/api/components/${MISSING}/image`)).status).toBe(404)
  })
})
