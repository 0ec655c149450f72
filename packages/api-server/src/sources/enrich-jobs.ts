import { ENRICH_JOB_MAX, isComplibError, isSourceError, sourceProblem, type EnrichField, type EnrichResult, type JobRecord, type Storage } from '@complib/core'
import type { SourceService } from '@complib/sources'
import { enrichFromSource, libraryShape } from './library'

/** What a bulk enrichment is asked to do. */
export interface EnrichJobInput {
  sourceId: string
  componentIds: readonly string[]
  fields?: readonly EnrichField[] | undefined
  dryRun: boolean
  /**
   * A scheduled refresh (decision 1608): offers written, and a lifecycle gone
   * NRND or obsolete at the source tagged rather than applied, unless `autoStatus`.
   */
  refresh?: { autoStatus: boolean } | undefined
}

/** The job record's `data` while it runs and once it ends (`GET /api/jobs/{id}`). */
export interface EnrichJobData {
  sourceId: string
  dryRun: boolean
  fields: readonly EnrichField[] | null
  total: number
  done: number
  /** Components with at least one field that differs (applied unless a dry run). */
  changed: number
  unchanged: number
  failed: number
  /** Per changed component, which fields differ (and were applied): what a dry run shows before the real one. */
  changes: Array<{ componentId: string; fields: EnrichField[] }>
  /** Refreshes: components whose part went NRND or obsolete at the source, and whether their status followed. */
  flagged: Array<{ componentId: string; lifecycle: string; applied: boolean }>
  /** The first failures, each with the problem's detail. */
  failures: Array<{ componentId: string; status: number; detail: string }>
  /** Refreshed after every component: a job whose heartbeat is minutes old was cut off (the server stopped). */
  heartbeatAt: string
  finishedAt: string | null
}

/** The failures and changes a job keeps the detail of. */
const KEEP_FAILURES = 50
const KEEP_CHANGES = ENRICH_JOB_MAX

/**
 * Bulk enrichment (decision 1607): one component after another through the
 * same path as `POST /api/components/{id}/enrich`, each its own transaction,
 * paced by the source's limiter, waiting for its turn as long as the quota
 * needs (a job has time; a request does not). Progress goes to the job
 * record after every component. A failure of one component is counted and
 * the job goes on; a spent daily quota or refused credentials end it.
 */
