import type { Storage } from '@complib/core'
import type { SourceService } from '@complib/sources'
import { createEnrichJobs, type EnrichJobs } from './enrich-jobs'
import { createRefreshSchedules, type RefreshSchedules } from './refresh-schedule'

const JOBS = new WeakMap<Storage, { jobs: EnrichJobs; schedules: RefreshSchedules }>()

/** The enrichment jobs and refresh schedules over one storage (made on first use), so the routes, the server's start and its stop share them. */
export function enrichJobsFor(storage: Storage, sources: SourceService, log?: (line: string) => void): { jobs: EnrichJobs; schedules: RefreshSchedules } {
  let found = JOBS.get(storage)
  if (!found) {
    const jobs = createEnrichJobs({ storage, sources, log })
    found = { jobs, schedules: createRefreshSchedules(storage, jobs, log) }
    JOBS.set(storage, found)
  }
  return found
}

/** Stops the refresh schedules and the enrichment jobs of a storage, if any ran (a server that stops). */
export async function stopEnrichJobs(storage: Storage): Promise<void> {
  const found = JOBS.get(storage)
  found?.schedules.stop()
  await found?.jobs.stop()
}

