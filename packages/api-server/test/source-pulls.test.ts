import { SourceError, defineSource, type PeerPart } from '@complib/core'
import { BUILT_IN_SOURCE_TYPES, createSourceService } from '@complib/sources'
import { beforeEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { importJobs } from '../src/imports/jobs'
import { useTestApi } from './harness'
import { expectPulledLosslessly } from './pulled-library'

/**
 * Pulls from a peer of the test's own (a plugin type whose library is an
 * array here), so every case is at hand: a first pull previewed then
 * committed losslessly, a re-sync that changes exactly what changed at the
 * peer, a peer that fails, and a part the library refuses. The built-in
 * InvenTree and Part-DB types are pulled from their fakes in
 * source-pulls-peers.test.ts.
 */
const TOKEN = 'peer-token-0123456789abcdef'
const NOW = '2026-11-26T12:00:00.000Z'

function makePart(n: number): PeerPart {
  return {
    key: String(n),
    name: n % 7 === 0 ? `Résistance ${n} Ω` : `Part ${n}`,
    ipn: n % 5 === 0 ? null : `P-${String(n).padStart(4, '0')}`,
    description: n % 4 === 0 ? null : `Description of part ${n}`,
    categoryPath: n % 3 === 0 ? [] : ['Passives', n % 2 ? 'Resistors' : 'Capacitors', ...(n % 6 === 1 ? ['0402'] : [])],
    tags: n % 2 ? ['smd', `batch-${n % 3}`] : [],
    status: n % 9 === 0 ? 'obsolete' : n % 11 === 0 ? null : 'active',
    parameters: [
      { name: 'Resistance', value: `${n}k`, unit: 'Ω' },
      ...(n % 2 ? [{ name: 'Tolerance', value: '1', unit: '%' }] : []),
      ...(n % 3 === 1 ? [{ name: 'Package', value: '0603', unit: null }] : []),
    ],
    mpns: n % 4 === 3 ? [] : [{ manufacturer: n % 2 ? 'Yageo' : 'Murata', partNumber: `MPN-${n}` }, ...(n % 5 === 1 ? [{ manufacturer: 'Vishay', partNumber: `ALT-${n}` }] : [])],
    offers:
      n % 3 === 2
        ? []
        : [{ supplier: 'DigiKey', sku: `DK-${n}`, url: `https://dk.example/${n}`, stock: n * 10, minimumQuantity: 1, multiple: 1, packaging: 'Cut tape', currency: 'EUR', priceBreaks: [{ quantity: 1, price: 0.1 + n / 100 }, { quantity: 100, price: 0.05 }], fetchedAt: NOW }],
    stock: n % 4 === 2 ? [] : [{ path: ['Shelf A', `Bin ${n % 5}`], quantity: n }, ...(n % 8 === 1 ? [{ path: ['Shelf B'], quantity: 3 }] : [])],
    attachments: n % 3 === 0 ? [{ name: `ds-${n}.pdf`, url: `https://peer.example/media/ds-${n}.pdf`, kind: 'datasheet' }] : [],
    kicad: {
      symbol: n % 5 === 2 ? 'Device:R' : null,
      footprint: n % 5 === 2 ? 'Resistor_SMD:R_0603_1608Metric' : null,
      value: n % 5 === 2 ? `${n}k` : null,
      excludeFromBom: n % 10 === 2 ? true : null,
      excludeFromBoard: null,
      excludeFromSim: n % 10 === 7 ? true : null,
    },
    modifiedAt: NOW,
  }
}

const peer = { parts: [] as PeerPart[], fail: null as SourceError | null, reads: 0 }

const minipeer = defineSource({
  type: 'minipeer',
  configSchema: z.strictObject({ baseUrl: z.url(), token: z.string().min(1) }),
  secretFields: ['token'],
  capabilities: { search: false, offers: true, lifecycle: false, pull: true },
  limits: { requestsPerMinute: null, requestsPerDay: null },
  async search() {
    return []
  },
  async fetch() {
    return null
  },
  async *pull({ config }, onProgress) {
    peer.reads++
    if (config.token !== TOKEN) throw new SourceError('auth', 'the peer refused the token')
    for (const [i, part] of peer.parts.entries()) {
      if (peer.fail && i === Math.floor(peer.parts.length / 2)) throw peer.fail
      onProgress?.(i + 1, peer.parts.length)
      yield structuredClone(part)
    }
  },
})

const SERVICE = createSourceService({ types: [...BUILT_IN_SOURCE_TYPES, minipeer as never], log: () => {} })
const api = useTestApi({ app: { sourceService: SERVICE } })

beforeEach(() => {
  Object.assign(peer, { parts: Array.from({ length: 40 }, (_, i) => makePart(i + 1)), fail: null, reads: 0 })
})

const configure = async (token = TOKEN) => await api.ok('POST', '/api/sources', { type: 'minipeer', name: 'Old library', config: { baseUrl: 'https://peer.example', token } }, 201)

/** Starts a pull and waits for its session to be planned. */
async function pull(sourceId: string) {
  const started = await api.call('POST', `/api/sources/${sourceId}/pulls`, { body: {} })
  expect(started.status, started.text).toBe(202)
  expect(started.body).toMatchObject({ status: 'planning', preset: 'pull', source: sourceId, progress: { phase: 'pulling' } })
  expect(started.headers.get('location')).toBe(`/api/imports/${started.body.id}`)
  await importJobs(api.storage).idle()
  return await api.ok('GET', `/api/imports/${started.body.id}`)
}

const fingerprint = async () => {
  const [stats, changes] = await Promise.all([api.storage.stats(), api.storage.components.changes(0, 1000)])
  const { databaseBytes: _size, ...counts } = stats
  return JSON.stringify({ counts, lastSeq: changes.lastSeq })
}

describe('pulling a peer library', () => {
  it('previews every part as a create, changes nothing until the commit, then holds every field as the peer has it', async () => {
    const source = await configure()
    const before = await fingerprint()
    const session = await pull(source.id)
    expect(session).toMatchObject({ status: 'pending', rowCount: 40, summary: { create: 40, update: 0, unchanged: 0, invalid: 0 }, errors: [] })
    expect(session.fieldSummary.offers.create).toBe(peer.parts.filter((p) => p.offers.length).length)
    // A pull's session is previewed like any import: nothing is written before the commit (the session itself aside).
    expect(await api.ok('GET', '/api/components')).toEqual([])
    expect(JSON.parse(await fingerprint()).lastSeq).toBe(JSON.parse(before).lastSeq)
    const committed = await api.ok('POST', `/api/imports/${session.id}/commit`)
    expect(committed).toMatchObject({ status: 'committed', result: { created: 40, updated: 0, unchanged: 0 } })
    const ids = await expectPulledLosslessly(api, source.id, peer.parts)
    expect((await api.ok('GET', `/api/components/${ids.get('1')}/history`))[0]).toMatchObject({ op: 'create', comment: 'pulled from Old library (minipeer)' })
  })

  it('re-syncs: a second pull updates exactly the parts changed at the peer, field by field, and adds the new ones', async () => {
    const source = await configure()
    await api.ok('POST', `/api/imports/${(await pull(source.id)).id}/commit`)
    peer.parts[2]!.description = 'Changed at the peer'
    peer.parts[3]!.offers[0]!.priceBreaks[0]!.price = 9.99
    peer.parts[6]!.stock[0]!.quantity = 1234
    peer.parts[7]!.parameters.push({ name: 'Power', value: '0.1', unit: 'W' })
    peer.parts.push(makePart(41))
    const ids = await api.storage.externalRefs.lookup(source.id, 'part', ['4'])
    const priced = await api.ok('GET', `/api/components/${ids[0]!.target}`)
    const resync = await pull(source.id)
    expect(resync.summary).toEqual({ create: 1, update: 4, unchanged: 36, invalid: 0 })
    const updates = await api.ok('GET', `/api/imports/${resync.id}/rows?outcome=update`)
    expect(Object.fromEntries(updates.map((r: { row: number; changes: Array<{ field: string }> }) => [r.row - 1, r.changes.map((c) => c.field)]))).toEqual({ 3: ['description'], 4: ['offers'], 7: ['stock'], 8: ['parameters'] })
    expect(await api.ok('POST', `/api/imports/${resync.id}/commit`)).toMatchObject({ result: { created: 1, updated: 4, unchanged: 36 } })
    await expectPulledLosslessly(api, source.id, peer.parts)
    // New prices at a supplier are no new version of the part.
    expect((await api.ok('GET', `/api/components/${priced.id}`)).version).toBe(priced.version)
    // A third pull of an unchanged peer changes nothing.
    expect((await pull(source.id)).summary).toEqual({ create: 0, update: 0, unchanged: 41, invalid: 0 })
  })

  it('finds a library imported before by its IPN and keeps the peer key from then on', async () => {
    const source = await configure()
    const had = await api.ok('POST', '/api/components', { name: 'Typed by hand', ipn: 'P-0001' }, 201)
    const session = await pull(source.id)
    expect(session.summary).toMatchObject({ create: 39, update: 1 })
    await api.ok('POST', `/api/imports/${session.id}/commit`)
    const [ref] = await api.storage.externalRefs.lookup(source.id, 'part', ['1'])
    expect(ref!.target).toBe(had.id)
    expect((await api.ok('GET', `/api/components/${had.id}`)).name).toBe('Part 1')
  })

  it('ends the session failed, naming why and writing nothing, when the peer refuses the token or fails midway', async () => {
    for (const [source, reason] of [
      [await configure('wrong-token-000000000000'), /^pulling the parts failed: source "Old library": the peer refused the token \(the provider refused the source's credentials: check them with PATCH \/api\/sources\/\{id\}\); pull again$/],
      [await configure(), /pulling the parts failed: .*peer is down/],
    ] as const) {
      if (reason.source.includes('down')) peer.fail = new SourceError('unavailable', 'the peer is down')
      const before = await fingerprint()
      const session = await pull(source.id)
      expect(session.status).toBe('failed')
      expect(session.failure).toMatch(reason)
      expect(session.failure).not.toContain('wrong-token')
      expect(JSON.parse(await fingerprint()).lastSeq).toBe(JSON.parse(before).lastSeq)
      const commit = await api.call('POST', `/api/imports/${session.id}/commit`)
      expect(commit.status).toBe(409)
    }
    expect(await api.ok('GET', '/api/components')).toEqual([])
  })

  it('refuses the whole commit while a part is one the library cannot hold, naming the row and field', async () => {
    const source = await configure()
    peer.parts[9]!.tags = Array.from({ length: 30 }, (_, i) => `tag-${i}`)
    const session = await pull(source.id)
    expect(session.summary.invalid).toBe(1)
    expect(session.errors[0]).toMatchObject({ row: 11, path: expect.stringMatching(/^tags/) })
    const refused = await api.call('POST', `/api/imports/${session.id}/commit`)
    expect(refused.status).toBe(400)
    expect(await api.ok('GET', '/api/components')).toEqual([])
  })

  it('a re-sync committed as a job that fails midway puts every offer, stock and field back as it was', async () => {
    peer.parts = Array.from({ length: 1200 }, (_, i) => makePart(i + 1))
    const source = await configure()
    const first = await pull(source.id)
    expect((await api.call('POST', `/api/imports/${first.id}/commit`)).status).toBe(202)
    await importJobs(api.storage).idle()
    const snapshot = async () => {
      const refs = await api.storage.externalRefs.lookup(source.id, 'part', ['1', '4', '7', '1100'])
      return await Promise.all(refs.map(async (r) => [await api.ok('GET', `/api/components/${r.target}`), await api.ok('GET', `/api/components/${r.target}/offers`), (await api.ok('GET', `/api/components/${r.target}/locations`)).map(({ updatedAt: _at, ...s }: Record<string, unknown>) => s)]))
    }
    const before = await snapshot()
    for (const part of peer.parts) {
      for (const offer of part.offers) offer.priceBreaks[0]!.price += 1
      for (const lot of part.stock) lot.quantity += 1
    }
    peer.parts[1149]!.ipn = 'TAKEN-MEANWHILE'
    const resync = await pull(source.id)
    expect(resync.summary).toMatchObject({ update: peer.parts.filter((p) => p.offers.length || p.stock.length).length, invalid: 0 })
    // A commit as a job notes its source in the history too.
    const [one] = await api.storage.externalRefs.lookup(source.id, 'part', ['1'])
    expect((await api.ok('GET', `/api/components/${one!.target}/history`))[0].comment).toBe('pulled from Old library (minipeer)')
    importJobs(api.storage).hooks.afterChunk = async (_id, chunk) => {
      if (chunk === 1) await api.storage.components.create({ ipn: 'TAKEN-MEANWHILE', name: 'typed meanwhile', status: 'draft', tags: [], parameters: [], mpns: [] } as never)
    }
    try {
      expect((await api.call('POST', `/api/imports/${resync.id}/commit`)).status).toBe(202)
      await importJobs(api.storage).idle()
      expect((await api.ok('GET', `/api/imports/${resync.id}`)).status).toBe('failed')
      expect(await snapshot()).toEqual(before)
    } finally {
      importJobs(api.storage).hooks.afterChunk = undefined
    }
  }, 120_000)

  it('names a status move the lifecycle forbids in the preview, as an invalid row, rather than failing the commit', async () => {
    const source = await configure()
    await api.ok('POST', `/api/imports/${(await pull(source.id)).id}/commit`)
    const [ref] = await api.storage.externalRefs.lookup(source.id, 'part', ['1'])
    const c = await api.ok('GET', `/api/components/${ref!.target}`)
    await api.ok('PATCH', `/api/components/${c.id}`, { status: 'obsolete' }, 200)
    peer.parts[0]!.status = 'nrnd'
    const resync = await pull(source.id)
    expect(resync.summary.invalid).toBe(1)
    expect(resync.errors).toEqual([{ row: 2, path: 'status', message: expect.stringMatching(/^status cannot change from obsolete to nrnd \(allowed from obsolete: active\)/) }])
    expect((await api.call('POST', `/api/imports/${resync.id}/commit`)).status).toBe(400)
  })

  it('answers 409 for a source whose type cannot pull, and 404 for no such source', async () => {
    const mouser = await api.ok('POST', '/api/sources', { type: 'mouser', name: 'Mouser', config: { apiKey: 'mouser-key-0000000000' } }, 201)
    const refused = await api.call('POST', `/api/sources/${mouser.id}/pulls`, { body: {} })
    expect([refused.status, refused.body.detail]).toEqual([409, expect.stringContaining('cannot pull')])
    expect((await api.call('POST', '/api/sources/src_01JD7W3T9X4QF5B8S2M6K0N1PZ/pulls', { body: {} })).status).toBe(404)
    const types = await api.ok('GET', '/api/sources/types')
    expect(types.find((t: { type: string }) => t.type === 'minipeer').capabilities.pull).toBe(true)
    expect(types.find((t: { type: string }) => t.type === 'mouser').capabilities.pull).toBe(false)
  })
})
