import { COMPONENT_COUNT_BOUND } from '@complib/core'
import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

// A filtered component list counts its matches up to a bound (1,000) and says so past
// it (decision 0209): counting every match of a broad filter over a large
// library held the one thread every request shares for seconds.
describe('filtered component counts', () => {
  it('stop past the bound and say so; the unfiltered count, a narrow filter and a listing that fits one answer stay exact', { timeout: 120_000 }, async () => {
    const wide = COMPONENT_COUNT_BOUND + 2
    await api.storage.transaction(async (tx) => {
      for (let i = 0; i < wide; i++) await tx.components.create({ name: `R${i}`, category: i % 2 ? 'Passives/Resistors' : 'passives/resistors/thick film', tags: ['wide'] })
      for (let i = 0; i < 3; i++) await tx.components.create({ name: `C${i}`, category: 'Passives/Capacitors', tags: ['narrow'] })
    })

    const all = await api.call('GET', '/api/components?limit=5')
    expect(all.headers.get('x-total-count')).toBe(String(wide + 3))
    expect(all.headers.get('x-total-count-bounded')).toBeNull()

    for (const filter of ['tag=wide', 'category=Passives/Resistors', 'q=R', 'status=active']) {
      const page = await api.call('GET', `/api/components?${filter}&limit=5`)
      expect(page.status, filter).toBe(200)
      expect(page.body, filter).toHaveLength(5)
      expect(page.headers.get('x-total-count'), filter).toBe(String(COMPONENT_COUNT_BOUND))
      expect(page.headers.get('x-total-count-bounded'), filter).toBe('true')
      expect(page.headers.get('link'), filter).toContain('rel="next"')
    }
    // The bound is no limit on what is listed: the ids route hands every match over, and counts them.
    const ids = await api.ok('GET', '/api/components/ids?tag=wide')
    expect(ids.ids).toHaveLength(wide)
    expect(ids.total).toBe(wide)
    expect(ids.totalBounded).toBeUndefined()
    const firstIds = await api.ok('GET', '/api/components/ids?tag=wide&limit=10')
    expect(firstIds).toMatchObject({ total: COMPONENT_COUNT_BOUND, totalBounded: true })

    const narrow = await api.call('GET', '/api/components?tag=narrow&limit=2')
    expect(narrow.headers.get('x-total-count')).toBe('3')
    expect(narrow.headers.get('x-total-count-bounded')).toBeNull()
    // A category takes in its descendants, any case, through the folded index's range.
    const capacitors = await api.call('GET', '/api/components?category=passives/capacitors&limit=1')
    expect(capacitors.headers.get('x-total-count')).toBe('3')
    const thick = await api.call('GET', '/api/components?category=PASSIVES/RESISTORS/THICK FILM&limit=1')
    expect(thick.headers.get('x-total-count')).toBe(String(wide / 2))
  })

  it('are documented on the list operation', async () => {
    const doc = (await api.call('GET', '/api/docs')).body
    const headers = doc.paths['/api/components'].get.responses['200'].headers
    expect(Object.keys(headers)).toEqual(expect.arrayContaining(['x-total-count', 'x-total-count-bounded', 'link']))
    expect(headers['x-total-count-bounded'].description).toContain(String(COMPONENT_COUNT_BOUND))
  })
})
