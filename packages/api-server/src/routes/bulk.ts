import { BULK_BODY_LIMIT, BulkCreate, BulkIds, BulkPatch, BulkRestore, BulkResult, ComplibError, Job, createYielder, idSchema, isComplibError, type Component, type StorageSession } from '@complib/core'
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

/**
 * Runs `fn` on every item in order, giving other requests a turn now and then
 * (createYielder): the transaction holds the storage for the whole loop, but
 * requests that need none (health checks) are answered meanwhile.
 */
async function eachItem<I, T>(items: readonly I[], prefix: string, fn: (item: I) => Promise<T>): Promise<T[]> {
  const out: T[] = []
  const yieldTurn = createYielder()
  for (const [i, item] of items.entries()) {
    await yieldTurn()
    out.push(await atItem(i, prefix, () => fn(item)))
  }
  return out
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
    permission: 'library:write',
    summary: 'Create many components at once, atomically',
    body: BulkCreate,
    bodyLimit: BULK_BODY_LIMIT,
    errors: ['CONFLICT'],
    responses: { 200: { description: 'All created (or, for a dry run, all would be)', schema: BulkResult } },
    handler: ({ body, services }) =>
      runBulk(services.storage, 'bulk-create', body.dryRun, (tx) => eachItem(body.items, 'items', (item) => tx.components.create(item))),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/bulk/components',
    group: 'bulk',
    operationId: 'bulkPatchComponents',
    permission: 'library:write',
    summary: 'Change many components at once, atomically',
    description: 'Each item is `{ id, patch, ifVersion? }`. One failure (unknown id, conflict, stale version) fails the whole request and changes nothing.',
    body: BulkPatch,
    bodyLimit: BULK_BODY_LIMIT,
    errors: ['CONFLICT', 'INVALID_TRANSITION', 'PRECONDITION_FAILED', 'NOT_FOUND'],
    responses: { 200: { description: 'All changed (or would be)', schema: BulkResult } },
    handler: ({ body, services }) =>
      runBulk(services.storage, 'bulk-patch', body.dryRun, (tx) => eachItem(body.items, 'items', (item) => tx.components.update(item.id, item.patch, { ifVersion: item.ifVersion }))),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/bulk/components/delete',
    group: 'bulk',
    operationId: 'bulkDeleteComponents',
    permission: 'library:write',
    summary: 'Delete many components at once (soft), atomically',
    body: BulkIds,
    errors: ['NOT_FOUND'],
    responses: { 200: { description: 'All deleted (or would be)', schema: BulkResult } },
    handler: ({ body, services }) =>
      runBulk(services.storage, 'bulk-delete', body.dryRun, async (tx) => (await eachItem(body.ids, 'ids', (id) => tx.components.delete(id))).length),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/bulk/components/restore',
    group: 'bulk',
    operationId: 'bulkRestoreComponents',
    permission: 'library:write',
    summary: 'Restore many deleted components at once, atomically',
    body: BulkRestore,
    errors: ['NOT_FOUND', 'CONFLICT'],
    responses: { 200: { description: 'All restored (or would be)', schema: BulkResult } },
    handler: ({ body, services }) =>
      runBulk(services.storage, 'bulk-restore', body.dryRun, async (tx) => (await eachItem(body.ids, 'ids', (id) => tx.components.restore(id))).length),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/jobs/{id}',
    group: 'bulk',
    operationId: 'getJob',
    permission: 'library:read',
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
    permission: 'library:write',
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
