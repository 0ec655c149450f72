import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { defineSource, SourcePart, statusError, type SourceCandidate } from '@complib/core'
import { BUILT_IN_SOURCE_TYPES, createSourceService } from '@complib/sources'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { enrichJobsFor } from '../src/sources/background'
import { useTestApi } from './harness'

/**
 * The sources API against a distributor of the test's own (a plugin type
 * over a local HTTP server), so every answer a provider can give is at hand:
 * configuring with write-only credentials, searching, making a component in
 * one step, enriching with a diff, offers and provenance, and each provider
 * failure as its problem with nothing written. The built-in providers pass
 * their own suites against their fakes in packages/sources.
 */
const KEY = 'acme-key-0123456789abcdef'
type Mode = 'ok' | 'status' | 'malformed' | 'hang'
const fake = { mode: 'ok' as Mode, status: 500, headers: {} as Record<string, string>, requests: 0, price: 0.52, lifecycle: 'Active' }

const PARTS: Record<string, { mfr: string; mpn: string; desc: string; params: Record<string, string>; stock: number; datasheet: string; category: string[] }> = {
  'AC-LM358': { mfr: 'Texas Instruments', mpn: 'LM358DR', desc: 'Dual op amp, 32 V', params: { 'Supply voltage': '32', Channels: '2' }, stock: 1200, datasheet: 'https://example.test/lm358.pdf', category: ['Semiconductors', 'Amplifiers'] },
  'AC-NE555': { mfr: 'Texas Instruments', mpn: 'NE555DR', desc: 'Timer', params: { Package: 'SOIC-8' }, stock: 0, datasheet: 'https://example.test/ne555.pdf', category: ['Timers'] },
}

const acme = defineSource({
  type: 'acme',
  title: 'Acme Parts',
  configSchema: z.strictObject({ apiKey: z.string().min(1), baseUrl: z.url(), region: z.enum(['eu', 'us']).default('eu') }),
  secretFields: ['apiKey'],
  capabilities: { search: true, offers: true, lifecycle: true },
  limits: { requestsPerMinute: 6000, requestsPerDay: null },
  async search(query, { http, config }, limit) {
    const found = await http.json<Array<{ ref: string; mpn: string; mfr: string }>>(`${config.baseUrl}/parts?q=${encodeURIComponent(query)}`, { headers: { 'x-api-key': config.apiKey } })
    return found.slice(0, limit).map((p): SourceCandidate => ({ ref: p.ref, mpn: p.mpn, manufacturer: p.mfr, description: null, imageUrl: null, productUrl: null, lifecycle: 'active', stock: null }))
  },
  async fetch(ref, { http, config, now }) {
    const answer = await http.request(`${config.baseUrl}/parts/${encodeURIComponent(ref)}`, { headers: { 'x-api-key': config.apiKey } })
    if (answer.status === 404) return null
    if (answer.status !== 200) throw statusError(answer.status, answer.headers, `acme answered ${answer.status}`)
    const p = answer.json<(typeof PARTS)[string] & { price: number; lifecycle: string }>()
    return SourcePart.parse({
      ref,
      manufacturer: p.mfr,
      mpn: p.mpn,
      name: null,
      description: p.desc,
      categoryHints: p.category,
      parameters: Object.entries(p.params).map(([name, value]) => ({ name, value, unit: null })),
      datasheetUrl: p.datasheet,
      imageUrl: null,
      productUrl: null,
      lifecycle: p.lifecycle === 'Obsolete' ? 'obsolete' : 'active',
      supplierStatus: p.lifecycle,
      package: null,
      rohs: true,
      offers: [{ supplier: 'Acme', sku: ref, url: null, stock: p.stock, minimumQuantity: 1, multiple: 1, packaging: null, currency: 'EUR', priceBreaks: [{ quantity: 1, price: p.price }], fetchedAt: now().toISOString() }],
    })
  },
})

