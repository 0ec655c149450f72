import { ComponentIdsQuery, ENRICH_JOB_MAX, type JobRecord, type Storage, type StoredSource } from '@complib/core'
import { Cron } from 'croner'
import type { EnrichJobs } from './enrich-jobs'

/**
 * How long a server keeps a source's refresh claimed at least: servers
 * sharing a database fire the same tick up to their clocks' skew apart, and a
 * refresh that ends sooner must not let a late server start it again.
 */
export const REFRESH_CLAIM_MIN_MS = 60_000

/**
 * The cron schedules of sources' refreshes (decision 1608): one croner job
 * per source with a `refresh`, made again from the storage whenever a source
 * changes (`sync`). A tick lists the filter's components and starts a
 * refresh job, unless the source's previous one still runs. Servers sharing
 * a PostgreSQL database all fire: the one that claims the source refreshes
 * it, holding the claim for the whole job (and REFRESH_CLAIM_MIN_MS at
 * least); the others skip the tick, so the provider's quota is spent once.
 */
export function createRefreshSchedules(storage: Storage, jobs: EnrichJobs, log?: (line: string) => void, options: { claimMinMs?: number } = {}) {
  const crons = new Map<string, Cron>()
  const busy = new Map<string, Promise<void>>()
  /** Claims waiting out their minimum hold: released at once when the server stops. */
  const holding = new Map<string, { timer: NodeJS.Timeout; release: () => Promise<void> }>()
  const claimMinMs = options.claimMinMs ?? REFRESH_CLAIM_MIN_MS

  const claim = async (sourceId: string): Promise<{ release: () => void } | null> => {
    if (!storage.claimRun) return { release: () => {} }
    const held = await storage.claimRun(`source-refresh:${sourceId}`)
    if (!held) return null
    const since = Date.now()
    return {
      release: () => {
        const release = async () => {
          holding.delete(sourceId)
          await held.release().catch(() => {}) // a lost connection has dropped the claim already
        }
        const timer = setTimeout(() => void release(), Math.max(0, claimMinMs - (Date.now() - since)))
        timer.unref()
        holding.set(sourceId, { timer, release })
      },
    }
  }

  const tick = async (source: StoredSource): Promise<JobRecord | null> => {
    if (busy.has(source.id) || holding.has(source.id) || !source.refresh) return null
    const query = ComponentIdsQuery.safeParse({ ...source.refresh.filter, limit: ENRICH_JOB_MAX })
    if (!query.success) {
      log?.(`[sources] refresh of ${source.id} skipped: its filter is not one of the component list's`)
      return null
    }
    const held = await claim(source.id)
    if (!held) return null
    try {
      const ids = (await storage.components.listIds(query.data)).items
      if (ids.length === 0) {
        held.release()
        return null
      }
      const job = await jobs.start({ sourceId: source.id, componentIds: ids, dryRun: false, refresh: { autoStatus: source.refresh.autoStatus } })
      const done = jobs.finished(job.id).finally(() => {
        busy.delete(source.id)
        held.release()
      })
      busy.set(source.id, done)
      return job
    } catch (error) {
      held.release()
      throw error
    }
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
      for (const { timer, release } of holding.values()) {
        clearTimeout(timer)
        void release()
      }
    },
  }
}

export type RefreshSchedules = ReturnType<typeof createRefreshSchedules>
