import type { Connector, ConnectorCode, ConnectorCreate, ConnectorPatch, ConnectorTypeInfo, DryRunResult, Page, PageQuery, Run, RunBatch, RunBatchesQuery, RunDetail, SecretRotate } from '@complib/core'
import { iteratePages, readPage } from '../_internal/paging'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions, IterateQueryOf, QueryOf } from '../_internal/types'

/**
 * `client.connectors`: outbound connectors (the webhook), their code, and
 * starting push runs.
 *
 * @example
 * const run = await client.connectors.push(connector.id)
 * const done = await client.runs.wait(run.id)
 */
export function createConnectorsResource(t: Transport) {
  return {
    /** Connector types this server can run, with their config schemas (JSON Schema). */
    types: (): Promise<ConnectorTypeInfo[]> => t.call('GET', '/connectors/types'),
    list: (query: QueryOf<typeof PageQuery> = {}): Promise<Page<Connector>> => readPage(t, '/connectors', query),
    iterate: (query: IterateQueryOf<typeof PageQuery> = {}): AsyncGenerator<Connector, void, undefined> => iteratePages(t, '/connectors', query),
    get: (id: string): Promise<Connector> => t.call('GET', path`/connectors/${id}`),
    /** The secret is never returned: set `secret` yourself when the receiver verifies signatures. */
    create: (body: ConnectorCreate): Promise<Connector> => t.call('POST', '/connectors', { body }),
    /** `config` replaces the whole configuration. */
    patch: (id: string, body: ConnectorPatch, options: IfMatchOptions = {}): Promise<Connector> => t.call('PATCH', path`/connectors/${id}`, { body, ifMatch: options.ifMatch }),
    delete: (id: string): Promise<void> => t.call('DELETE', path`/connectors/${id}`),
    /** The code the connector runs: `push(entities, config, helpers)`. */
    getCode: (id: string): Promise<ConnectorCode> => t.call('GET', path`/connectors/${id}/code`),
    /** Replaces the code (`null` goes back to the default); a syntax error is a 400 naming the line. */
    putCode: (id: string, code: string | null, options: IfMatchOptions = {}): Promise<ConnectorCode> =>
      t.call('PUT', path`/connectors/${id}/code`, { body: { code }, ifMatch: options.ifMatch }),
    /** Dry run against a small sample: every send captured, nothing leaves the machine (so it is retried like a read). */
    test: (id: string): Promise<DryRunResult> => t.call('POST', path`/connectors/${id}/test`, { idempotent: true }),
    /** Push now: starts a run over every non-deleted component (409 while one is active). Never retried. */
    push: (id: string): Promise<Run> => t.call('POST', path`/connectors/${id}/push`),
    /** New signing secret; the old one keeps signing beside it for `graceSeconds` (default a day). */
    rotateSecret: (id: string, body: SecretRotate = {}): Promise<Connector> => t.call('POST', path`/connectors/${id}/secret/rotate`, { body }),
  }
}

const FINISHED: ReadonlySet<Run['status']> = new Set(['succeeded', 'failed', 'cancelled'])

export interface WaitOptions {
  /** Between polls (default 500 ms). */
  intervalMs?: number | undefined
  /** Give up after this long (default 10 minutes) with an error. */
  timeoutMs?: number | undefined
  /** Called with each poll's run, e.g. to print progress. */
  onPoll?: ((run: RunDetail) => void) | undefined
}

/** `client.runs`: push runs of connectors. */
export function createRunsResource(t: Transport) {
  const get = (runId: string): Promise<RunDetail> => t.call('GET', path`/connector-runs/${runId}`)
  return {
    /** Runs of one connector, newest first (one page). */
    list: (connectorId: string, query: QueryOf<typeof PageQuery> = {}): Promise<Page<Run>> => readPage(t, path`/connectors/${connectorId}/runs`, query),
    iterate: (connectorId: string, query: IterateQueryOf<typeof PageQuery> = {}): AsyncGenerator<Run, void, undefined> =>
      iteratePages(t, path`/connectors/${connectorId}/runs`, query),
    /** A run with its first 100 batches and their attempts; `batchesNextCursor` continues at `batches`. */
    get,
    /** A page of a run's batches by index (`status: 'failed'` keeps the failed ones). */
    batches: (runId: string, query: QueryOf<typeof RunBatchesQuery> = {}): Promise<Page<RunBatch>> => readPage(t, path`/connector-runs/${runId}/batches`, query),
    /** Every batch of a run, page after page. */
    iterateBatches: (runId: string, query: IterateQueryOf<typeof RunBatchesQuery> = {}): AsyncGenerator<RunBatch, void, undefined> =>
      iteratePages(t, path`/connector-runs/${runId}/batches`, query),
    cancel: (runId: string): Promise<Run> => t.call('POST', path`/connector-runs/${runId}/cancel`),
    /** Resumes a run a crash interrupted; acknowledged batches are not sent again. */
    resume: (runId: string): Promise<Run> => t.call('POST', path`/connector-runs/${runId}/resume`),
    /**
     * The run as it goes, from `GET /api/connector-runs/:runId/events`
     * (server-sent events): `progress` when a count changes, `batch` when a
     * batch succeeds or fails, then `end`. Stops at the end, or when `signal` aborts.
     *
     * @example
     * for await (const e of client.runs.follow(run.id)) if (e.type === 'progress') console.log(`${e.run.batchesSucceeded}/${e.run.batchesTotal}`)
     */
    follow: (runId: string, options: { signal?: AbortSignal | undefined } = {}): AsyncGenerator<RunEvent, void, undefined> => _follow(t, runId, options.signal),
    /** Polls until the run succeeded, failed or was cancelled, and answers it. */
    wait: async (runId: string, options: WaitOptions = {}): Promise<RunDetail> => {
      const deadline = Date.now() + (options.timeoutMs ?? 600_000)
      for (;;) {
        const run = await get(runId)
        options.onPoll?.(run)
        if (FINISHED.has(run.status)) return run
        if (Date.now() >= deadline) throw new Error(`[complib] run ${runId} is still ${run.status} after ${options.timeoutMs ?? 600_000} ms`)
        await new Promise((r) => setTimeout(r, options.intervalMs ?? 500))
      }
    },
  }
}

/** One event of a run's stream (`client.runs.follow`). */
export type RunEvent =
  | { type: 'progress'; run: Run }
  | { type: 'batch'; batch: RunBatch }
  | { type: 'end'; run: Run }
  | { type: 'error'; detail: string }

async function* _follow(t: Transport, runId: string, signal: AbortSignal | undefined): AsyncGenerator<RunEvent, void, undefined> {
  const stream = await t.call<ReadableStream<Uint8Array>>('GET', path`/connector-runs/${runId}/events`, { responseType: 'stream', signal, idempotent: true })
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n')
      let end: number
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const name = /^event: ?(.*)$/m.exec(block)?.[1]
        const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n')
        if (!name || !data) continue
        const payload = JSON.parse(data)
        if (name === 'batch') yield { type: 'batch', batch: payload as RunBatch }
        else if (name === 'progress' || name === 'end') yield { type: name, run: payload as Run }
        else if (name === 'error') yield { type: 'error', detail: String(payload.detail) }
        if (name === 'end' || name === 'error') return
      }
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
}

export type ConnectorsResource = ReturnType<typeof createConnectorsResource>
export type RunsResource = ReturnType<typeof createRunsResource>
