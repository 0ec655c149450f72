import { describe, expect, it } from 'vitest'
import { startReceiver } from '@complib/test-support/receiver'
import { useTestApi } from './harness'
import { parseEvents } from './sse-events'

const api = useTestApi()

const MISSING_RUN = 'run_01JD7W3T9X4QF5B8S2M6K0N1PZ'

describe('GET /api/connector-runs/:id/events', () => {
  it('streams progress, every batch outcome and the end of a run, then closes', async () => {
    // The receiver answers slowly so the stream opens while the run is still going, and
    // holds the second batch for 800 ms, well past the stream's 250 ms reads of the run, so
    // the state between the two batches is there to be seen on any engine and machine.
    let calls = 0
    const receiver = await startReceiver(() => ({ status: 202, delayMs: ++calls === 1 ? 150 : 800 }))
    try {
      const components = Array.from({ length: 260 }, (_, i) => ({ name: `part ${i}` }))
      await api.ok('POST', '/api/bulk/components', { items: components })
      const c = await api.ok('POST', '/api/connectors', { name: 'Hook', config: { url: receiver.url, concurrency: 1 } }, 201)
      const run = await api.ok('POST', `/api/connectors/${c.id}/push`, undefined, 202)
      const res = await api.call('GET', `/api/connector-runs/${run.id}/events`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
      const events = parseEvents(res.text)
      const batches = events.filter((e) => e.event === 'batch')
      expect(batches.map((b) => b.data.index).sort()).toEqual([0, 1])
      expect(batches.every((b) => b.data.status === 'succeeded' && b.data.attempts[0].status === 202)).toBe(true)
      expect(events.some((e) => e.event === 'progress' && e.data.status === 'running')).toBe(true)
      // Progress counts move as batches end, not only when the run does.
      expect(events.some((e) => e.event === 'progress' && e.data.status === 'running' && e.data.batchesSucceeded === 1 && e.data.entitiesSent === 250)).toBe(true)
      const end = events.at(-1)!
      expect(end.event).toBe('end')
      expect(end.data).toMatchObject({ id: run.id, status: 'succeeded', entitiesSent: 260, batchesSucceeded: 2 })
    } finally {
      await receiver.close()
    }
  })

  it('answers a finished run at once: its batches, progress and end', async () => {
    const receiver = await startReceiver()
    try {
      await api.ok('POST', '/api/components', { name: 'one' }, 201)
      const c = await api.ok('POST', '/api/connectors', { name: 'Hook', config: { url: receiver.url } }, 201)
      const run = await api.ok('POST', `/api/connectors/${c.id}/push`, undefined, 202)
      await api.runner.settled(c.id)
      const events = parseEvents((await api.call('GET', `/api/connector-runs/${run.id}/events`)).text)
      expect(events.map((e) => e.event)).toEqual(['batch', 'progress', 'end'])
      expect(events[2]!.data.status).toBe('succeeded')
    } finally {
      await receiver.close()
    }
  })

  it('is a 404 problem for an unknown run and a 400 for a malformed id', async () => {
    const missing = await api.call('GET', `/api/connector-runs/${MISSING_RUN}/events`)
    expect(missing.status).toBe(404)
    expect(missing.body.detail).toContain(MISSING_RUN)
    expect((await api.call('GET', '/api/connector-runs/nope/events')).status).toBe(400)
  })
})
