import { RUN_DETAIL_BATCHES } from '@complib/core'
import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

/** A run of `n` batches, made in the storage (the runner would send them). */
async function runOf(n: number) {
  const connector = await api.storage.connectors.create({ type: 'webhook', name: 'Hook', enabled: true, config: { url: 'http://127.0.0.1:9/hook', requestsPerSecond: 100, concurrency: 1, cron: null }, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', code: null })
  return await api.storage.runs.create({ connectorId: connector.id, trigger: 'manual', batches: Array.from({ length: n }, (_, i) => ({ webhookId: `msg_${i}`, ids: [`cmp_${i}`] })) })
}

// A push of a million parts has 4,000 batches: the details carry the first
// ones and a cursor, and the rest are paged (decision 0319).
describe('a run\'s batches', () => {
  it('come in the details up to the first 100, with the cursor of the rest; the batches route pages them all', async () => {
    const run = await runOf(RUN_DETAIL_BATCHES + 30)
    await api.storage.runs.updateBatch(run.id, 120, { status: 'failed', error: 'HTTP 500' })

    const detail = await api.ok('GET', `/api/connector-runs/${run.id}`)
    expect(detail.batches).toHaveLength(RUN_DETAIL_BATCHES)
    expect(detail.batchesTotal).toBe(RUN_DETAIL_BATCHES + 30)
    expect(typeof detail.batchesNextCursor).toBe('string')

    const rest = await api.call('GET', `/api/connector-runs/${run.id}/batches?cursor=${detail.batchesNextCursor}&limit=20`)
    expect(rest.status).toBe(200)
    expect(rest.body.map((b: { index: number }) => b.index)).toEqual(Array.from({ length: 20 }, (_, i) => RUN_DETAIL_BATCHES + i))
    expect(rest.headers.get('x-total-count')).toBe(String(RUN_DETAIL_BATCHES + 30))
    const next = new URL(rest.headers.get('link')!.slice(1, rest.headers.get('link')!.indexOf('>')), 'http://x')
    const last = await api.ok('GET', `${next.pathname}${next.search}`)
    expect(last.map((b: { index: number }) => b.index)).toEqual(Array.from({ length: 10 }, (_, i) => RUN_DETAIL_BATCHES + 20 + i))

    const failed = await api.call('GET', `/api/connector-runs/${run.id}/batches?status=failed`)
    expect(failed.body).toMatchObject([{ index: 120, status: 'failed', error: 'HTTP 500' }])
    expect(failed.headers.get('x-total-count')).toBe('1')

    const small = await runOf(3)
    expect(await api.ok('GET', `/api/connector-runs/${small.id}`)).toMatchObject({ batches: [{ index: 0 }, { index: 1 }, { index: 2 }], batchesNextCursor: null })
  })

  it('refuse an unknown status or cursor naming the field, and an unknown run with a 404', async () => {
    const run = await runOf(2)
    const status = await api.call('GET', `/api/connector-runs/${run.id}/batches?status=failed,lost`)
    expect(status.status).toBe(400)
    expect(JSON.stringify(status.body)).toContain('query.status')
    const cursor = await api.call('GET', `/api/connector-runs/${run.id}/batches?cursor=bm90IGEgY3Vyc29y`)
    expect(cursor.status).toBe(400)
    expect(JSON.stringify(cursor.body)).toContain('query.cursor')
    expect((await api.call('GET', '/api/connector-runs/run_01JD7W3T9X4QF5B8S2M6K0N1PZ/batches')).status).toBe(404)
  })
})
