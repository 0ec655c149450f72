import type { Run, RunBatch, RunDetail, RunTotals, Storage } from '@complib/core'

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
export function createRunEventStream(storage: Storage, first: Run, signal?: AbortSignal): ReadableStream<Uint8Array> {
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
      // What each look reads: the batches it saw in flight (or not yet started) by index, then
      // those recorded from the last full page on, not the run's every batch (4,000 for a push of
      // a million parts). A run plans its batches a few ahead of those it sends, so few are in
      // flight, however long one of them is held (a receiver that times out, retried).
      const waiting = new Set<number>()
      let tail: string | undefined
      let lastProgress = ''
      let lastBeat = Date.now()
      const send = (event: string, data: unknown) => controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`))
      const ended = (b: RunBatch) => b.status === 'succeeded' || b.status === 'failed'
      const seen = (batch: RunBatch) => {
        if (!ended(batch)) return void waiting.add(batch.index)
        waiting.delete(batch.index)
        if (sent.has(batch.index)) return
        sent.add(batch.index)
        send('batch', batch satisfies RunBatch)
      }
      /** Sends the batches that ended since the last look, by index; whether the run has finished. */
      const look = async (): Promise<boolean> => {
        // The run first: a batch it counts as ended is among those read after it.
        const run = await storage.runs.get(first.id, { batches: 0 })
        const totals = await storage.runs.totals(first.id)
        const again = [...waiting].sort((a, b) => a - b)
        for (let i = 0; i < again.length; i += BATCH_PAGE) {
          const indexes = again.slice(i, i + BATCH_PAGE)
          const page = await storage.runs.listBatches(first.id, { limit: indexes.length, indexes })
          if (closed) return false
          page.items.forEach(seen)
        }
        let cursor = tail
        do {
          const page = await storage.runs.listBatches(first.id, { limit: BATCH_PAGE, cursor })
          if (closed) return false
          page.items.forEach(seen)
          // A page with more after it is never read again; the last one is, for the batches recorded after it.
          if (page.nextCursor) tail = page.nextCursor
          cursor = page.nextCursor ?? undefined
        } while (cursor)
        const summary = _summary(run, totals)
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
          const finished = await look()
          // The client went away meanwhile: its stream is already cancelled, nothing more to send.
          if (closed) return
          if (finished) {
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
      void tick()
    },
    cancel: stop,
  })
}

/** Batches read per page while looking for those that ended. */
const BATCH_PAGE = 100

/**
 * The run without batches and logs, its counts taken from the batches' sums:
 * the stored run's own counters are settled when it ends, the batches as each one does.
 */
function _summary(run: Run, totals: RunTotals): Omit<RunDetail, 'batches' | 'logs' | 'batchesNextCursor'> {
  const { batches: _b, batchesNextCursor: _c, logs: _l, ...rest } = run as RunDetail
  return {
    ...rest,
    batchesSucceeded: Math.max(rest.batchesSucceeded, totals.batchesSucceeded),
    batchesFailed: Math.max(rest.batchesFailed, totals.batchesFailed),
    entitiesSent: Math.max(rest.entitiesSent, totals.entitiesSent),
    entitiesSkipped: Math.max(rest.entitiesSkipped, totals.entitiesSkipped),
  }
}
