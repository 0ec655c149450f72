import type { RunBatch, RunDetail, Storage } from '@complib/core'

/** How often the stream looks at the run record; the record is the truth (a resumed run streams the same). */
export const RUN_EVENTS_INTERVAL_MS = 250
/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000
const FINISHED = new Set(['succeeded', 'failed', 'cancelled'])

/**
 * `GET /api/connector-runs/:runId/events` as a stream of server-sent events,
 * read from the stored run (decision 1407):
 *
 * - `progress`: the run without its batches and logs, whenever a count or the status changes;
 * - `batch`: a batch (RunBatch, with its attempts) when it succeeds or fails;
 * - `end`: the run once it has finished; then the stream closes.
 *
 * Batches that had already ended when the stream opened are sent first, so a
 * late subscriber sees the whole run. The stream stops when the client goes away.
 */
export function createRunEventStream(storage: Storage, first: RunDetail, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let timer: ReturnType<typeof setTimeout> | undefined
  let closed = false
  const stop = () => {
    closed = true
    if (timer) clearTimeout(timer)
  }
  signal?.addEventListener('abort', stop, { once: true })
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const sent = new Set<number>()
      let lastProgress = ''
      let lastBeat = Date.now()
      const send = (event: string, data: unknown) => controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`))
      const emit = (run: RunDetail): boolean => {
        for (const batch of run.batches) {
          if ((batch.status === 'succeeded' || batch.status === 'failed') && !sent.has(batch.index)) {
            sent.add(batch.index)
            send('batch', batch satisfies RunBatch)
          }
        }
        const summary = _summary(run)
        const key = JSON.stringify(summary)
        if (key !== lastProgress) {
          lastProgress = key
          send('progress', summary)
        }
        if (FINISHED.has(run.status)) {
          send('end', summary)
          return true
        }
        return false
      }
      const tick = async () => {
        if (closed) return
        try {
          const run = await storage.runs.get(first.id)
          if (closed) return
          if (emit(run)) {
            stop()
            controller.close()
            return
          }
          if (Date.now() - lastBeat >= HEARTBEAT_MS) {
            lastBeat = Date.now()
            controller.enqueue(encoder.encode(': still running\n\n'))
          }
        } catch (error) {
          // The run was deleted with its connector, or the storage closed: say so and end.
          if (closed) return
          send('error', { detail: `[connector-runs] ${first.id}: ${(error as Error).message}` })
          stop()
          controller.close()
          return
        }
        timer = setTimeout(() => void tick(), RUN_EVENTS_INTERVAL_MS)
      }
      // retry: how long an EventSource waits before reconnecting.
      controller.enqueue(encoder.encode('retry: 1000\n\n'))
      if (emit(first)) {
        stop()
        controller.close()
        return
      }
      timer = setTimeout(() => void tick(), RUN_EVENTS_INTERVAL_MS)
    },
    cancel: stop,
  })
}

/**
 * The run without batches and logs, its counts taken from the batches: the
 * stored run's own counters are settled when it ends, the batches as each one does.
 */
function _summary(run: RunDetail): Omit<RunDetail, 'batches' | 'logs'> {
  const { batches, logs: _l, ...rest } = run
  if (batches.length === 0) return rest
  let succeeded = 0
  let failed = 0
  let sent = 0
  let skipped = 0
  for (const b of batches) {
    if (b.status === 'succeeded') succeeded++
    if (b.status === 'failed') failed++
    sent += b.entitiesSent
    skipped += b.entitiesSkipped
  }
  return {
    ...rest,
    batchesSucceeded: Math.max(rest.batchesSucceeded, succeeded),
    batchesFailed: Math.max(rest.batchesFailed, failed),
    entitiesSent: Math.max(rest.entitiesSent, sent),
    entitiesSkipped: Math.max(rest.entitiesSkipped, skipped),
  }
}
