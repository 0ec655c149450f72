import { ComponentIdsQuery, ENRICH_JOB_MAX, type JobRecord, type Storage, type StoredSource } from '@complib/core'
import { Cron } from 'croner'
import type { EnrichJobs } from './enrich-jobs'

/**
 * The cron schedules of sources' refreshes (decision 1608): one croner job
 * per source with a `refresh`, made again from the storage whenever a source
 * changes (`sync`). A tick lists the filter's components and starts a
 * refresh job, unless the source's previous one still runs.
 */
export function createRefreshSchedules(storage: Storage, jobs: EnrichJobs, log?: (line: string) => void) {
  const crons = new Map<string, Cron>()
  const busy = new Map<string, Promise<void>>()

  const tick = async (source: StoredSource): Promise<JobRecord | null> => {
    if (busy.has(source.id) || !source.refresh) return null
    const query = ComponentIdsQuery.safeParse({ ...source.refresh.filter, limit: ENRICH_JOB_MAX })
    if (!query.success) {
      log?.(`[sources] refresh of ${source.id} skipped: its filter is not one of the component list's`)
      return null
    }
    const ids = (await storage.components.listIds(query.data)).items
    if (ids.length === 0) return null
    const job = await jobs.start({ sourceId: source.id, componentIds: ids, dryRun: false, refresh: { autoStatus: source.refresh.autoStatus } })
    const done = jobs.finished(job.id).finally(() => busy.delete(source.id))
    busy.set(source.id, done)
    return job
  }

  return {
    /** Makes the schedules again from every source's `refresh`. */
    async sync(): Promise<void> {
      for (const cron of crons.values()) cron.stop()
      crons.clear()
      let cursor: string | undefined
      do {
        const page = await storage.sources.list({ limit: 1000, cursor })
        for (const source of page.items) {
          if (!source.refresh) continue
          const id = source.id
          crons.set(
            id,
            new Cron(source.refresh.cron, { protect: true }, async () => {
              try {
                await tick(await storage.sources.get(id))
              } catch (error) {
                log?.(`[sources] refresh of ${id} did not start: ${error instanceof Error ? error.message : String(error)}`)
              }
            }),
          )
        }
        cursor = page.nextCursor ?? undefined
      } while (cursor)
    },
    /** Starts a refresh now, as a tick would; null when none started (no schedule, nothing selected, or one still runs). */
    runNow: async (sourceId: string) => await tick(await storage.sources.get(sourceId)),
    stop(): void {
      for (const cron of crons.values()) cron.stop()
      crons.clear()
    },
  }
}

export type RefreshSchedules = ReturnType<typeof createRefreshSchedules>
