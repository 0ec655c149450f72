import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recordStatements } from '../../../test/sqlite-statements'
import { createSqliteStorage, type SqliteStorage } from './storage'

// The run event stream reads the batches it saw in flight by index, four times a second for each
// watcher: a page that holds every match it asked for is its own count.
let storage: SqliteStorage
beforeEach(async () => {
  storage = await createSqliteStorage()
})
afterEach(async () => await storage.close())

describe("a run's batches read by index", () => {
  it('are counted from the page when it holds them all, and by a count when it does not', async () => {
    const c = await storage.connectors.create({ type: 'webhook', name: 'hook', enabled: true, config: { url: 'http://127.0.0.1:9/h' }, secret: 'whsec_x', code: null })
    const run = await storage.runs.create({ connectorId: c.id, trigger: 'manual', batches: Array.from({ length: 6 }, (_, i) => ({ webhookId: `msg_${i}`, ids: [`cmp_${i}`] })) })
    const log = recordStatements(storage.database.db)
    expect(await storage.runs.listBatches(run.id, { limit: 3, indexes: [5, 2, 0] })).toMatchObject({ total: 3, nextCursor: null })
    expect(log.runs.filter((r) => /count\(\*\)/.test(r.sql))).toEqual([])
    expect(await storage.runs.listBatches(run.id, { limit: 2, indexes: [5, 2, 0] })).toMatchObject({ total: 3, items: [{ index: 0 }, { index: 2 }] })
    expect(log.runs.filter((r) => /count\(\*\)/.test(r.sql))).toHaveLength(1)
    log.stop()
  })
})
