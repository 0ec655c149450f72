import { createConnectorBatch, type AnyConnectorDefinition, type DeliveryRead, type ConnectorAttempt, type ConnectorRunResult, type Run, type RunBatchPatch, type Storage, type StoredConnector } from '@complib/core'
import { promisify } from 'node:util'
import { deflateRaw, inflateRaw } from 'node:zlib'
import { ENTITIES_CLOSE, ENTITIES_OPEN } from './_internal/body'
import { oneLine } from './log-line'

/** Entities per delivery (seed §2). */
export const BATCH_SIZE = 250

export interface ExecuteOptions {
  storage: Storage
  signal: AbortSignal
}

/**
 * Carries out a run that exists in storage (new, or interrupted), for every
 * connector type alike, the built-in webhook one included: the type's `setup`
 * once, then every batch not yet acknowledged through its `run`, up to the
 * config's `concurrency` (default 1) at a time, then `dispose`. What the
 * runtime guarantees here, the same for every type:
 * - a batch read for the first time has the history mark of that read
 *   recorded before `run` sees it, so after a crash it gets exactly the same
 *   records back (or, when the type kept its own bytes with `context.keep`,
 *   those bytes);
 * - every outcome is durable: succeeded with what was sent, or failed with
 *   the error; attempts and log lines go into the run record;
 * - a cancel or a stop aborts `context.signal`; a stop leaves the run
 *   resumable.
 * Resolves with the final run; never throws for what the type or its target did.
 */
export async function executeRun(runId: string, definition: AnyConnectorDefinition, options: ExecuteOptions): Promise<Run> {
  const { storage, signal } = options
  const run = await storage.runs.get(runId, { batches: 0 })
  const resumed = run.startedAt !== null
  await storage.runs.update(runId, { status: 'running', ...(resumed ? { resumedAt: new Date().toISOString() } : { startedAt: new Date().toISOString() }) })
  const tag = `[connector:${definition.type}]`
  let session: unknown
  let setUp = false
  try {
    const connector = await storage.connectors.get(run.connectorId)
    const config = definition.configSchema.parse(connector.config) as Record<string, unknown>
    const secrets = connector.secret ? connectorSecrets(connector) : []
    const base = { config, code: connector.code, secrets, signal }
    session = await definition.setup?.({ ...base, log: () => {} })
    setUp = true
    const concurrency = typeof config.concurrency === 'number' && config.concurrency >= 1 ? Math.floor(config.concurrency) : 1
    // At most `concurrency` batches out at once; the next one is read (or planned) only when a place is free.
    const out = new Set<Promise<void>>()
    for await (const batch of _batchesToSend(storage, run, signal, Math.max(PLAN_AHEAD, concurrency))) {
      const sending: Promise<void> = _runBatch({ runId, index: batch.index, webhookId: batch.webhookId, batches: batch.batches, tag, definition, base, session, storage, signal }).finally(() =>
        out.delete(sending),
      )
      out.add(sending)
      if (out.size >= concurrency) await Promise.race(out)
    }
    await Promise.all(out)
  } catch (error) {
    // The connector is gone, its config no longer fits its type, or its setup failed
    // (connector code that does not compile): the run fails, the server does not.
    return finishRun(storage, runId, signal, `${tag} ${oneLine(String((error as Error).message))}`)
  } finally {
    if (setUp) await Promise.resolve(definition.dispose?.(session)).catch(() => {})
  }
  return finishRun(storage, runId, signal, null)
}

/** Batches planned ahead of those being sent (and at a push's start): 2,000 ids, one short transaction each. */
export const PLAN_AHEAD = 8

/**
 * The batches still to send, by index: those recorded (a resumed run's, or
 * the first ones planned at the start) not yet succeeded, then more planned a
 * few at a time until the plan is complete. `batches` is the run's batch
 * count as known when the batch is handed out: an estimate while planning.
 */
async function* _batchesToSend(storage: Storage, run: Run, signal: AbortSignal, ahead: number): AsyncGenerator<{ index: number; webhookId: string; batches: number }> {
  const runId = run.id
  let batches = run.batchesTotal
  let cursor: string | undefined
  do {
    const page = await storage.runs.listBatches(runId, { limit: 500, cursor })
    for (const b of page.items) if (b.status !== 'succeeded' && !signal.aborted) yield { index: b.index, webhookId: b.webhookId, batches }
    cursor = page.nextCursor ?? undefined
  } while (cursor && !signal.aborted)
  while (!signal.aborted) {
    const planned = await storage.runs.planMore(runId, ahead)
    if (planned.length === 0) return
    if (planned.length < ahead) batches = (await storage.runs.get(runId, { batches: 0 })).batchesTotal
    for (const b of planned) if (!signal.aborted) yield { index: b.index, webhookId: b.webhookId, batches: Math.max(batches, b.index + 1) }
  }
}

