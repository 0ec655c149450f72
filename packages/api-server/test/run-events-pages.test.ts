import { createSqliteStorage, type SqliteStorage } from '@complib/core/sqlite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRunEventStream } from '../src/connectors/run-events'
import { parseEvents } from './sse-events'

// The run's event stream looks at the run every 250 ms. It read the run with
// every batch each time: 4,000 batches for a push of a million parts, tens of
// milliseconds of the server's thread four times a second, for each watcher.
// It now reads the sums, the batches it saw in flight by index, and the last page.
let storage: SqliteStorage
beforeEach(async () => {
  storage = await createSqliteStorage()
})
afterEach(async () => await storage.close())

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Array<{ event: string; data: any }>> {
  return parseEvents(await new Response(stream).text())
}

describe('the run event stream over a run of many batches', () => {
  it('sends every batch once as it ends, in any order, reading neither every batch nor the run with them', async () => {
    const c = await storage.connectors.create({ type: 'webhook', name: 'hook', enabled: true, config: { url: 'http://127.0.0.1:9/h' }, secret: 'whsec_x', code: null })
    const n = 260
    const run = await storage.runs.create({ connectorId: c.id, trigger: 'manual', batches: Array.from({ length: n }, (_, i) => ({ webhookId: `msg_${i}`, ids: [`cmp_${i}`] })) })
    await storage.runs.update(run.id, { status: 'running', startedAt: new Date().toISOString() })
    // The first 150 ended before anyone watched, all but one.
    for (let i = 0; i < 150; i++) if (i !== 7) await storage.runs.updateBatch(run.id, i, { status: 'succeeded', entitiesSent: 1 })

    const first = await storage.runs.get(run.id, { batches: 0 })
    const get = storage.runs.get.bind(storage.runs)
    const listBatches = storage.runs.listBatches.bind(storage.runs)
    // Each look: the batches it read, page by page.
    const looks: number[][] = []
    storage.runs.get = ((id: string, options?: { batches?: number }) => {
      if (options?.batches === undefined) throw new Error('a run read with every batch')
      looks.push([])
      return get(id, options)
    }) as typeof storage.runs.get
    storage.runs.listBatches = (async (runId, page) => {
      const out = await listBatches(runId, page)
      looks.at(-1)!.push(out.items.length)
      return out
    }) as typeof storage.runs.listBatches

    // Until two more looks have begun: one at least saw all that came before.
    const twoLooks = async () => {
      const from = looks.length
      while (looks.length < from + 2) await new Promise((r) => setTimeout(r, 20))
    }
    const events = readAll(createRunEventStream(storage, first))
    await twoLooks()
    // The rest end out of order, the held one last; then the run.
    for (let i = n - 1; i >= 150; i--) await storage.runs.updateBatch(run.id, i, { status: i % 10 === 0 ? 'failed' : 'succeeded', entitiesSent: i % 10 === 0 ? 0 : 1, error: i % 10 === 0 ? `batch ${i}: no answer` : null })
    await twoLooks()
    // The first of those read again the 111 seen in flight; a look after it, ended, read what was left.
    await twoLooks()
    const held = looks.at(-2)!
    await storage.runs.updateBatch(run.id, 7, { status: 'succeeded', entitiesSent: 1 })
    await twoLooks()
    await storage.runs.update(run.id, { status: 'failed', finishedAt: new Date().toISOString() })
    const all = await events

    const batches = all.filter((e) => e.event === 'batch').map((e) => e.data.index as number)
    expect(batches.length).toBe(n)
    expect(new Set(batches).size).toBe(n)
    expect(all.at(-1)).toMatchObject({ event: 'end', data: { status: 'failed', batchesSucceeded: n - 11, batchesFailed: 11, entitiesSent: n - 11 } })
    expect(all.filter((e) => e.event === 'progress').every((e) => !('batches' in e.data) && !('batchesNextCursor' in e.data) && !('logs' in e.data))).toBe(true)
    // The held batch kept none of the others waiting: it came last.
    expect(batches.at(-1)).toBe(7)
    expect(batches.indexOf(150)).toBeLessThan(batches.indexOf(7))
    const sum = (pages: number[]) => pages.reduce((a, b) => a + b, 0)
    // The first look read every batch; the 111 it saw in flight it read again by index.
    expect(looks[0]).toEqual([100, 100, n % 100])
    expect(looks[1]).toEqual([100, 11, n % 100])
    // While batch 7 held out, a look read it and the last page, not every batch after it (it read 253).
    expect(held).toEqual([1, n % 100])
    // Once it had ended, the last page only.
    expect(sum(looks.at(-1)!)).toBe(n % 100)
  })
})
