import { ComplibError, WebhookConfig, currentChange, type Actor, type AnyConnectorDefinition, type Run, type Storage } from '@complib/core'
import { Cron } from 'croner'
import { DEFAULT_WEBHOOK_CODE } from './default-code'
import { createWebhookConnector, precheckDestination, type WebhookConnectorOptions } from './connector'
import { BATCH_SIZE, PLAN_AHEAD, STOPPING, executeRun, finishRun } from './execute-run'
import { OutboundRefusedError, createOutboundGuard } from './outbound-policy'
import { createSandbox } from './sandbox'
import { DEFAULT_SANDBOX_MEMORY_MB, createSandboxPool, type SandboxPool } from './sandbox-pool'
import { ENTITIES_CLOSE, ENTITIES_OPEN } from './_internal/body'

/**
 * The runner owns the outbound policy from the storage's settings: one given
 * here replaces it (tests).
 */
export interface RunnerOptions extends WebhookConnectorOptions {
  storage: Storage
  /** Connector types loaded as plugins, besides the built-in webhook type. */
  connectors?: readonly AnyConnectorDefinition[] | undefined
  log?: ((message: string) => void) | undefined
  /** The budget of this server's sandboxes, dry runs' and pushes' (default: one sized from the machine, decision 0724). */
  sandboxPool?: SandboxPool | undefined
  /** How often to sweep for runs to take over where servers share the storage (default 5 s; tests shorten it). */
  sweepMs?: number | undefined
}

export interface DryRunResult {
  sent: Array<{ url: string; entities: number; bytes: number }>
  logs: string[]
  error: string | null
}

export interface PushRunner {
  /**
   * Records the run over the components live now, plans its first batches and
   * starts it; CONFLICT while the
   * connector has an active run (on any server sharing the storage), or when
   * the run for `scheduledFor` (a cron tick) was started already. The run
   * records who started it: `startedBy` when given, else the cron scheduler
   * for a cron run, else the actor of the current change context (the API
   * request's caller), or null outside one.
   */
  start(connectorId: string, trigger: 'manual' | 'cron', options?: { scheduledFor?: string | undefined; startedBy?: Actor | null | undefined }): Promise<Run>
  /** Carries on a run interrupted by a crash or a stop. */
  resume(runId: string): Promise<Run>
  cancel(runId: string): Promise<Run>
  /**
   * The code against a few components, with every send captured: nothing
   * leaves the machine. The outbound policy still applies: a destination it
   * refuses is the dry run's error.
   */
  dryRun(connectorId: string, sample?: number): Promise<DryRunResult>
  /** Runs left queued or running by the last process, resumed (call at start-up). */
  resumeInterrupted(): Promise<Run[]>
  /** Re-reads every connector's cron schedule (call after connectors change). */
  syncSchedules(): Promise<void>
  /** Waits for the run in progress of a connector, if any. */
  settled(connectorId: string): Promise<void>
  /** Stops schedules and in-flight runs; interrupted runs stay resumable. */
  close(): Promise<void>
}

/** How often a server sharing its storage looks for runs whose server died, so they are taken over within seconds (decision 0316). */
const SWEEP_MS = 5_000

/** Who a run started by a connector's schedule was started by. */
export const CRON_ACTOR: Actor = { kind: 'system', id: null, name: 'cron' }

/**
 * Owns the push runs of a server: one active run per connector (a cron tick
 * that finds one running is skipped), cancellation, resume after a crash, and
 * the croner schedules.
 */