export function createEnrichJobs(services: { storage: Storage; sources: SourceService; log?: ((line: string) => void) | undefined }) {
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>()

  const run = async (job: JobRecord, input: EnrichJobInput, signal: AbortSignal): Promise<void> => {
    const { storage } = services
    let data = job.data as unknown as EnrichJobData
    let version = job.version
    const save = async (status: string, patch: Partial<EnrichJobData>) => {
      data = { ...data, ...patch, heartbeatAt: new Date().toISOString() }
      const saved = await storage.jobs.update(job.id, { status, data: data as unknown as Record<string, unknown> }, { ifVersion: version })
      version = saved.version
    }
    try {
      // The parameter types and categories a part is mapped onto, read once for the job.
      const source = await storage.sources.get(input.sourceId)
      const shape = await libraryShape(storage, services.sources.typeOf(source.type).title ?? source.type)
      for (const componentId of input.componentIds) {
        if (signal.aborted) return await save('interrupted', { finishedAt: new Date().toISOString() })
        const counts: Partial<EnrichJobData> = { done: data.done + 1 }
        try {
          const fieldsAsked = input.refresh ? (input.refresh.autoStatus ? (['offers', 'status'] as const) : (['offers'] as const)) : input.fields
          const result = await enrichFromSource({ storage, sources: services.sources }, componentId, { sourceId: input.sourceId, fields: fieldsAsked, dryRun: input.dryRun, waitForQuota: true, fresh: input.refresh !== undefined, shape }, signal)
          const fields = result.changes.filter((c) => c.note === null && (!fieldsAsked || fieldsAsked.includes(c.field))).map((c) => c.field)
          if (input.refresh) {
            const flag = await _flagLifecycle(storage, result, input.dryRun)
            if (flag) counts.flagged = [...data.flagged, { componentId, ...flag }]
          }
          if (fields.length > 0) {
            counts.changed = data.changed + 1
            if (data.changes.length < KEEP_CHANGES) counts.changes = [...data.changes, { componentId, fields }]
          } else counts.unchanged = data.unchanged + 1
        } catch (error) {
          const cause = _sourceCause(error)
          // Refused credentials or a spent quota would fail every component after this one.
          if (cause && (cause.kind === 'auth' || cause.kind === 'quota')) throw error
          counts.failed = data.failed + 1
          if (data.failures.length < KEEP_FAILURES) {
            counts.failures = [...data.failures, { componentId, status: isComplibError(error) ? error.status : 500, detail: isComplibError(error) ? error.detail : 'the enrichment failed' }]
          }
          if (!isComplibError(error)) services.log?.(`[sources] enrichment of ${componentId} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
        }
        await save('running', counts)
      }
      await save('succeeded', { finishedAt: new Date().toISOString() })
    } catch (error) {
      const detail = isComplibError(error) ? error.detail : isSourceError(error) ? sourceProblem(error, input.sourceId).detail : error instanceof Error ? error.message : String(error)
      await save('failed', { finishedAt: new Date().toISOString(), failures: [...data.failures, { componentId: input.componentIds[data.done] ?? '', status: 0, detail: `the job stopped: ${detail}` }] }).catch(() => {})
    }
  }

  return {
    /** Records the job (`running`) and runs it in the background; resolves with the record as created. */
    async start(input: EnrichJobInput): Promise<JobRecord> {
      const data: EnrichJobData = {
        sourceId: input.sourceId,
        dryRun: input.dryRun,
        fields: input.fields ?? null,
        total: input.componentIds.length,
        done: 0,
        changed: 0,
        unchanged: 0,
        failed: 0,
        changes: [],
        flagged: [],
        failures: [],
        heartbeatAt: new Date().toISOString(),
        finishedAt: null,
      }
      const job = await services.storage.jobs.create({ kind: input.refresh ? 'source-refresh' : 'source-enrich', status: 'running', data: data as unknown as Record<string, unknown> })
      const controller = new AbortController()
      const done = run(job, input, controller.signal).finally(() => running.delete(job.id))
      running.set(job.id, { controller, done })
      return job
    },
    /** Stops every running job at its next component (marked `interrupted`), for a server that stops. */
    async stop(): Promise<void> {
      for (const { controller } of running.values()) controller.abort()
      await Promise.all([...running.values()].map((r) => r.done.catch(() => {})))
    },
    /** Resolves once the job has ended (at once when it is not running here). */
    async finished(id: string): Promise<void> {
      await running.get(id)?.done.catch(() => {})
    },
    /** Resolves once every running job has ended (tests). */
    async idle(): Promise<void> {
      await Promise.all([...running.values()].map((r) => r.done.catch(() => {})))
    },
  }
}

export type EnrichJobs = ReturnType<typeof createEnrichJobs>

/**
 * A refreshed part gone NRND or obsolete at its source: the status followed
 * (autoStatus applied it), or the component is tagged `<lifecycle>-at-source`
 * for a person to decide. Null when the lifecycle did not move that way.
 */
async function _flagLifecycle(storage: Storage, result: EnrichResult, dryRun: boolean): Promise<{ lifecycle: string; applied: boolean } | null> {
  const change = result.changes.find((c) => c.field === 'status')
  if (!change || (change.proposed !== 'nrnd' && change.proposed !== 'obsolete')) return null
  const lifecycle = change.proposed
  if (change.applied) return { lifecycle, applied: true }
  const tag = `${lifecycle}-at-source`
  const component = result.component
  if (!dryRun && !component.tags.includes(tag)) await storage.components.update(component.id, { tags: [...component.tags, tag] }, { ifVersion: component.version })
  return { lifecycle, applied: false }
}

/** The provider's failure behind an error, whether still a SourceError or already its problem. */
function _sourceCause(error: unknown) {
  if (isSourceError(error)) return error
  if (isComplibError(error) && isSourceError(error.cause)) return error.cause
  return null
}