interface _BatchJob {
  runId: string
  index: number
  webhookId: string
  batches: number
  tag: string
  definition: AnyConnectorDefinition
  base: { config: Record<string, unknown>; code: string | null; secrets: string[]; signal: AbortSignal }
  session: unknown
  storage: Storage
  signal: AbortSignal
}

async function _runBatch(job: _BatchJob): Promise<void> {
  const { storage, signal, runId, index } = job
  const logs: string[] = []
  const attempts: Array<ConnectorAttempt & { at: string }> = []
  const started = performance.now()
  const at = new Date().toISOString()
  // Set when `run` settles: a body kept late (by code that left a send pending) must not reopen the batch.
  let finished = false
  try {
    let payload = await _payload(storage, runId, index)
    if (payload.count === 0) {
      await storage.runs.updateBatch(runId, index, { status: 'succeeded', error: null, entitiesSent: 0, ...payload.skipped })
      return
    }
    // Offers are not in a component's history, so a resume could not read them back as they were:
    // the batch with its offers is kept before it leaves, and a resume sends those bytes.
    if (job.base.config.includeOffers === true && payload.keptBody === null) payload = await _withOffers(storage, runId, index, payload)
    // What the batch's bytes are known to be on disk: a kept body, or (null) the batch as read (its mark).
    let kept: Uint8Array | null = payload.keptBody
    const result = await job.definition.run(
      createConnectorBatch({ index, deliveryId: job.webhookId, runId, batches: job.batches, bytes: payload.bytes, count: payload.count }),
      {
        ...job.base,
        session: job.session,
        log: (line: string) => void (logs.length < 200 && logs.push(oneLine(String(line).slice(0, 2000)))),
        attempt: (a: ConnectorAttempt) => void (attempts.length < 100 && attempts.push({ at: new Date().toISOString(), ...a })),
        keep: async (given: string | Uint8Array) => {
          const body = typeof given === 'string' ? Buffer.from(given, 'utf8') : given
          if (kept ? _same(body, kept) : _wraps(body, payload.bytes)) return
          if (finished) throw new Error('this batch has already finished')
          // Bytes the type made itself, kept deflated (on libuv's pool, off the event loop).
          const deflated = await _deflate(body, { level: 1 })
          if (finished) throw new Error('this batch has already finished')
          await storage.runs.updateBatch(runId, index, { status: 'sending', body: new Uint8Array(deflated.buffer, deflated.byteOffset, deflated.byteLength), ...payload.skipped })
          kept = body
        },
      },
    )
    finished = true
    await storage.runs.updateBatch(runId, index, {
      status: 'succeeded',
      error: null,
      body: null,
      ..._attemptsPatch(attempts, started, at, null),
      entitiesSent: _sentCount(result, payload.count),
      ...payload.skipped,
    })
  } catch (error) {
    finished = true
    const message = signal.aborted ? 'stopped: the run was cancelled or the server is stopping' : error instanceof Error ? error.message : String(error)
    await storage.runs.updateBatch(runId, index, { status: 'failed', error: `${job.tag} batch ${index}: ${oneLine(message)}`, ..._attemptsPatch(attempts, started, at, oneLine(message)) })
  } finally {
    if (logs.length) await storage.runs.update(runId, { appendLogs: logs.map((l) => `[batch ${index}] ${l}`) })
  }
}

type _Payload = Awaited<ReturnType<typeof _payload>>

/**
 * The batch's entities each with `offers` (what the sources last gave, as
 * `GET /api/components/{id}/offers` answers), kept as the batch's body before
 * anything is sent (a connector's `includeOffers`, decision 1603).
 */
async function _withOffers(storage: Storage, runId: string, index: number, payload: _Payload): Promise<_Payload> {
  const entities = JSON.parse(Buffer.from(payload.bytes).toString('utf8')) as Array<{ id: string }>
  const out: unknown[] = []
  for (const e of entities) out.push({ ...e, offers: await storage.offers.list(e.id) })
  const bytes = Buffer.from(JSON.stringify(out), 'utf8')
  const body = Buffer.concat([ENTITIES_OPEN, bytes, ENTITIES_CLOSE])
  const deflated = await _deflate(body, { level: 1 })
  await storage.runs.updateBatch(runId, index, { status: 'sending', body: new Uint8Array(deflated.buffer, deflated.byteOffset, deflated.byteLength), ...payload.skipped })
  return { ...payload, bytes, keptBody: body }
}

