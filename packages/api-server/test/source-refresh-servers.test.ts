import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { SourcePart, defineSource, type Storage } from '@complib/core'
import { createPostgresStorage } from '@complib/core/postgres'
import { createSourceService } from '@complib/sources'
import { afterEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { createEnrichJobs } from '../src/sources/enrich-jobs'
import { createRefreshSchedules } from '../src/sources/refresh-schedule'

/**
 * Servers sharing a PostgreSQL database each run every source's refresh
 * schedule (decision 1608): of two servers firing one tick, one refreshes and
 * the other skips it, so the provider's quota is spent once. Runs in the
 * PostgreSQL project (vitest.postgres.config.ts); an embedded library has one
 * server.
 */
const POSTGRES = process.env.COMPLIB_TEST_STORAGE === 'postgres'
const DATABASE_URL = process.env.COMPLIB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const fetched: string[] = []

const still = defineSource({
  type: 'still',
  configSchema: z.strictObject({}),
  secretFields: [],
  capabilities: { search: true, offers: true, lifecycle: true },
  limits: { requestsPerMinute: null, requestsPerDay: null },
  async search(query) {
    return [{ ref: query, manufacturer: 'Acme', mpn: query, description: null, imageUrl: null, productUrl: null, lifecycle: 'active', stock: 5 }]
  },
  async fetch(ref, { now }) {
    fetched.push(ref)
    // Slow enough that the second server's tick finds the first one's refresh running.
    await sleep(300)
    return SourcePart.parse({
      ref, manufacturer: 'Acme', mpn: ref, name: null, description: null, categoryHints: [], parameters: [], datasheetUrl: null, imageUrl: null, productUrl: null,
      lifecycle: 'active', supplierStatus: null, package: null, rohs: null,
      offers: [{ supplier: 'Acme', sku: ref, url: null, stock: 5, minimumQuantity: 1, multiple: 1, packaging: null, currency: 'EUR', priceBreaks: [{ quantity: 1, price: 1 }], fetchedAt: now().toISOString() }],
    })
  },
})

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe.skipIf(!POSTGRES)('scheduled refreshes on servers sharing a database', () => {
  it('two servers firing one tick refresh the source once; the claim outlasts the refresh by the minimum hold', { timeout: 60_000 }, async () => {
    const schema = `complib_api_${randomBytes(6).toString('hex')}`
    const storages: Storage[] = []
    for (let i = 0; i < 2; i++) {
      const storage = await createPostgresStorage({ url: DATABASE_URL, schema, poolSize: 4 })
      cleanups.push(i === 0 ? () => storage.dropSchema() : () => storage.close())
      storages.push(storage)
    }
    const source = await storages[0]!.sources.create({ type: 'still', name: 'Still', config: {}, secrets: {}, refresh: { cron: '0 3 * * *', filter: {}, autoStatus: false } })
    await storages[0]!.components.create({ name: 'Part', ipn: 'P-1', status: 'active', tags: [], parameters: [], mpns: [{ manufacturer: 'Acme', partNumber: 'ACME-1' }] } as never)
    const service = createSourceService({ types: [still as never], cacheTtlMs: 0, log: () => {} })
    const servers = storages.map((storage) => {
      const jobs = createEnrichJobs({ storage, sources: service })
      const schedules = createRefreshSchedules(storage, jobs, undefined, { claimMinMs: 1_500 })
      cleanups.push(async () => {
        schedules.stop()
        await jobs.stop()
      })
      return { jobs, schedules }
    })

    const started = await Promise.all(servers.map((s) => s.schedules.runNow(source.id)))
    expect(started.filter((job) => job !== null)).toHaveLength(1)
    const winner = servers[started.findIndex((job) => job !== null)]!
    await winner.jobs.finished(started.find((job) => job !== null)!.id)
    expect(fetched).toEqual(['ACME-1'])
    // Within the minimum hold, neither server starts the source again.
    expect(await Promise.all(servers.map((s) => s.schedules.runNow(source.id)))).toEqual([null, null])
    // After it, one does.
    await sleep(1_700)
    const again = await Promise.all(servers.map((s) => s.schedules.runNow(source.id)))
    expect(again.filter((job) => job !== null)).toHaveLength(1)
  })
})
