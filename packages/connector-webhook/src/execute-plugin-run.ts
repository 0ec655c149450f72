import type { Component, ConnectorDefinition, ConnectorRunResult, Run, Storage } from '@complib/core'
import { promisify } from 'node:util'
import { inflateRaw } from 'node:zlib'
import pLimit from 'p-limit'
import { connectorSecrets, finishRun } from './execute-run'

/**
 * Carries out a run of a connector type loaded as a plugin (see
 * defineConnector): every batch not yet acknowledged goes to the type's
 * `run`, up to the config's `concurrency` (default 1) at a time. Before `run`
 * first sees a batch, the history mark of its read is recorded, so a batch
 * resumed after a crash gets exactly the same records back.
 * Resolves with the final run; never throws for what the plugin did.
 */
export async function executePluginRun(runId: string, definition: ConnectorDefinition, options: { storage: Storage; signal: AbortSignal }): Promise<Run> {
  const { storage, signal } = options
  const detail = await storage.runs.get(runId)
  const resumed = detail.startedAt !== null
  await storage.runs.update(runId, { status: 'running', ...(resumed ? { resumedAt: new Date().toISOString() } : { startedAt: new Date().toISOString() }) })
  const tag = `[connector:${definition.type}]`
  try {
    const connector = await storage.connectors.get(detail.connectorId)
    const config = definition.configSchema.parse(connector.config)
    const secrets = connector.secret ? connectorSecrets(connector) : []
    const concurrency = typeof config.concurrency === 'number' && config.concurrency >= 1 ? Math.floor(config.concurrency) : 1
    const limit = pLimit(concurrency)
    await Promise.all(
      detail.batches
        .filter((b) => b.status !== 'succeeded')
        .map((batch) =>
          limit(async () => {
            if (signal.aborted) return
            const logs: string[] = []
            const started = performance.now()
            const at = new Date().toISOString()
            try {
              const { entities, skipped } = await _entities(storage, runId, batch.index)
              let sent = 0
              if (entities.length > 0) {
                const result = await definition.run(
                  { index: batch.index, deliveryId: batch.webhookId, entities },
                  { config, secrets, signal, log: (line) => void (logs.length < 200 && logs.push(String(line).slice(0, 2000))) },
                )
                sent = _sentCount(result, entities.length)
              }
              const attempt = { at, status: null, durationMs: Math.round(performance.now() - started), error: null }
              await storage.runs.updateBatch(runId, batch.index, { status: 'succeeded', error: null, body: null, appendAttempts: [attempt], entitiesSent: sent, ...skipped })
            } catch (error) {
              const message = signal.aborted ? 'stopped: the run was cancelled or the server is stopping' : error instanceof Error ? error.message : String(error)
              const attempt = { at, status: null, durationMs: Math.round(performance.now() - started), error: message }
              await storage.runs.updateBatch(runId, batch.index, { status: 'failed', error: `${tag} batch ${batch.index}: ${message}`, appendAttempts: [attempt] })
            } finally {
              if (logs.length) await storage.runs.update(runId, { appendLogs: logs.map((l) => `[batch ${batch.index}] ${l}`) })
            }
          }),
        ),
    )
  } catch (error) {
    // The connector is gone, or its config no longer fits its type: the run fails, the server does not.
    return finishRun(storage, runId, signal, `${tag} ${(error as Error).message}`)
  }
  return finishRun(storage, runId, signal, null)
}

/**
 * The batch's entities: read now, with the read's history mark recorded before
 * use; or, for a batch that went out before, read back at that mark (the same
 * records), or from the bytes an older version kept.
 */
async function _entities(storage: Storage, runId: string, index: number): Promise<{ entities: Component[]; skipped: { entitiesSkipped: number } | Record<string, never> }> {
  const { ids, body, mark } = await storage.runs.getBatchPayload(runId, index)
  // A body kept by an older version keeps the skipped count it has (none).
  if (body) return { entities: JSON.parse((await _inflate(body)).toString('utf8')) as Component[], skipped: {} }
  const records = mark !== null ? await storage.components.rereadForDelivery(ids, mark) : await _readAndMark(storage, runId, index, ids)
  return { entities: records.map((r) => JSON.parse(r) as Component), skipped: { entitiesSkipped: ids.length - records.length } }
}

async function _readAndMark(storage: Storage, runId: string, index: number, ids: string[]): Promise<string[]> {
  const read = await storage.components.readForDelivery(ids)
  if (read.records.length) await storage.runs.updateBatch(runId, index, { status: 'sending', mark: read.mark })
  return read.records
}

/** What `run` says it delivered (a type that filters its batch), else the whole batch. */
function _sentCount(result: void | ConnectorRunResult, given: number): number {
  const told = result?.entitiesSent
  return Number.isInteger(told) && told! >= 0 && told! <= given ? told! : given
}

const _inflate = promisify(inflateRaw)