/** Whether `body` is `{"entities":` + `entities` + `}`: the body of a batch sent as read. */
function _wraps(body: Uint8Array, entities: Uint8Array): boolean {
  return (
    body.byteLength === entities.byteLength + ENTITIES_OPEN.byteLength + ENTITIES_CLOSE.byteLength &&
    _same(body.subarray(-ENTITIES_CLOSE.byteLength), ENTITIES_CLOSE) &&
    _same(body.subarray(0, ENTITIES_OPEN.byteLength), ENTITIES_OPEN) &&
    _same(body.subarray(ENTITIES_OPEN.byteLength, -ENTITIES_CLOSE.byteLength), entities)
  )
}

function _same(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0
}


/**
 * The batch's entities as JSON text in UTF-8 bytes: read now, with the read's history mark
 * recorded before anyone sees them; or, for a batch that went out before, read
 * back at that mark (the same records), or taken from the bytes kept then.
 */
async function _payload(
  storage: Storage,
  runId: string,
  index: number,
): Promise<{ bytes: Uint8Array; count: number; keptBody: Uint8Array | null; skipped: { entitiesSkipped: number } | Record<string, never> }> {
  const { ids, body, mark } = await storage.runs.getBatchPayload(runId, index)
  if (body) {
    // A kept body keeps the skipped count recorded when it went out.
    const kept = await _inflate(body)
    const parsed = JSON.parse(kept.toString('utf8')) as { entities: unknown[] }
    return { bytes: kept.subarray(ENTITIES_OPEN.byteLength, -ENTITIES_CLOSE.byteLength), count: parsed.entities.length, keptBody: kept, skipped: {} }
  }
  const read = mark !== null ? await storage.components.rereadForDelivery(ids, mark) : await _readAndMark(storage, runId, index, ids)
  return { bytes: read.json, count: read.count, keptBody: null, skipped: { entitiesSkipped: ids.length - read.count } }
}

async function _readAndMark(storage: Storage, runId: string, index: number, ids: string[]): Promise<DeliveryRead> {
  const read = await storage.components.readForDelivery(ids)
  if (read.count) await storage.runs.updateBatch(runId, index, { status: 'sending', mark: read.mark, entitiesSkipped: ids.length - read.count })
  return read
}

/** The attempts a type recorded (the last one's status is the batch's), or one for the whole call. */
function _attemptsPatch(attempts: Array<ConnectorAttempt & { at: string }>, started: number, at: string, error: string | null): Pick<RunBatchPatch, 'appendAttempts' | 'lastStatus'> {
  if (attempts.length === 0) return { appendAttempts: [{ at, status: null, durationMs: Math.round(performance.now() - started), error }] }
  const out = attempts.map(({ retryAfter, ...a }) => ({ ...a, durationMs: Math.round(a.durationMs), ...(retryAfter === undefined ? {} : { retryAfter }) }))
  return { appendAttempts: out, lastStatus: attempts.at(-1)!.status }
}

/** What `run` says it delivered (a type that filters its batch), else the whole batch. */
function _sentCount(result: void | ConnectorRunResult, given: number): number {
  const told = result?.entitiesSent
  return Number.isInteger(told) && told! >= 0 && told! <= given ? told! : given
}

const _deflate = promisify(deflateRaw)
const _inflate = promisify(inflateRaw)

/** Abort reason of a server stop: the run stays `running`, to be resumed at the next start. */
export const STOPPING = 'stopping'

/** Settles a run from its batches' outcomes (a stop leaves it running, to be resumed). */
export async function finishRun(storage: Storage, runId: string, signal: AbortSignal, error: string | null): Promise<Run> {
  // The run alone, and its batches' sums from the database: not 4,000 batches read and added up here.
  const run = await storage.runs.get(runId, { batches: 0 })
  if (signal.aborted && signal.reason === STOPPING) return run
  const totals = await storage.runs.totals(runId)
  // Cancelled through another server before this one noticed: it stays cancelled.
  const status = signal.aborted || run.status === 'cancelled' ? 'cancelled' : error || totals.batchesFailed ? 'failed' : 'succeeded'
  return storage.runs.update(runId, {
    status,
    error: error ?? (totals.batchesFailed ? `${totals.batchesFailed} of ${run.batchesTotal} batches failed; first: ${totals.firstError}` : null),
    finishedAt: new Date().toISOString(),
    batchesSucceeded: totals.batchesSucceeded,
    batchesFailed: totals.batchesFailed,
    entitiesSent: totals.entitiesSent,
    entitiesSkipped: totals.entitiesSkipped,
  })
}

/** The current secret, and the previous one while its grace period lasts. */
export function connectorSecrets(c: StoredConnector): string[] {
  const out = c.secret ? [c.secret] : []
  if (c.previousSecret && c.previousSecretExpiresAt && new Date(c.previousSecretExpiresAt) > new Date()) out.push(c.previousSecret)
  if (out.length === 0) throw new Error('the connector has no signing secret')
  return out
}