let server: Server
let baseUrl: string
beforeAll(async () => {
  server = createServer((req, res: ServerResponse) => {
    fake.requests++
    if (fake.mode === 'hang') return
    if (fake.mode === 'status') return void res.writeHead(fake.status, fake.headers).end('{}')
    if (fake.mode === 'malformed') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ref": ')
    if (req.headers['x-api-key'] !== KEY) return void res.writeHead(401).end(`{"error":"bad key ${String(req.headers['x-api-key'])}"}`)
    const url = new URL(req.url ?? '/', 'http://acme')
    const json = (body: unknown, status = 200) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    if (url.pathname === '/parts') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase()
      return json(Object.entries(PARTS).filter(([, p]) => p.mpn.toLowerCase().includes(q)).map(([ref, p]) => ({ ref, mpn: p.mpn, mfr: p.mfr })))
    }
    const ref = decodeURIComponent(url.pathname.replace('/parts/', ''))
    const part = PARTS[ref]
    return part ? json({ ...part, price: fake.price, lifecycle: fake.lifecycle }) : json({ error: 'no such part' }, 404)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})
beforeEach(() => {
  Object.assign(fake, { mode: 'ok', status: 500, headers: {}, requests: 0, price: 0.52, lifecycle: 'Active' })
})

const SERVICE = createSourceService({ types: [...BUILT_IN_SOURCE_TYPES, acme as never], timeoutMs: 500, log: () => {} })
const api = useTestApi({ app: { sourceService: SERVICE } })

const configure = async (over: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => await api.ok('POST', '/api/sources', { type: 'acme', name: 'Acme', config: { apiKey: KEY, baseUrl, ...over }, ...extra }, 201)
/** Everything a failed call must leave as it was. */
const fingerprint = async () => {
  const [stats, changes] = await Promise.all([api.storage.stats(), api.storage.components.changes(0, 1000)])
  const { databaseBytes: _size, ...counts } = stats
  return JSON.stringify({ counts, lastSeq: changes.lastSeq })
}

describe('sources: configuration', () => {
  it('lists the built-in types and plugins with their config schemas, secret fields and limits', async () => {
    const types = await api.ok('GET', '/api/sources/types')
    expect(types.map((t: { type: string }) => t.type)).toEqual([...BUILT_IN_SOURCE_TYPES.map((t) => t.type), 'acme'])
    expect(types.map((t: { type: string }) => t.type)).toEqual(expect.arrayContaining(['digikey', 'mouser', 'tme']))
    const mouser = types.find((t: { type: string }) => t.type === 'mouser')
    expect(mouser.secretFields).toEqual(['apiKey'])
    expect(mouser.configSchema.properties).toHaveProperty('apiKey')
    expect(mouser.limits.requestsPerMinute).toBeGreaterThan(0)
  })

  it('keeps credentials write-only: hints in every answer, merged on patch, never in a list, a get or a backup', async () => {
    const s = await configure()
    expect(s).toMatchObject({ type: 'acme', name: 'Acme', config: { baseUrl, region: 'eu' }, secretHints: { apiKey: '…cdef' }, version: 1 })
    for (const res of [await api.call('GET', `/api/sources/${s.id}`), await api.call('GET', '/api/sources')]) expect(res.text).not.toContain(KEY)
    const renamed = await api.ok('PATCH', `/api/sources/${s.id}`, { name: 'Acme EU', config: { region: 'us' } })
    expect(renamed).toMatchObject({ name: 'Acme EU', config: { region: 'us' }, secretHints: { apiKey: '…cdef' }, version: 2 })
    expect((await api.storage.sources.get(s.id)).secrets).toEqual({ apiKey: KEY })
    const refused = await api.call('PATCH', `/api/sources/${s.id}`, { body: { config: { apiKey: null } } })
    expect([refused.status, refused.body.errors[0].path]).toEqual([400, 'body.config.apiKey'])
  })

  it('deletes a source; the offers it wrote stay, no longer naming it', async () => {
    const s = await configure()
    const c = await api.ok('POST', '/api/components/from-source', { sourceId: s.id, ref: 'AC-LM358' }, 201)
    expect((await api.call('DELETE', `/api/sources/${s.id}`)).status).toBe(204)
    expect((await api.call('GET', `/api/sources/${s.id}`)).status).toBe(404)
    expect(await api.ok('GET', `/api/components/${c.id}/offers`)).toEqual([expect.objectContaining({ sourceId: null, supplier: 'Acme', ref: 'AC-LM358' })])
    expect((await api.ok('GET', `/api/components/${c.id}/provenance`))[0]).toMatchObject({ sourceId: null, sourceName: 'Acme' })
  })

  it('refuses an unknown type or a config its type does not take, naming the field', async () => {
    const unknown = await api.call('POST', '/api/sources', { body: { type: 'nope', name: 'x', config: {} } })
    expect([unknown.status, unknown.body.errors[0].path]).toEqual([400, 'body.type'])
    const bad = await api.call('POST', '/api/sources', { body: { type: 'acme', name: 'x', config: { apiKey: KEY, baseUrl: 'not a url' } } })
    expect([bad.status, bad.body.errors[0].path]).toEqual([400, 'body.config.baseUrl'])
    expect((await api.storage.sources.list({ limit: 10 })).items).toEqual([])
  })
})

describe('sources: parts into the library', () => {
  it('searches, and caches what the provider said', async () => {
    const s = await configure()
    const first = await api.ok('GET', `/api/sources/${s.id}/search?q=lm358`)
    expect(first).toMatchObject({ sourceId: s.id, cached: false, candidates: [{ ref: 'AC-LM358', mpn: 'LM358DR', manufacturer: 'Texas Instruments' }] })
    expect((await api.ok('GET', `/api/sources/${s.id}/search?q=lm358`)).cached).toBe(true)
    expect(fake.requests).toBe(1)
    expect((await api.ok('GET', `/api/sources/${s.id}/part?ref=AC-LM358`)).part.offers[0].stock).toBe(1200)
  })

  it('makes a component from a part in one step: MPN, parameters, status, category, datasheet, offers and provenance', async () => {
    const s = await configure()
    await api.ok('POST', '/api/categories', { name: 'Amplifiers' }, 201)
    await api.ok('POST', '/api/parameter-types', { name: 'Supply voltage', kind: 'number', unit: 'V' }, 201)
    const c = await api.ok('POST', '/api/components/from-source', { sourceId: s.id, ref: 'AC-LM358' }, 201)
    expect(c).toMatchObject({
      name: 'LM358DR',
      description: 'Dual op amp, 32 V',
      status: 'active',
      category: 'Amplifiers',
      mpns: [{ manufacturer: 'Texas Instruments', partNumber: 'LM358DR' }],
      parameters: [
        { type: 'Supply voltage', value: '32', unit: 'V' },
        { type: 'Channels', value: '2' },
      ],
    })
    expect(c.attachments).toHaveLength(1)
    const attachment = await api.ok('GET', `/api/attachments/${c.attachments[0].id}`)
    expect(attachment).toMatchObject({ kind: 'datasheet', url: 'https://example.test/lm358.pdf' })
    expect(await api.ok('GET', `/api/components/${c.id}/offers`)).toEqual([expect.objectContaining({ sourceId: s.id, ref: 'AC-LM358', supplier: 'Acme', stock: 1200, currency: 'EUR', priceBreaks: [{ quantity: 1, price: 0.52 }] })])
    const provenance = await api.ok('GET', `/api/components/${c.id}/provenance`)
    expect(provenance.map((p: { field: string }) => p.field)).toEqual(['category', 'datasheet', 'description', 'mpns', 'name', 'offers', 'parameters', 'status'])
    expect(provenance[0]).toMatchObject({ sourceId: s.id, sourceType: 'acme', sourceName: 'Acme', ref: 'AC-LM358' })
    // The history says where the values came from, unless the caller commented the write itself.
    const history = await api.ok('GET', `/api/components/${c.id}/history`)
    expect(history.at(-1)).toMatchObject({ op: 'create', comment: 'from Acme (acme) AC-LM358' })
    expect(history.map((h: { comment: string }) => h.comment)).toEqual(history.map(() => 'from Acme (acme) AC-LM358'))
    const commented = await api.call('POST', '/api/components/from-source', { body: { sourceId: s.id, ref: 'AC-NE555' }, headers: { 'complib-comment': 'for the timer board' } })
    expect((await api.ok('GET', `/api/components/${commented.body.id}/history`))[0].comment).toBe('for the timer board')
  })

  it('exports the offers with the component (JSON always, CSV once a component has some)', async () => {
    const s = await configure()
    const c = await api.ok('POST', '/api/components/from-source', { sourceId: s.id, ref: 'AC-LM358' }, 201)
    const json = JSON.parse((await api.call('GET', '/api/exports/components?format=json')).text)
    expect(json.find((x: { id: string }) => x.id === c.id).offers).toEqual([expect.objectContaining({ supplier: 'Acme', sku: 'AC-LM358', stock: 1200, priceBreaks: [{ quantity: 1, price: 0.52 }] })])
    const csv = (await api.call('GET', '/api/exports/components?format=csv')).text
    expect(csv.split('\n')[0]).toContain(',offers')
    expect(csv).toContain('""supplier"":""Acme""')
    expect(csv).not.toContain(KEY)
  })

  it('enriches a component: a diff field by field, a dry run that writes nothing, then the chosen fields applied', async () => {
    const s = await configure()
    const c = await api.ok('POST', '/api/components', { name: 'LM358', description: 'op amp', mpns: [{ manufacturer: 'TI', partNumber: 'lm358dr' }], parameters: [{ type: 'Notes', value: 'ours' }] }, 201)
    const dry = await api.ok('POST', `/api/components/${c.id}/enrich`, { sourceId: s.id, dryRun: true })
    expect(dry.ref).toBe('AC-LM358')
    expect(dry.changes.map((x: { field: string; applied: boolean }) => [x.field, x.applied])).toEqual([
      ['description', false],
      ['parameters', false],
      ['datasheet', false],
      ['offers', false],
    ])
    expect(dry.component.version).toBe(c.version)
    const done = await api.ok('POST', `/api/components/${c.id}/enrich`, { sourceId: s.id, fields: ['parameters', 'offers'] })
    expect(done.changes.filter((x: { applied: boolean }) => x.applied).map((x: { field: string }) => x.field)).toEqual(['parameters', 'offers'])
    expect(done.component.description).toBe('op amp')
    expect(done.component.parameters.map((p: { type: string }) => p.type)).toEqual(['Notes', 'Supply voltage', 'Channels'])
    expect((await api.ok('GET', `/api/components/${c.id}/provenance`)).map((p: { field: string }) => p.field)).toEqual(['offers', 'parameters'])
    const history = await api.ok('GET', `/api/components/${c.id}/history`)
    expect(history.items ?? history).toHaveLength(2)
  })

  it('never applies a status the library lifecycle does not allow, and says why', async () => {
    const s = await configure()
    fake.lifecycle = 'Obsolete'
    const c = await api.ok('POST', '/api/components', { name: 'NE555', status: 'draft', mpns: [{ manufacturer: 'TI', partNumber: 'NE555DR' }] }, 201)
    const result = await api.ok('POST', `/api/components/${c.id}/enrich`, { sourceId: s.id, ref: 'AC-NE555', fields: ['status'] })
    expect(result.changes.find((x: { field: string }) => x.field === 'status')).toMatchObject({ current: 'draft', proposed: 'obsolete', applied: false, note: expect.stringContaining('draft to obsolete') })
    expect(result.component.status).toBe('draft')
  })
})

describe('sources: a provider that fails', () => {
  const cases: Array<{ name: string; set: () => void; status: number; retryAfter?: string }> = [
    { name: 'refused credentials (401)', set: () => Object.assign(fake, { mode: 'status', status: 401 }), status: 502 },
    { name: 'over quota (429 with Retry-After)', set: () => Object.assign(fake, { mode: 'status', status: 429, headers: { 'retry-after': '42' } }), status: 429, retryAfter: '42' },
    { name: 'down (500)', set: () => Object.assign(fake, { mode: 'status', status: 500 }), status: 503 },
    { name: 'malformed JSON', set: () => Object.assign(fake, { mode: 'malformed' }), status: 502 },
    { name: 'no answer in time', set: () => Object.assign(fake, { mode: 'hang' }), status: 503 },
  ]
  for (const c of cases) {
    it(`${c.name}: a clear problem naming the source, no credential in it, and nothing written`, async () => {
      const s = await configure()
      const target = await api.ok('POST', '/api/components', { name: 'LM358', mpns: [{ manufacturer: 'TI', partNumber: 'LM358DR' }] }, 201)
      c.set()
      const before = await fingerprint()
      for (const [method, path, body] of [
        ['POST', '/api/components/from-source', { sourceId: s.id, ref: 'AC-LM358' }],
        ['POST', `/api/components/${target.id}/enrich`, { sourceId: s.id, ref: 'AC-LM358' }],
        ['GET', `/api/sources/${s.id}/search?q=lm358`, undefined],
      ] as const) {
        const res = await api.call(method, path, body ? { body } : {})
        expect(res.status, `${method} ${path}: ${res.text}`).toBe(c.status)
        expect(res.headers.get('content-type')).toContain('application/problem+json')
        expect(res.body.detail).toContain('source "Acme"')
        expect(res.text).not.toContain(KEY)
        if (c.retryAfter) expect(res.headers.get('retry-after')).toBe(c.retryAfter)
      }
      expect(await fingerprint()).toBe(before)
      expect(await api.storage.offers.list(target.id)).toEqual([])
    })
  }

  it('a part the provider does not have is a 404, and an unknown source too', async () => {
    const s = await configure()
    expect((await api.call('POST', '/api/components/from-source', { body: { sourceId: s.id, ref: 'AC-NOPE' } })).status).toBe(404)
    expect((await api.call('POST', '/api/components/from-source', { body: { sourceId: 'src_01JD7W3T9X4QF5B8S2M6K0N1PZ', ref: 'AC-LM358' } })).status).toBe(404)
  })
})

describe('sources: enrichment in bulk', () => {
  const poll = async (id: string) => {
    for (;;) {
      const job = await api.ok('GET', `/api/jobs/${id}`)
      if (job.status !== 'running') return job
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  it('a dry run says what would change for each component and writes nothing; the real run applies it', async () => {
    const s = await configure()
    const a = await api.ok('POST', '/api/components', { name: 'LM358', category: 'Amps', mpns: [{ manufacturer: 'TI', partNumber: 'LM358DR' }] }, 201)
    const b = await api.ok('POST', '/api/components', { name: 'NE555', category: 'Amps', mpns: [{ manufacturer: 'TI', partNumber: 'NE555DR' }] }, 201)
    const c = await api.ok('POST', '/api/components', { name: 'Mystery', category: 'Amps', mpns: [{ manufacturer: 'X', partNumber: 'NOPE-1' }] }, 201)
    const before = await fingerprint()
    const started = await api.call('POST', `/api/sources/${s.id}/enrich-jobs`, { body: { filter: { category: 'Amps' }, fields: ['description', 'offers'] } })
    expect(started.status, started.text).toBe(202)
    expect(started.headers.get('location')).toBe(`/api/jobs/${started.body.id}`)
    const dry = await poll(started.body.id)
    expect(dry).toMatchObject({ kind: 'source-enrich', status: 'succeeded', data: { dryRun: true, total: 3, done: 3, changed: 2, unchanged: 0, failed: 1 } })
    expect(dry.data.changes).toEqual([
      { componentId: a.id, fields: ['description', 'offers'] },
      { componentId: b.id, fields: ['description', 'offers'] },
    ])
    expect(dry.data.failures).toEqual([{ componentId: c.id, status: 404, detail: expect.stringContaining('no part numbered NOPE-1') }])
    expect(await fingerprint()).toBe(before)

    const real = await poll((await api.ok('POST', `/api/sources/${s.id}/enrich-jobs`, { componentIds: [a.id, b.id], fields: ['description', 'offers'], dryRun: false }, 202)).id)
    expect(real.data).toMatchObject({ dryRun: false, done: 2, changed: 2 })
    expect((await api.ok('GET', `/api/components/${a.id}`)).description).toBe('Dual op amp, 32 V')
    expect((await api.ok('GET', `/api/components/${b.id}/offers`))[0].stock).toBe(0)
  })

  it('ends the job when the provider refuses the credentials, saying so', async () => {
    const s = await configure()
    const a = await api.ok('POST', '/api/components', { name: 'LM358', mpns: [{ manufacturer: 'TI', partNumber: 'LM358DR' }] }, 201)
    const b = await api.ok('POST', '/api/components', { name: 'NE555', mpns: [{ manufacturer: 'TI', partNumber: 'NE555DR' }] }, 201)
    Object.assign(fake, { mode: 'status', status: 401 })
    const job = await poll((await api.ok('POST', `/api/sources/${s.id}/enrich-jobs`, { componentIds: [a.id, b.id], dryRun: false }, 202)).id)
    expect(job.status).toBe('failed')
    expect(job.data.done).toBe(0)
    expect(job.data.failures[0].detail).toMatch(/the job stopped: .*credentials/)
    expect(JSON.stringify(job)).not.toContain(KEY)
  })

  it('refuses a body without components or filter, naming the field', async () => {
    const s = await configure()
    const res = await api.call('POST', `/api/sources/${s.id}/enrich-jobs`, { body: {} })
    expect([res.status, res.body.errors[0].path]).toEqual([400, 'body.componentIds'])
  })
})

describe('sources: scheduled refresh', () => {
  const refreshNow = async (sourceId: string) => {
    const { jobs, schedules } = enrichJobsFor(api.storage, SERVICE)
    const job = await schedules.runNow(sourceId)
    expect(job).not.toBeNull()
    await jobs.finished(job!.id)
    return await api.ok('GET', `/api/jobs/${job!.id}`)
  }

  it('keeps its cron and filter, shows when it runs next, and refuses a cron that is not one', async () => {
    const s = await configure()
    const bad = await api.call('PATCH', `/api/sources/${s.id}`, { body: { refresh: { cron: 'every day' } } })
    expect([bad.status, bad.body.errors[0].path]).toEqual([400, 'body.refresh.cron'])
    const scheduled = await api.ok('PATCH', `/api/sources/${s.id}`, { refresh: { cron: '0 3 * * 1', filter: { category: 'ICs' } } })
    expect(scheduled.refresh).toEqual({ cron: '0 3 * * 1', filter: { category: 'ICs' }, autoStatus: false })
    expect(new Date(scheduled.nextRefreshAt).getUTCDay()).toBe(1)
    expect((await api.ok('PATCH', `/api/sources/${s.id}`, { refresh: null })).nextRefreshAt).toBeNull()
  })

  it('writes the new prices, and tags a part gone obsolete at the source without changing its status', async () => {
    const s = await configure({}, { refresh: { cron: '0 3 * * *', filter: { category: 'ICs' } } })
    const c = await api.ok('POST', '/api/components/from-source', { sourceId: s.id, ref: 'AC-LM358', category: 'ICs' }, 201)
    const outside = await api.ok('POST', '/api/components/from-source', { sourceId: s.id, ref: 'AC-NE555', category: 'Timers' }, 201)
    Object.assign(fake, { price: 0.61, lifecycle: 'Obsolete' })
    const job = await refreshNow(s.id)
    expect(job).toMatchObject({ kind: 'source-refresh', status: 'succeeded', data: { total: 1, done: 1, flagged: [{ componentId: c.id, lifecycle: 'obsolete', applied: false }] } })
    const after = await api.ok('GET', `/api/components/${c.id}`)
    expect([after.status, after.tags]).toEqual(['active', ['obsolete-at-source']])
    expect((await api.ok('GET', `/api/components/${c.id}/offers`))[0].priceBreaks).toEqual([{ quantity: 1, price: 0.61 }])
    expect((await api.ok('GET', `/api/components/${outside.id}/offers`))[0].priceBreaks).toEqual([{ quantity: 1, price: 0.52 }])
  })

  it('changes the status instead when the source says so (autoStatus)', async () => {
    const s = await configure({}, { refresh: { cron: '0 3 * * *', autoStatus: true } })
    const c = await api.ok('POST', '/api/components/from-source', { sourceId: s.id, ref: 'AC-LM358' }, 201)
    fake.lifecycle = 'Obsolete'
    const job = await refreshNow(s.id)
    expect(job.data.flagged).toEqual([{ componentId: c.id, lifecycle: 'obsolete', applied: true }])
    const after = await api.ok('GET', `/api/components/${c.id}`)
    expect([after.status, after.tags]).toEqual(['obsolete', []])
  })
})