export function createPushRunner(options: RunnerOptions): PushRunner {
  const { storage } = options
  const log = options.log ?? (() => {})
  const active = new Map<string, { runId: string; controller: AbortController; done: Promise<Run> }>()
  const schedules = new Map<string, { cron: string; job: Cron }>()
  let closed = false

  /**
   * Executes a run on this server. Where servers share the storage, it first
   * claims the run (false: another live server holds it); losing the claim
   * stops the run here, since another server may now take it over.
   */
  const launch = async (connectorId: string, runId: string): Promise<boolean> => {
    const claim = storage.claimRun ? await storage.claimRun(runId) : null
    if (storage.claimRun && !claim) return false
    // The claim is taken after the run was read as active: another server may have ended it (and its connector
    // may be gone) in between, and it releases its claim only once that end is written, so read it again now.
    const current = claim ? await storage.runs.get(runId, { batches: 0 }).catch(() => null) : null
    if (active.has(connectorId) || (claim && (!current || (current.status !== 'queued' && current.status !== 'running')))) {
      await claim?.release()
      return false
    }
    const controller = new AbortController()
    claim?.lost.addEventListener('abort', () => controller.abort(STOPPING), { once: true })
    const done = _execute(runId, controller.signal).finally(async () => {
      if (active.get(connectorId)?.runId === runId) active.delete(connectorId)
      await claim?.release()
    })
    done.catch((error) => log(`[connector:webhook] run ${runId} stopped: ${String(error)}`))
    active.set(connectorId, { runId, controller, done })
    return true
  }

  /**
   * Where servers share the storage: takes over the active runs no live server
   * holds (their server died), every SWEEP_MS and at start-up. The sweep also
   * stops the runs here that another server cancelled, and re-reads the
   * schedules, since a connector changed through another server changes them
   * here too.
   */
  const takeOver = async (reason: string): Promise<Run[]> => {
    const out: Run[] = []
    // Only runs that were here before the read: one launched meanwhile is missing from it because it is new.
    const before = [...active.values()]
    const stillActive = await storage.runs.listActive()
    // A run of this server that is no longer active in the storage was cancelled through another server: stop it here.
    const ids = new Set(stillActive.map((r) => r.id))
    for (const mine of before) if (!ids.has(mine.runId)) mine.controller.abort()
    for (const run of stillActive) {
      if (closed || active.has(run.connectorId)) continue
      if (await launch(run.connectorId, run.id)) {
        log(`[connector:webhook] resuming run ${run.id} ${reason}`)
        out.push(run)
      }
    }
    return out
  }
  const sweep = storage.claimRun
    ? setInterval(
        () =>
          void takeOver('whose server stopped')
            .then(() => runner.syncSchedules())
            .catch((error) => log(`[connector:webhook] looking for runs to take over failed: ${String(error)}`)),
        options.sweepMs ?? SWEEP_MS,
      )
    : null
  sweep?.unref()

  // Every type, the built-in webhook one included, runs through the same executor.
  // A type no longer loaded fails its run.
  // Read at the start of each run and dry run, so a change in Settings applies to the next one.
  const outboundPolicy = options.outboundPolicy ?? (async () => (await storage.settings.get()).outbound)
  // One budget for the sandboxes of this server's dry runs and pushes alike (decision 0724).
  const sandboxPool = options.sandboxPool ?? createSandboxPool()
  const webhook = createWebhookConnector({ ...options, outboundPolicy, sandboxPool })
  const _execute = async (runId: string, signal: AbortSignal): Promise<Run> => {
    const run = await storage.runs.get(runId, { batches: 0 })
    const connector = await storage.connectors.get(run.connectorId).catch(() => null)
    const definition = !connector || connector.type === 'webhook' ? webhook : options.connectors?.find((c) => c.type === connector.type)
    if (!definition) {
      await storage.runs.update(runId, { status: 'running', startedAt: run.startedAt ?? new Date().toISOString() })
      return finishRun(storage, runId, signal, `[connector:${connector!.type}] this server has no connector type "${connector!.type}" loaded (start it with --connector <module>)`)
    }
    return executeRun(runId, definition, { storage, signal })
  }

  const assertIdle = async (connectorId: string) => {
    const current = active.get(connectorId)
    if (current) throw new ComplibError('CONFLICT', `connector ${connectorId} is already running ${current.runId}`)
    const stale = (await storage.runs.listActive()).find((r) => r.connectorId === connectorId)
    if (stale) throw new ComplibError('CONFLICT', `run ${stale.id} of connector ${connectorId} was interrupted; resume or cancel it first`)
  }

  const runner: PushRunner = {
    async start(connectorId, trigger, startOptions) {
      if (closed) throw new ComplibError('SERVICE_UNAVAILABLE', 'the server is stopping')
      // Taken before any await; a cron tick is not the caller's even when the schedule was set up during a request,
      // whose change context its timer would otherwise carry.
      const startedBy = startOptions?.startedBy !== undefined ? startOptions.startedBy : trigger === 'cron' ? CRON_ACTOR : (currentChange()?.actor ?? null)
      await storage.connectors.get(connectorId)
      await assertIdle(connectorId)
      // Checked again after the awaits above: two pushes may race past the first check.
      if (active.has(connectorId)) throw new ComplibError('CONFLICT', `connector ${connectorId} is already running ${active.get(connectorId)!.runId}`)
      // The run records the live components' count and highest id and plans its first batches; it plans the
      // rest as it sends (decision 0320), so starting a push of a million parts reads none of their ids.
      const batches = { live: { batchSize: BATCH_SIZE, first: PLAN_AHEAD } }
      const run = await storage.runs.create({ connectorId, trigger, batches, exclusive: true, scheduledFor: startOptions?.scheduledFor, startedBy })
      await launch(connectorId, run.id)
      return run
    },

    async resume(runId) {
      const run = await storage.runs.get(runId, { batches: 0 })
      if (run.status !== 'queued' && run.status !== 'running') throw new ComplibError('CONFLICT', `run ${runId} is ${run.status}; only an interrupted run can be resumed`)
      if (active.get(run.connectorId)?.runId === runId) throw new ComplibError('CONFLICT', `run ${runId} is in progress`)
      if (active.has(run.connectorId)) throw new ComplibError('CONFLICT', `connector ${run.connectorId} is running ${active.get(run.connectorId)!.runId}`)
      if (!(await launch(run.connectorId, runId))) throw new ComplibError('CONFLICT', `run ${runId} is in progress on another server`)
      return run
    },

    async cancel(runId) {
      const run = await storage.runs.get(runId, { batches: 0 })
      if (run.status !== 'queued' && run.status !== 'running') throw new ComplibError('CONFLICT', `run ${runId} is ${run.status}; only a queued or running run can be cancelled`)
      const current = active.get(run.connectorId)
      if (current?.runId === runId) {
        current.controller.abort()
        return current.done
      }
      return storage.runs.update(runId, { status: 'cancelled', finishedAt: new Date().toISOString() })
    },

    async dryRun(connectorId, sample = 3) {
      const connector = await storage.connectors.get(connectorId)
      if (connector.type !== 'webhook') {
        throw new ComplibError('CONFLICT', `a dry run needs connector code, and connectors of type "${connector.type}" run none (their package delivers directly)`)
      }
      const config = WebhookConfig.parse(connector.config)
      const result: DryRunResult = { sent: [], logs: [], error: null }
      const guard = createOutboundGuard(await outboundPolicy(), options.resolve)
      const refusal = await precheckDestination(guard, config.url).catch((error: OutboundRefusedError) => error)
      if (refusal) return { ...result, error: refusal.message }
      // A destination the policy refused is the dry run's error, even if the code caught it.
      let refused: OutboundRefusedError | null = null
      const entities = await storage.components.getMany(await storage.components.liveIds(sample))
      // A place in the pool first: beyond its queue this is a 429, and the sandbox is never made.
      const lease = await sandboxPool.dryRun(options.sandbox?.memoryMb ?? DEFAULT_SANDBOX_MEMORY_MB)
      const sandbox = await createSandbox({ code: connector.code ?? DEFAULT_WEBHOOK_CODE, ...options.sandbox, wallTimeoutMs: 30_000 }).catch((error: Error) => error)
      if (sandbox instanceof Error) {
        lease.release()
        return { ...result, error: sandbox.message }
      }
      try {
        await sandbox.push({ bytes: Buffer.from(JSON.stringify(entities), 'utf8'), count: entities.length }, config, {
          sendWebhook: async (url, sent) => {
            await precheckDestination(guard, url).catch((error: OutboundRefusedError) => {
              refused ??= error
              throw error
            })
            result.sent.push({ url, entities: sent.count, bytes: ENTITIES_OPEN.byteLength + sent.bytes.byteLength + ENTITIES_CLOSE.byteLength })
            return { ok: true, status: 202 }
          },
          sleep: async () => {},
          log: (line) => void (result.logs.length < 200 && result.logs.push(line)),
        })
      } catch (error) {
        result.error = (error as Error).message
      } finally {
        sandbox.dispose()
        lease.release()
      }
      if (refused) result.error = (refused as OutboundRefusedError).message
      return result
    },

    resumeInterrupted: () => takeOver('interrupted by the last stop'),

    async syncSchedules() {
      if (closed) return
      const wanted = new Map<string, string>()
      let cursor: string | undefined
      do {
        const page = await storage.connectors.list({ limit: 1000, cursor })
        for (const c of page.items) if (c.enabled && typeof c.config.cron === 'string') wanted.set(c.id, c.config.cron)
        cursor = page.nextCursor ?? undefined
      } while (cursor)
      for (const [id, s] of schedules) {
        if (wanted.get(id) !== s.cron) {
          s.job.stop()
          schedules.delete(id)
        }
      }
      for (const [id, cron] of wanted) {
        if (schedules.has(id)) continue
        const job: Cron = new Cron(cron, { protect: true }, () => {
          // The scheduled run is the same full walk; a tick during an active run is skipped.
          // The tick's own time names the run, so servers sharing the storage start one per tick.
          const tick = Math.round((job.currentRun() ?? new Date()).getTime() / 1000) * 1000
          runner
            .start(id, 'cron', { scheduledFor: new Date(tick).toISOString() })
            // A push the scheduler started is an entry of the audit trail, as one started through the API is
            // (by the route); only the server whose run it is records it.
            .then((run) =>
              storage.audit
                .append({ actor: CRON_ACTOR, channel: 'system', requestId: null, comment: null, action: 'pushConnector', target: { type: 'connector', id }, details: { runId: run.id, trigger: 'cron' } })
                .catch((error: unknown) => log(`[connector:webhook] the scheduled run ${run.id} is not in the audit trail: ${(error as Error).message}`)),
            )
            // A tick another server started, or one during an active run, is skipped quietly.
            .catch((error) => {
              if ((error as ComplibError).code !== 'CONFLICT') log(`[connector:webhook] scheduled run of ${id} not started: ${(error as Error).message}`)
            })
        })
        schedules.set(id, { cron, job })
      }
    },

    async settled(connectorId) {
      await active.get(connectorId)?.done.catch(() => {})
    },

    async close() {
      closed = true
      if (sweep) clearInterval(sweep)
      for (const s of schedules.values()) s.job.stop()
      schedules.clear()
      // Leave runs resumable: stop sending without marking them cancelled.
      const running = [...active.values()]
      for (const r of running) r.controller.abort(STOPPING)
      await Promise.allSettled(running.map((r) => r.done))
    },
  }
  return runner
}
