import type { BulkCreate, BulkIds, BulkPatch, BulkRestore, BulkResult, Job } from '@complib/core'
import { path, type Transport } from '../_internal/transport'

/**
 * `client.bulk`: up to 1,000 components in one request, atomically (every
 * item or none), with `dryRun` to see what would happen. `client.jobs` reads
 * the job a real run recorded.
 */
export function createBulkResource(t: Transport) {
  // A dry run changes nothing, so only a dry run is safe to send twice.
  const dry = (body: { dryRun?: boolean | undefined }) => body.dryRun === true
  return {
    create: (body: BulkCreate): Promise<BulkResult> => t.call('POST', '/bulk/components', { body, idempotent: dry(body) }),
    patch: (body: BulkPatch): Promise<BulkResult> => t.call('PATCH', '/bulk/components', { body }),
    delete: (body: BulkIds): Promise<BulkResult> => t.call('POST', '/bulk/components/delete', { body, idempotent: dry(body) }),
    restore: (body: BulkRestore): Promise<BulkResult> => t.call('POST', '/bulk/components/restore', { body, idempotent: dry(body) }),
  }
}

export function createJobsResource(t: Transport) {
  return {
    get: (id: string): Promise<Job> => t.call('GET', path`/jobs/${id}`),
    delete: (id: string): Promise<void> => t.call('DELETE', path`/jobs/${id}`),
  }
}

export type BulkResource = ReturnType<typeof createBulkResource>
export type JobsResource = ReturnType<typeof createJobsResource>
