import { createSourceHttp, defineSource, type AnySourceDefinition, type PeerPart } from '@complib/core'
import { BUILT_IN_SOURCE_TYPES, createSourceService, inventreeSource, partdbSource } from '@complib/sources'
import { INVENTREE_FAKE_TOKEN, PARTDB_FAKE_TOKEN, startInventreeFake, startPartdbFake, type InventreeFake, type PartdbFake } from '@complib/sources/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importJobs } from '../src/imports/jobs'
import { useTestApi, type TestApi } from './harness'
import { expectPulledLosslessly } from './pulled-library'

/**
 * The built-in peers pulled through the API from their fakes (packages/sources
 * test/fakes, written from the peers' published API schemas), 300 parts each:
 * the library holds every field as the source reads it (the sources' own
 * tests check that reading against the fakes' records, field by field), and a
 * re-sync after changes at the peer updates exactly the parts changed.
 */
// Part-DB is read a request per part, 600 a minute: four pulls of 300 parts would wait out the limiter's minute here.
const UNPACED = BUILT_IN_SOURCE_TYPES.map((t) => defineSource({ ...t, limits: { requestsPerMinute: null, requestsPerDay: null } }))
const SERVICE = createSourceService({ types: UNPACED, log: () => {} })
const api = useTestApi({ app: { sourceService: SERVICE } })

/** What the source reads from the peer, asked directly (not through the server). */
async function readDirectly(type: AnySourceDefinition, config: Record<string, unknown>, secret: string): Promise<PeerPart[]> {
  const signal = new AbortController().signal
  const context = { config: type.configSchema.parse(config), http: createSourceHttp({ signal, secrets: [secret] }), signal, memo: new Map(), now: () => new Date() }
  const parts: PeerPart[] = []
  for await (const part of type.pull!(context)) parts.push(part)
  return parts
}

async function pullAndSettle(api: TestApi, sourceId: string) {
  const started = await api.call('POST', `/api/sources/${sourceId}/pulls`, { body: {} })
  expect(started.status, started.text).toBe(202)
  await importJobs(api.storage).idle()
  return await api.ok('GET', `/api/imports/${started.body.id}`)
}

/** The peer keys of the components a session updates, with the fields each changes. */
async function updatedKeys(api: TestApi, sessionId: string, ids: Map<string, string>): Promise<Record<string, string[]>> {
  const keyOf = new Map([...ids].map(([key, id]) => [id, key]))
  const rows = await api.ok('GET', `/api/imports/${sessionId}/rows?outcome=update&limit=1000`)
  return Object.fromEntries(rows.map((r: { componentId: string; changes: Array<{ field: string }> }) => [keyOf.get(r.componentId), r.changes.map((c) => c.field).sort()]))
}

describe('pulling InvenTree (300 parts, from its fake)', () => {
  let fake: InventreeFake
  beforeAll(async () => {
    fake = await startInventreeFake()
  })
  afterAll(async () => {
    await fake?.close()
  })

  it('creates every part with every field, then a re-sync updates exactly what changed at the peer', async () => {
    const config = { baseUrl: fake.url, token: INVENTREE_FAKE_TOKEN }
    const source = await api.ok('POST', '/api/sources', { type: 'inventree', name: 'InvenTree', config }, 201)
    const first = await pullAndSettle(api, source.id)
    expect(first).toMatchObject({ status: 'pending', rowCount: 300, summary: { create: 300, update: 0, unchanged: 0, invalid: 0 }, errors: [] })
    expect(await api.ok('POST', `/api/imports/${first.id}/commit`)).toMatchObject({ status: 'committed', result: { created: 300 } })
    const ids = await expectPulledLosslessly(api, source.id, await readDirectly(inventreeSource as AnySourceDefinition, config, INVENTREE_FAKE_TOKEN))

    // Three changes in InvenTree: a description, a supplier's price, stock received in a bin.
    const described = fake.db.parts[0]!
    described.description = 'Changed in InvenTree'
    const priceBreak = fake.db.priceBreaks[0]!
    priceBreak.price += 1
    const priced = fake.db.supplierParts.find((s) => s.pk === priceBreak.part)!.part
    const stocked = fake.db.parts.find((p) => p.pk !== described.pk && p.pk !== priced)!
    fake.db.stockItems.push({ pk: 999_001, part: stocked.pk, location: fake.db.locations[0]!.pk, quantity: 7, in_stock: true })
    const resync = await pullAndSettle(api, source.id)
    expect(await updatedKeys(api, resync.id, ids)).toEqual({ [String(described.pk)]: ['description'], [String(priced)]: ['offers'], [String(stocked.pk)]: ['stock'] })
    expect(resync.summary).toEqual({ create: 0, update: 3, unchanged: 297, invalid: 0 })
    await api.ok('POST', `/api/imports/${resync.id}/commit`)
    await expectPulledLosslessly(api, source.id, await readDirectly(inventreeSource as AnySourceDefinition, config, INVENTREE_FAKE_TOKEN))
  }, 120_000)
})

describe('pulling Part-DB (300 parts, from its fake)', () => {
  let fake: PartdbFake
  beforeAll(async () => {
    fake = await startPartdbFake()
  })
  afterAll(async () => {
    await fake?.close()
  })

  it('creates every part with every field, then a re-sync updates exactly what changed at the peer', async () => {
    const config = { baseUrl: fake.url, token: PARTDB_FAKE_TOKEN }
    const source = await api.ok('POST', '/api/sources', { type: 'partdb', name: 'Part-DB', config }, 201)
    const first = await pullAndSettle(api, source.id)
    expect(first).toMatchObject({ status: 'pending', rowCount: 300, summary: { create: 300, update: 0, unchanged: 0, invalid: 0 }, errors: [] })
    expect(await api.ok('POST', `/api/imports/${first.id}/commit`)).toMatchObject({ status: 'committed', result: { created: 300 } })
    const ids = await expectPulledLosslessly(api, source.id, await readDirectly(partdbSource as AnySourceDefinition, config, PARTDB_FAKE_TOKEN))

    // Three changes in Part-DB: a name, a price, a lot's amount.
    const renamed = fake.db.parts[0]!
    const priced = fake.db.parts.find((p) => p !== renamed && p.orderdetails.some((o) => !o.obsolete && o.pricedetails.length))!
    const counted = fake.db.parts.find((p) => p !== renamed && p !== priced && p.partLots.some((l) => !l.instock_unknown && l.storage_location !== null && l.amount > 0))!
    renamed.name = `${renamed.name} (renamed)`
    priced.orderdetails.find((o) => !o.obsolete && o.pricedetails.length)!.pricedetails[0]!.price = '123.45000'
    counted.partLots.find((l) => !l.instock_unknown && l.storage_location !== null && l.amount > 0)!.amount += 5
    const resync = await pullAndSettle(api, source.id)
    expect(await updatedKeys(api, resync.id, ids)).toEqual({ [String(renamed.id)]: ['name'], [String(priced.id)]: ['offers'], [String(counted.id)]: ['stock'] })
    expect(resync.summary).toEqual({ create: 0, update: 3, unchanged: 297, invalid: 0 })
    await api.ok('POST', `/api/imports/${resync.id}/commit`)
    await expectPulledLosslessly(api, source.id, await readDirectly(partdbSource as AnySourceDefinition, config, PARTDB_FAKE_TOKEN))
  }, 120_000)
})
