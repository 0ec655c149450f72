import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

const config = { url: 'http://127.0.0.1:9/hook' }
const attempt = (status: number | null, i = 0) => ({ at: new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString(), status, durationMs: 12, error: status === null ? 'timeout' : null })

/** Push runs: frozen batches, progress, attempts, bounded logs, exact bodies for resends. */
export function runStoreSuite(storage: () => Storage): void {
  describe('run store', () => {
    it('creates a queued run with one pending batch per slice of ids, in order', async () => {
      const s = storage()
      const c = await _connector(s)
      const run = await s.runs.create({
        connectorId: c.id,
        trigger: 'cron',
        batches: [
          { webhookId: 'msg_a', ids: ['cmp_1', 'cmp_2', 'cmp_3'] },
          { webhookId: 'msg_b', ids: ['cmp_4'] },
        ],
      })
      expect(run).toMatchObject({ connectorId: c.id, trigger: 'cron', status: 'queued', total: 4, batchesTotal: 2, batchesSucceeded: 0, batchesFailed: 0, entitiesSent: 0, entitiesSkipped: 0, error: null, startedAt: null, finishedAt: null, resumedAt: null, logs: [] })
      expect(run.id).toMatch(/^run_/)
      expect(run.batches).toEqual([
        { index: 0, webhookId: 'msg_a', size: 3, status: 'pending', entitiesSent: 0, entitiesSkipped: 0, attempts: [], lastStatus: null, error: null },
        { index: 1, webhookId: 'msg_b', size: 1, status: 'pending', entitiesSent: 0, entitiesSkipped: 0, attempts: [], lastStatus: null, error: null },
      ])
      expect(await s.runs.get(run.id)).toEqual(run)
      expect(await s.runs.getBatchPayload(run.id, 1)).toEqual({ ids: ['cmp_4'], body: null, mark: null })
    })

    it('pages a run\'s batches by index, keeps those of some statuses, and gives the details the first few with the cursor of the rest', async () => {
      const s = storage()
      const c = await _connector(s)
      const run = await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: Array.from({ length: 7 }, (_, i) => ({ webhookId: `msg_${i}`, ids: [`cmp_${i}`] })) })
      await s.runs.updateBatch(run.id, 1, { status: 'failed', error: 'HTTP 500' })
      await s.runs.updateBatch(run.id, 4, { status: 'failed', error: 'HTTP 500' })
      await s.runs.updateBatch(run.id, 5, { status: 'succeeded' })

      const indexes: number[] = []
      let cursor: string | undefined
      do {
        const page = await s.runs.listBatches(run.id, { limit: 3, cursor })
        expect(page.total).toBe(7)
        indexes.push(...page.items.map((b) => b.index))
        cursor = page.nextCursor ?? undefined
      } while (cursor)
      expect(indexes).toEqual([0, 1, 2, 3, 4, 5, 6])

      const failed = await s.runs.listBatches(run.id, { limit: 1, status: ['failed'] })
      expect(failed).toMatchObject({ total: 2, items: [{ index: 1, status: 'failed', error: 'HTTP 500' }] })
      // The total is the filter's, on every page, and on a first page holding them all.
      expect(await s.runs.listBatches(run.id, { limit: 5, status: ['failed'], cursor: failed.nextCursor! })).toMatchObject({ total: 2, items: [{ index: 4 }] })
      expect(await s.runs.listBatches(run.id, { limit: 10, status: ['succeeded', 'failed'] })).toMatchObject({ total: 3, items: [{ index: 1 }, { index: 4 }, { index: 5 }] })
      expect(await s.runs.listBatches(run.id, { limit: 2, status: ['succeeded', 'failed'] })).toMatchObject({ total: 3, items: [{ index: 1 }, { index: 4 }] })
      // By index, in index order, those that exist; with a status, those of it.
      expect(await s.runs.listBatches(run.id, { limit: 10, indexes: [6, 1, 3, 40] })).toMatchObject({ total: 3, items: [{ index: 1, status: 'failed' }, { index: 3, status: 'pending' }, { index: 6 }], nextCursor: null })
      expect((await s.runs.listBatches(run.id, { limit: 10, indexes: [1, 3, 5], status: ['failed', 'succeeded'] })).items.map((b) => b.index)).toEqual([1, 5])
      expect(await s.runs.listBatches(run.id, { limit: 10, indexes: [] })).toMatchObject({ total: 0, items: [] })

      const detail = await s.runs.get(run.id, { batches: 3 })
      expect(detail.batches.map((b) => b.index)).toEqual([0, 1, 2])
      expect((await s.runs.listBatches(run.id, { limit: 10, cursor: detail.batchesNextCursor! })).items.map((b) => b.index)).toEqual([3, 4, 5, 6])
      expect((await s.runs.get(run.id, { batches: 7 })).batchesNextCursor).toBeNull()
      expect((await s.runs.get(run.id)).batches).toHaveLength(7)
      await expect(s.runs.listBatches('run_01JD7W3T9X4QF5B8S2M6K0N1PZ', { limit: 10 })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.runs.listBatches(run.id, { limit: 10, cursor: 'bm90IGEgY3Vyc29y' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
    })

    it('plans a run over the live components as it goes: the first batches at once, the rest on demand, as if frozen at its start', async () => {
      const s = storage()
      const c = await _connector(s)
      const parts = []
      for (let i = 0; i < 11; i++) parts.push(await s.components.create({ name: `part ${i}` }))
      await s.components.delete(parts[10]!.id)
      // Deletions are told from the run's start by their time: these fall in other milliseconds than the start.
      await _nextMillisecond()
      const run = await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: { live: { batchSize: 3, first: 2 } } })
      await _nextMillisecond()
      // The live count at the start: 10 parts, so 4 batches, of which 2 are planned.
      expect(run).toMatchObject({ status: 'queued', total: 10, batchesTotal: 4 })
      expect(run.batches.map((b) => [b.index, b.size, b.status])).toEqual([
        [0, 3, 'pending'],
        [1, 3, 'pending'],
      ])
      expect((await s.runs.getBatchPayload(run.id, 1)).ids).toEqual(parts.slice(3, 6).map((p) => p.id))
      expect(new Set(run.batches.map((b) => b.webhookId)).size).toBe(2)

      // After the start: a part deleted is still planned (its batch skips it when it reads it); one created is not.
      await s.components.delete(parts[7]!.id)
      await s.components.create({ name: 'made after the start' })
      const more = await s.runs.planMore(run.id, 1)
      expect(more.map((b) => [b.index, b.size])).toEqual([[2, 3]])
      expect((await s.runs.getBatchPayload(run.id, 2)).ids).toEqual(parts.slice(6, 9).map((p) => p.id))
      // Until the plan is complete the totals are those of the start; then they are what was planned.
      expect(await s.runs.get(run.id, { batches: 0 })).toMatchObject({ total: 10, batchesTotal: 4, batches: [] })
      const last = await s.runs.planMore(run.id, 5)
      expect(last.map((b) => [b.index, b.size])).toEqual([[3, 1]])
      expect((await s.runs.getBatchPayload(run.id, 3)).ids).toEqual([parts[9]!.id])
      expect(await s.runs.planMore(run.id, 5)).toEqual([])
      const detail = await s.runs.get(run.id)
      expect(detail).toMatchObject({ total: 10, batchesTotal: 4 })
      expect(detail.batches.map((b) => b.size)).toEqual([3, 3, 3, 1])
    })

    it('gives a planned run\'s totals as planned when parts were purged before the plan reached them, and plans nothing in an empty library', async () => {
      const s = storage()
      const c = await _connector(s)
      const empty = await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: { live: { batchSize: 250, first: 8 } } })
      expect(empty).toMatchObject({ total: 0, batchesTotal: 0, batches: [] })
      expect(await s.runs.planMore(empty.id, 8)).toEqual([])
      await s.runs.update(empty.id, { status: 'succeeded' })

      const parts = []
      for (let i = 0; i < 5; i++) parts.push(await s.components.create({ name: `part ${i}` }))
      const run = await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: { live: { batchSize: 2, first: 1 } } })
      await _nextMillisecond()
      await s.components.delete(parts[3]!.id)
      await s.components.purge(parts[3]!.id)
      while ((await s.runs.planMore(run.id, 1)).length);
      const detail = await s.runs.get(run.id)
      expect(detail).toMatchObject({ total: 4, batchesTotal: 2 })
      expect((await s.runs.getBatchPayload(run.id, 1)).ids).toEqual([parts[2]!.id, parts[4]!.id])
    })

    it('refuses an exclusive run while the connector has a queued or running one (servers sharing the storage start one)', async () => {
      const s = storage()
      const c = await _connector(s)
      const other = await _connector(s, 'Other')
      const first = await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [], exclusive: true })
      await expect(s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [], exclusive: true })).rejects.toMatchObject({ code: 'CONFLICT' })
      await s.runs.create({ connectorId: other.id, trigger: 'manual', batches: [], exclusive: true })
      await s.runs.update(first.id, { status: 'running' })
      await expect(s.runs.create({ connectorId: c.id, trigger: 'cron', batches: [], exclusive: true })).rejects.toMatchObject({ code: 'CONFLICT' })
      await s.runs.update(first.id, { status: 'succeeded' })
      await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [], exclusive: true })
      expect((await s.stats()).runs).toBe(3)
    })

    it('starts one run per cron tick: a second run for the same tick is a CONFLICT, even after the first ended', async () => {
      const s = storage()
      const c = await _connector(s)
      const other = await _connector(s, 'Other')
      const tick = '2030-01-01T00:00:05.000Z'
      const run = await s.runs.create({ connectorId: c.id, trigger: 'cron', batches: [], scheduledFor: tick })
      expect(run.id).toMatch(/^run_/)
      await s.runs.update(run.id, { status: 'succeeded' })
      await expect(s.runs.create({ connectorId: c.id, trigger: 'cron', batches: [], scheduledFor: tick })).rejects.toMatchObject({ code: 'CONFLICT' })
      // The next tick, and the same tick of another connector, are runs of their own.
      await s.runs.create({ connectorId: c.id, trigger: 'cron', batches: [], scheduledFor: '2030-01-01T00:00:06.000Z' })
      await s.runs.create({ connectorId: other.id, trigger: 'cron', batches: [], scheduledFor: tick })
      expect((await s.stats()).runs).toBe(3)
    })

    it('records who started a run: an actor, or null (a scheduled run)', async () => {
      const s = storage()
      const c = await _connector(s)
      const ada = { kind: 'user', id: 'usr_01JD7W3T9X4QF5B8S2M6K0N1PZ', name: 'ada' } as const
      const manual = await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [], startedBy: ada })
      const cron = await s.runs.create({ connectorId: c.id, trigger: 'cron', batches: [] })
      expect([manual.startedBy, cron.startedBy]).toEqual([ada, null])
      expect((await s.runs.get(manual.id)).startedBy).toEqual(ada)
      expect((await s.runs.list(c.id, { limit: 10 })).items.map((r) => r.startedBy)).toEqual([null, ada])
      await s.runs.update(manual.id, { status: 'running' })
      expect((await s.runs.listActive()).find((r) => r.id === manual.id)?.startedBy).toEqual(ada)
    })

    it('refuses a run for an unknown connector and stores nothing', async () => {
      const s = storage()
      await expect(s.runs.create({ connectorId: 'con_01JD7W3T9X4QF5B8S2M6K0N1PZ', trigger: 'manual', batches: [] })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect((await s.stats()).runs).toBe(0)
    })

    it('lists the runs of one connector newest first, a page at a time', async () => {
      const s = storage()
      const c = await _connector(s)
      const other = await _connector(s, 'Other')
      const ids: string[] = []
      for (let i = 0; i < 5; i++) ids.push((await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [] })).id)
      await s.runs.create({ connectorId: other.id, trigger: 'manual', batches: [] })
      const first = await s.runs.list(c.id, { limit: 2 })
      expect(first.items.map((r) => r.id)).toEqual([ids[4], ids[3]])
      expect(first.total).toBe(5)
      const rest = await s.runs.list(c.id, { limit: 10, cursor: first.nextCursor! })
      expect(rest.items.map((r) => r.id)).toEqual([ids[2], ids[1], ids[0]])
      expect(rest.nextCursor).toBeNull()
    })

    it('lists queued and running runs, oldest first, as the ones a restart resumes', async () => {
      const s = storage()
      const c = await _connector(s)
      const created = []
      for (let i = 0; i < 4; i++) created.push(await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [] }))
      const [a, b, done, d] = created
      await s.runs.update(b!.id, { status: 'running', startedAt: '2030-01-01T00:00:00.000Z' })
      await s.runs.update(done!.id, { status: 'succeeded' })
      await s.runs.update(d!.id, { status: 'cancelled' })
      expect((await s.runs.listActive()).map((r) => [r.id, r.status])).toEqual([
        [a!.id, 'queued'],
        [b!.id, 'running'],
      ])
    })

    it('updates only the fields given and keeps the last 1,000 log lines, each cut to 2,000 characters', async () => {
      const s = storage()
      const c = await _connector(s)
      const run = await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [{ webhookId: 'msg_1', ids: ['cmp_1'] }] })
      await s.runs.update(run.id, { status: 'running', startedAt: '2030-01-01T00:00:00.000Z', appendLogs: ['start', 'x'.repeat(5000)] })
      const after = await s.runs.update(run.id, { batchesSucceeded: 1, entitiesSent: 1, entitiesSkipped: 2, appendLogs: Array.from({ length: 999 }, (_, i) => `line ${i}`) })
      expect(after).toMatchObject({ status: 'running', startedAt: '2030-01-01T00:00:00.000Z', batchesSucceeded: 1, entitiesSent: 1, entitiesSkipped: 2, error: null })
      expect(after.logs).toHaveLength(1000)
      expect(after.logs[0]).toBe('x'.repeat(2000))
      expect(after.logs.at(-1)).toBe('line 998')
      const finished = await s.runs.update(run.id, { status: 'failed', error: 'batch 0: receiver answered 500', finishedAt: '2030-01-01T00:01:00.000Z' })
      expect(finished).toMatchObject({ status: 'failed', error: 'batch 0: receiver answered 500', batchesSucceeded: 1 })
      expect(await s.runs.update(run.id, {})).toEqual(finished)
    })

    it('records batch attempts (the last 50) and keeps the exact body until it is cleared', async () => {
      const s = storage()
      const c = await _connector(s)
      const run = await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [{ webhookId: 'msg_1', ids: ['cmp_1', 'cmp_2'] }] })
      const body = new TextEncoder().encode('{"entities":[]}')
      await s.runs.updateBatch(run.id, 0, { status: 'sending', body })
      for (let i = 0; i < 52; i++) await s.runs.updateBatch(run.id, 0, { appendAttempt: attempt(i % 2 ? 503 : null, i), lastStatus: i % 2 ? 503 : null })
      const batch = await s.runs.updateBatch(run.id, 0, { status: 'failed', error: 'gave up' })
      expect(batch).toMatchObject({ index: 0, webhookId: 'msg_1', size: 2, status: 'failed', error: 'gave up', lastStatus: 503 })
      expect(batch.attempts).toHaveLength(50)
      expect(batch.attempts[0]).toEqual(attempt(null, 2))
      expect(batch.attempts.at(-1)).toEqual(attempt(503, 51))
      const payload = await s.runs.getBatchPayload(run.id, 0)
      expect(payload.ids).toEqual(['cmp_1', 'cmp_2'])
      expect(new TextDecoder().decode(payload.body!)).toBe('{"entities":[]}')
      expect((await s.runs.get(run.id)).batches[0]).toEqual(batch)
      // What the receiver acknowledged and what was gone before the read, as the runner reports them.
      expect(await s.runs.updateBatch(run.id, 0, { status: 'succeeded', body: null, entitiesSent: 1, entitiesSkipped: 1 })).toMatchObject({ entitiesSent: 1, entitiesSkipped: 1 })
      expect((await s.runs.getBatchPayload(run.id, 0)).body).toBeNull()
      // Or the history mark of the read the batch sent, instead of its bytes.
      await s.runs.updateBatch(run.id, 0, { status: 'sending', mark: 42 })
      expect(await s.runs.getBatchPayload(run.id, 0)).toMatchObject({ body: null, mark: 42 })
    })

    it('sums a run\'s batches: succeeded and failed, entities sent by the succeeded ones, skipped by all, the first failure\'s error', async () => {
      const s = storage()
      const c = await _connector(s)
      const run = await s.runs.create({
        connectorId: c.id,
        trigger: 'manual',
        batches: [0, 1, 2, 3].map((i) => ({ webhookId: `msg_${i}`, ids: [`cmp_${i}a`, `cmp_${i}b`, `cmp_${i}c`] })),
      })
      expect(await s.runs.totals(run.id)).toEqual({ batchesSucceeded: 0, batchesFailed: 0, entitiesSent: 0, entitiesSkipped: 0, firstError: null })
      await s.runs.updateBatch(run.id, 0, { status: 'succeeded', entitiesSent: 3 })
      await s.runs.updateBatch(run.id, 3, { status: 'failed', error: 'batch 3: receiver answered 500', entitiesSkipped: 1 })
      await s.runs.updateBatch(run.id, 1, { status: 'succeeded', entitiesSent: 2, entitiesSkipped: 1 })
      await s.runs.updateBatch(run.id, 2, { status: 'failed', error: 'batch 2: no answer' })
      expect(await s.runs.totals(run.id)).toEqual({ batchesSucceeded: 2, batchesFailed: 2, entitiesSent: 5, entitiesSkipped: 2, firstError: 'batch 2: no answer' })
      const empty = await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [] })
      expect(await s.runs.totals(empty.id)).toEqual({ batchesSucceeded: 0, batchesFailed: 0, entitiesSent: 0, entitiesSkipped: 0, firstError: null })
      await expect(s.runs.totals('run_01JD7W3T9X4QF5B8S2M6K0N1PZ')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('answers NOT_FOUND for an unknown run or batch and changes nothing', async () => {
      const s = storage()
      const c = await _connector(s)
      const run = await s.runs.create({ connectorId: c.id, trigger: 'manual', batches: [{ webhookId: 'msg_1', ids: ['cmp_1'] }] })
      const unknown = 'run_01JD7W3T9X4QF5B8S2M6K0N1PZ'
      await expect(s.runs.get(unknown)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.runs.update(unknown, { status: 'running' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.runs.updateBatch(unknown, 0, { status: 'sending' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.runs.updateBatch(run.id, 1, { status: 'sending' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.runs.getBatchPayload(run.id, 1)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect(await s.runs.get(run.id)).toEqual(run)
    })

    it('records a run with its batches, attempts and bounded logs', async () => {
      const s = storage()
      const c = await s.connectors.create({ type: 'webhook', name: 'Hook', enabled: true, config, secret: 'whsec_x', code: null })
      const run = await s.runs.create({
        connectorId: c.id,
        trigger: 'manual',
        batches: [
          { webhookId: 'msg_1', ids: ['cmp_a', 'cmp_b'] },
          { webhookId: 'msg_2', ids: ['cmp_c'] },
        ],
      })
      expect(run).toMatchObject({ status: 'queued', total: 3, batchesTotal: 2 })
      expect(run.batches.map((b) => [b.webhookId, b.size, b.status])).toEqual([
        ['msg_1', 2, 'pending'],
        ['msg_2', 1, 'pending'],
      ])
      expect((await s.runs.listActive()).map((r) => r.id)).toEqual([run.id])
      await s.runs.updateBatch(run.id, 0, { status: 'sending', body: new Uint8Array([1, 2, 3]), appendAttempt: { at: new Date().toISOString(), status: 500, durationMs: 3, error: null } })
      const payload = await s.runs.getBatchPayload(run.id, 0)
      expect(payload.ids).toEqual(['cmp_a', 'cmp_b'])
      expect([...payload.body!]).toEqual([1, 2, 3])
      await s.runs.update(run.id, { status: 'running', appendLogs: Array.from({ length: 1005 }, (_, i) => `line ${i}`) })
      const detail = await s.runs.get(run.id)
      expect(detail.logs).toHaveLength(1000)
      expect(detail.logs[0]).toBe('line 5')
      expect(detail.batches[0]!.attempts).toHaveLength(1)
      await expect(s.runs.updateBatch(run.id, 9, { status: 'failed' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await s.runs.update(run.id, { status: 'succeeded' })
      await s.connectors.delete(c.id)
      await expect(s.runs.get(run.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })
  })
}

async function _connector(s: Storage, name = 'Hook') {
  return s.connectors.create({ type: 'webhook', name, enabled: true, config, secret: 'whsec_x', code: null })
}

/** Resolves once the clock has moved past the current millisecond. */
async function _nextMillisecond(): Promise<void> {
  const now = Date.now()
  while (Date.now() === now) await new Promise((r) => setTimeout(r, 1))
}
