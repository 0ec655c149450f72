import { WebhookConfig, type Run, type Storage, type StoredConnector } from '@complib/core'
import { promisify } from 'node:util'
import { deflateRaw, inflateRaw } from 'node:zlib'
import pLimit from 'p-limit'
import { DEFAULT_WEBHOOK_CODE } from './default-code'
import { deliver } from './deliver'
import { createSandbox, type EntitiesJson, type Sandbox } from './sandbox'
import { createThrottle } from './throttle'

/** Entities per delivery (seed §2). */
export const BATCH_SIZE = 250

export interface ExecuteOptions {
  storage: Storage
  signal: AbortSignal
  fetch?: typeof fetch | undefined
  /** Per-request answer timeout (default 30 s). */
  requestTimeoutMs?: number | undefined
  /** Limits of the connector code (see createSandbox). */
  sandbox?: { memoryMb?: number; cpuTimeoutMs?: number; wallTimeoutMs?: number } | undefined
}

/**
 * Carries out a run that exists in storage (new, or interrupted): every batch
 * not yet acknowledged goes through the connector code, batches in parallel
 * up to the connector's concurrency, every request through one throttle.
 * A batch sent before keeps its webhook-id and its bytes. Resolves with the
 * final run; never throws for what the code or the receiver did.
 */
export async function executeRun(runId: string, options: ExecuteOptions): Promise<Run> {
  const { storage, signal } = options
  const detail = await storage.runs.get(runId)
  let connector: StoredConnector
  let sandbox: Sandbox | undefined
  const resumed = detail.startedAt !== null
  await storage.runs.update(runId, { status: 'running', ...(resumed ? { resumedAt: new Date().toISOString() } : { startedAt: new Date().toISOString() }) })
  try {
    connector = await storage.connectors.get(detail.connectorId)
    const config = WebhookConfig.parse(connector.config)
    sandbox = await createSandbox({ code: connector.code ?? DEFAULT_WEBHOOK_CODE, ...options.sandbox })
    // A cancel or a stop ends the calls in progress too: code that never returns must not hold them up.
    signal.addEventListener('abort', () => sandbox?.dispose(), { once: true })
    const secrets = connectorSecrets(connector)
    const throttle = createThrottle(config)
    const batches = pLimit(config.concurrency)
    const pending = detail.batches.filter((b) => b.status !== 'succeeded')
    await Promise.all(
      pending.map((batch) =>
        batches(async () => {
          if (signal.aborted) return
          const logs: string[] = []
          try {
            await _runBatch({ runId, index: batch.index, batches: detail.batches.length, webhookId: batch.webhookId, config, secrets, sandbox: sandbox!, throttle, logs, options })
          } finally {
            if (logs.length) await storage.runs.update(runId, { appendLogs: logs.map((l) => `[batch ${batch.index}] ${l}`) })
          }
        }),
      ),
    )
  } catch (error) {
    // The code did not compile, or the connector is gone or misconfigured: the run fails, the server does not.
    return finishRun(storage, runId, signal, `[connector:webhook] ${(error as Error).message}`)
  } finally {
    sandbox?.dispose()
  }
  return finishRun(storage, runId, signal, null)
}

/**
 * Headers that name the run and the batch of a delivery (1-based: `complib-batch: 3/5`),
 * so a receiver can tell when it has seen a whole push and mirror the library,
 * deletions included (docs/decisions.md, "Mirroring"). The body stays `{"entities": […]}`.
 */
export function runHeaders(runId: string, index: number, batches: number): Record<string, string> {
  return { 'complib-run-id': runId, 'complib-batch': `${index + 1}/${batches}` }
}

interface _BatchJob {
  runId: string
  index: number
  /** How many batches the run has: a receiver that saw every one has seen the whole push. */
  batches: number
  webhookId: string
  config: WebhookConfig
  secrets: string[]
  sandbox: Sandbox
  throttle: <T>(fn: () => Promise<T>) => Promise<T>
  logs: string[]
  options: ExecuteOptions
}

