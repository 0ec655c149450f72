import { MOUSER_FAKE_KEY, MOUSER_FAKE_PARTS, startMouserFake, type Fake } from '@complib/sources/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enrichJobsFor } from '../src/sources/background'
import { useTestApi } from './harness'

/**
 * The whole path against the Mouser fake (its shapes cited in
 * packages/sources): configure the source, search an MPN, make a component
 * from a part, enrich a second one with a diff, then a scheduled refresh
 * that reads a new price and flags a part gone obsolete at Mouser.
 */
const parts = structuredClone(MOUSER_FAKE_PARTS) as Array<Record<string, any>>
let fake: Fake
beforeAll(async () => {
  fake = await startMouserFake(parts)
})
afterAll(async () => {
  await fake.close()
})

const api = useTestApi()

describe('a Mouser source, end to end', () => {
  it('searches, creates, enriches, and refreshes on its schedule', async () => {
    const source = await api.ok('POST', '/api/sources', { type: 'mouser', name: 'Mouser', config: { apiKey: MOUSER_FAKE_KEY, baseUrl: fake.url }, refresh: { cron: '0 3 * * *' } }, 201)
    expect(source.secretHints).toEqual({ apiKey: `…${MOUSER_FAKE_KEY.slice(-4)}` })

    const search = await api.ok('GET', `/api/sources/${source.id}/search?q=LM358`)
    expect(search.candidates.map((c: { ref: string }) => c.ref)).toContain('595-LM358DR')

    const lm358 = await api.ok('POST', '/api/components/from-source', { sourceId: source.id, ref: '595-LM358DR' }, 201)
    expect(lm358).toMatchObject({ name: 'LM358DR', status: 'active', mpns: [{ manufacturer: 'Texas Instruments', partNumber: 'LM358DR' }] })
    const offers = await api.ok('GET', `/api/components/${lm358.id}/offers`)
    expect(offers[0]).toMatchObject({ supplier: 'Mouser', sku: '595-LM358DR', currency: 'USD', stock: 12345 })
    expect(offers[0].priceBreaks[0]).toEqual({ quantity: 1, price: 0.52 })

    // A part typed by hand, then filled from Mouser by its MPN: the diff first, then the chosen fields.
    const max232 = await api.ok('POST', '/api/components', { name: 'MAX232', mpns: [{ manufacturer: 'Texas Instruments', partNumber: 'MAX232CPE' }] }, 201)
    const diff = await api.ok('POST', `/api/components/${max232.id}/enrich`, { sourceId: source.id, dryRun: true })
    expect(diff.ref).toBe('700-MAX232CPE')
    expect(diff.changes.map((c: { field: string }) => c.field)).toEqual(expect.arrayContaining(['description', 'offers']))
    const applied = await api.ok('POST', `/api/components/${max232.id}/enrich`, { sourceId: source.id, fields: ['description'] })
    expect(applied.component.description).toBe(diff.changes.find((c: { field: string }) => c.field === 'description').proposed)
    expect(await api.ok('GET', `/api/components/${max232.id}/offers`)).toEqual([])

    // Mouser changes its price and says the part is obsolete; the refresh reads both.
    const at = parts.find((p) => p.MouserPartNumber === '595-LM358DR')!
    at.PriceBreaks[0].Price = '$0.61'
    at.LifecycleStatus = 'Obsolete'
    const { jobs, schedules } = enrichJobsFor(api.storage, undefined as never)
    const job = await schedules.runNow(source.id)
    await jobs.finished(job!.id)
    const done = await api.ok('GET', `/api/jobs/${job!.id}`)
    // The MAX232CPE was obsolete at Mouser from the start: flagged too, its status (active) left alone.
    expect(done).toMatchObject({ kind: 'source-refresh', status: 'succeeded', data: { total: 2, done: 2 } })
    expect(done.data.flagged).toEqual([
      { componentId: lm358.id, lifecycle: 'obsolete', applied: false },
      { componentId: max232.id, lifecycle: 'obsolete', applied: false },
    ])
    expect((await api.ok('GET', `/api/components/${lm358.id}/offers`))[0].priceBreaks[0]).toEqual({ quantity: 1, price: 0.61 })
    const after = await api.ok('GET', `/api/components/${lm358.id}`)
    expect([after.status, after.tags]).toEqual(['active', ['obsolete-at-source']])
  })
})
