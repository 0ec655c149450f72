import { BulkCreate, BulkIds, BulkPatch, BulkRestore, BulkResult, ComplibError, Job, idSchema, isComplibError, type Component, type StorageSession } from '@complib/core'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'
import { noContent } from '../routing/reply'

/**
 * Runs a bulk operation atomically: every item or none. A dry run does all of
 * it inside the transaction and then rolls back, so it reports exactly what
 * would happen (including conflicts) and changes nothing. A real run records
 * a job in the same transaction.
 */
async function runBulk(
  storage: { transaction<T>(fn: (tx: StorageSession) => Promise<T>): Promise<T> },
  kind: string,
  dryRun: boolean,
  work: (tx: StorageSession) => Promise<Component[] | number>,
) {
  try {
    return await storage.transaction(async (tx) => {
      const out = await work(tx)
      const count = typeof out === 'number' ? out : out.length
      const items = typeof out === 'number' ? undefined : out
      if (dryRun) throw new _DryRun({ jobId: null, dryRun: true, count, items })
      const job = await tx.jobs.create({ kind, status: 'succeeded', data: { count, finishedAt: new Date().toISOString() } })
      return { jobId: job.id, dryRun: false, count, items }
    })
  } catch (error) {
    if (error instanceof _DryRun) return error.result
    throw error
  }
}

/** Names the failing item: `body.items[3].ipn`, `items[3]: ipn … is already used`. */
function atItem<T>(index: number, prefix: string, fn: () => Promise<T>): Promise<T> {
  return fn().catch((error: unknown) => {
    if (!isComplibError(error)) throw error
    const at = `body.${prefix}[${index}]`
    const errors = error.errors?.length ? error.errors.map((e) => ({ path: e.path.replace(/^body/, at), message: e.message })) : [{ path: at, message: error.detail }]
    throw new ComplibError(error.code, `${prefix}[${index}]: ${error.detail}`, { errors, cause: error })
  })
}

export const bulkRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/bulk/components',
    group: 'bulk',
    operationId: 'bulkCreateComponents',
    summary: 'Create many components at once, atomically',
    body: BulkCreate,
    bodyLimit: 16 * 1024 * 1024,
    errors: ['CONFLICT'],
    responses: { 200: { description: 'All created (or, for a dry run, all would be)', schema: BulkResult } },
    handler: ({ body, services }) =>
      runBulk(services.storage, 'bulk-create', body.dryRun, async (tx) => {
        const out: Component[] = []
        for (const [i, item] of body.items.entries()) out.push(await atItem(i, 'items', () => tx.components.create(item)))
        return out
      }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/bulk/components',
    group: 'bulk',
    operationId: 'bulkPatchComponents',
    summary: 'Change many components at once, atomically',
    description: 'Each item is `{ id, patch, ifVersion? }`. One failure (unknown id, conflict, stale version) fails the whole request and changes nothing.',
    body: BulkPatch,
    bodyLimit: 16 * 1024 * 1024,
    errors: ['CONFLICT', 'INVALID_TRANSITION', 'PRECONDITION_FAILED', 'NOT_FOUND'],
    responses: { 200: { description: 'All changed (or would be)', schema: BulkResult } },
    handler: ({ body, services }) =>
      runBulk(services.storage, 'bulk-patch', body.dryRun, async (tx) => {
        const out: Component[] = []
        for (const [i, item] of body.items.entries()) {
          out.push(await atItem(i, 'items', () => tx.components.update(item.id, item.patch, { ifVersion: item.ifVersion })))
        }
        return out
      }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/bulk/components/delete',
    group: 'bulk',
    operationId: 'bulkDeleteComponents',
    summary: 'Delete many components at once (soft), atomically',
    body: BulkIds,
    errors: ['NOT_FOUND'],
    responses: { 200: { description: 'All deleted (or would be)', schema: BulkResult } },
    handler: ({ body, services }) =>
      runBulk(services.storage, 'bulk-delete', body.dryRun, async (tx) => {
        for (const [i, id] of body.ids.entries()) await atItem(i, 'ids', () => tx.components.delete(id))
        return body.ids.length
      }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/bulk/components/restore',
    group: 'bulk',
    operationId: 'bulkRestoreComponents',
    summary: 'Restore many deleted components at once, atomically',
    body: BulkRestore,
    errors: ['NOT_FOUND', 'CONFLICT'],
    responses: { 200: { description: 'All restored (or would be)', schema: BulkResult } },
    handler: ({ body, services }) =>
      runBulk(services.storage, 'bulk-restore', body.dryRun, async (tx) => {
        for (const [i, id] of body.ids.entries()) await atItem(i, 'ids', () => tx.components.restore(id))
        return body.ids.length
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/jobs/{id}',
    group: 'bulk',
    operationId: 'getJob',
    summary: 'A recorded bulk job',
    params: z.object({ id: idSchema('job') }),
    responses: { 200: { description: 'The job', schema: Job } },
    handler: ({ params, services }) => services.storage.jobs.get(params.id),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/jobs/{id}',
    group: 'bulk',
    operationId: 'deleteJob',
    summary: 'Forget a recorded job',
    params: z.object({ id: idSchema('job') }),
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services }) => {
      await services.storage.jobs.delete(params.id)
      return noContent()
    },
  }),
]

class _DryRun extends Error {
  constructor(readonly result: z.infer<typeof BulkResult>) {
    super('dry run: rolled back')
  }
}