async function _runBatch(job: _BatchJob): Promise<void> {
  const { storage, signal } = job.options
  const { ids, body, mark } = await storage.runs.getBatchPayload(job.runId, job.index)
  // A batch sent before is sent again with the same bytes: those kept, or the records read
  // back from history at the mark of the read it sent. Otherwise read its components now.
  let kept: string | null = null
  let entities: EntitiesJson
  let readMark: number | null = null
  // Frozen ids that were gone (deleted, purged) when the batch was read; a kept body
  // keeps the count recorded when it went out.
  let skipped: { entitiesSkipped: number } | Record<string, never> = {}
  if (body) {
    kept = (await _inflate(body)).toString('utf8')
    entities = _entitiesOf(kept)
  } else if (mark !== null) {
    entities = _toJson(await storage.components.rereadForDelivery(ids, mark))
    kept = `{"entities":${entities.json}}`
    skipped = { entitiesSkipped: ids.length - entities.count }
  } else {
    // The JSON is made once here; the sandbox and the body reuse it.
    const read = await storage.components.readForDelivery(ids)
    entities = _toJson(read.records)
    readMark = read.mark
    skipped = { entitiesSkipped: ids.length - entities.count }
  }
  if (entities.count === 0) {
    await storage.runs.updateBatch(job.runId, job.index, { status: 'succeeded', error: null, entitiesSent: 0, ...skipped })
    return
  }
  let stored = kept
  // Attempts are written with the batch's outcome (one durable write, not one per attempt);
  // a crash in between loses only the timing of attempts, never a batch.
  const attempts: Array<{ at: string; status: number | null; durationMs: number; error: string | null; retryAfter?: number }> = []
  let lastStatus: number | null = null
  // What the receiver acknowledged: the entities of each distinct body answered 2xx
  // (the code may send fewer than it was given; a resend of the same bytes counts once).
  const acknowledged = new Set<string>()
  let sentCount = 0
  // Set when push() settles: a send the code left pending must not reopen the batch or go out late.
  let finished = false
  try {
    await job.sandbox.push(entities, job.config, {
      sendWebhook: async (url, sent) => {
        if (signal.aborted) throw new Error('the run was cancelled')
        if (sent.count === 0 || sent.count > BATCH_SIZE) throw new Error(`a delivery carries 1 to ${BATCH_SIZE} entities, not ${sent.count}`)
        if (!/^https?:\/\//i.test(url)) throw new Error(`helpers.sendWebhook: ${url} is not an http(s) URL`)
        const text = `{"entities":${sent.json}}`
        // Keep what it takes to send the exact bytes again before they leave, so a resend
        // after a crash is identical.
        if (text !== stored) {
          // The sandbox hands back the very JSON it was given when the code sent the records untouched.
          if ((sent === entities || sent.json === entities.json) && readMark !== null) {
            // The records as read (the usual case): their history mark is enough.
            if (finished) throw new Error(LATE_SEND)
            await storage.runs.updateBatch(job.runId, job.index, { status: 'sending', mark: readMark, ...skipped })
          } else {
            // Bytes the code made itself, kept deflated (on libuv's pool, off the event loop).
            const deflated = await _deflate(text, { level: 1 })
            if (finished) throw new Error(LATE_SEND)
            await storage.runs.updateBatch(job.runId, job.index, { status: 'sending', body: new Uint8Array(deflated.buffer, deflated.byteOffset, deflated.byteLength), ...skipped })
          }
          stored = text
        }
        const result = await job.throttle(() =>
          finished ? Promise.resolve(null) : deliver({
                url,
                body: new TextEncoder().encode(text),
                webhookId: job.webhookId,
                secrets: job.secrets,
                headers: runHeaders(job.runId, job.index, job.batches),
                timeoutMs: job.options.requestTimeoutMs,
                signal,
                fetch: job.options.fetch,
              }),
        )
        if (!result) throw new Error(LATE_SEND)
        lastStatus = result.status || null
        if (result.ok && !acknowledged.has(text)) {
          acknowledged.add(text)
          sentCount += sent.count
        }
        const attempt = { at: new Date().toISOString(), status: lastStatus, durationMs: Math.round(result.durationMs), error: result.error }
        attempts.push(result.retryAfter === undefined ? attempt : { ...attempt, retryAfter: result.retryAfter })
        return result.retryAfter === undefined ? { ok: result.ok, status: result.status } : { ok: result.ok, status: result.status, retryAfter: result.retryAfter }
      },
      sleep: (ms) => _sleep(ms, signal),
      log: (line) => {
        if (job.logs.length < 200) job.logs.push(line)
      },
    })
    finished = true
    await storage.runs.updateBatch(job.runId, job.index, { status: 'succeeded', error: null, body: null, lastStatus, appendAttempts: attempts, entitiesSent: sentCount, ...skipped })
  } catch (error) {
    finished = true
    await storage.runs.updateBatch(job.runId, job.index, {
      status: 'failed',
      error: `[connector:webhook] batch ${job.index}: ${signal.aborted ? 'stopped: the run was cancelled or the server is stopping' : (error as Error).message}`,
      lastStatus,
      appendAttempts: attempts,
      ...skipped,
    })
  }
}

const LATE_SEND = 'this push() call has already finished'
const _deflate = promisify(deflateRaw)
const _inflate = promisify(inflateRaw)

/** The records' JSON texts as one array: the same text as JSON.stringify of the records. */
function _toJson(records: string[]): EntitiesJson {
  return { json: `[${records.join(',')}]`, count: records.length }
}

/** The entities of a kept body, as the same JSON text that was sent. */
function _entitiesOf(body: string): EntitiesJson {
  const parsed = JSON.parse(body) as { entities: unknown[] }
  return { json: body.slice('{"entities":'.length, -1), count: parsed.entities.length }
}

/** Abort reason of a server stop: the run stays `running`, to be resumed at the next start. */
export const STOPPING = 'stopping'

/** Settles a run from its batches' outcomes (a stop leaves it running, to be resumed). */
export async function finishRun(storage: Storage, runId: string, signal: AbortSignal, error: string | null): Promise<Run> {
  const detail = await storage.runs.get(runId)
  if (signal.aborted && signal.reason === STOPPING) return detail
  const succeeded = detail.batches.filter((b) => b.status === 'succeeded')
  const failed = detail.batches.filter((b) => b.status === 'failed')
  const status = signal.aborted ? 'cancelled' : error || failed.length ? 'failed' : 'succeeded'
  return storage.runs.update(runId, {
    status,
    error: error ?? (failed.length ? `${failed.length} of ${detail.batchesTotal} batches failed; first: ${failed[0]!.error}` : null),
    finishedAt: new Date().toISOString(),
    batchesSucceeded: succeeded.length,
    batchesFailed: failed.length,
    entitiesSent: succeeded.reduce((n, b) => n + b.entitiesSent, 0),
    entitiesSkipped: detail.batches.reduce((n, b) => n + b.entitiesSkipped, 0),
  })
}

/** The current secret, and the previous one while its grace period lasts. */
export function connectorSecrets(c: StoredConnector): string[] {
  const out = c.secret ? [c.secret] : []
  if (c.previousSecret && c.previousSecretExpiresAt && new Date(c.previousSecretExpiresAt) > new Date()) out.push(c.previousSecret)
  if (out.length === 0) throw new Error('the connector has no signing secret')
  return out
}

function _sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('the run was cancelled'))
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(new Error('the run was cancelled'))
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
