import * as z from 'zod'
import { idSchema } from '../ids'
import { Component, ComponentCreate, ComponentPatch } from './component'

/** Most items one bulk request takes. */
export const BULK_MAX_ITEMS = 1000
/**
 * Most parameters, tags, MPNs, symbols and footprints one bulk create or patch
 * carries in all: with the items, they bound the work of the request's one
 * transaction, during which other writes and reads wait (decision 1102).
 */
export const BULK_MAX_CHILDREN = 20_000
/** Largest body of a bulk create or patch, in bytes: parsing and validating it is one uninterrupted step. */
export const BULK_BODY_LIMIT = 2 * 1024 * 1024

type _Children = { parameters?: unknown[] | undefined; tags?: unknown[] | undefined; mpns?: unknown[] | undefined; symbols?: unknown[] | undefined; footprints?: unknown[] | undefined }

/** A 400 naming `items` when the items carry more than BULK_MAX_CHILDREN children in all. */
function _childBudget<T>(childrenOf: (item: T) => _Children | undefined) {
  return (items: T[], ctx: z.core.$RefinementCtx<T[]>) => {
    let total = 0
    for (const item of items) {
      const c = childrenOf(item)
      if (c) total += (c.parameters?.length ?? 0) + (c.tags?.length ?? 0) + (c.mpns?.length ?? 0) + (c.symbols?.length ?? 0) + (c.footprints?.length ?? 0)
    }
    if (total > BULK_MAX_CHILDREN) {
      ctx.addIssue({ code: 'custom', message: `the items carry ${total} parameters, tags, MPNs, symbols and footprints in all; a request takes at most ${BULK_MAX_CHILDREN}` })
    }
  }
}

const Ids = z.array(idSchema('component')).min(1).max(BULK_MAX_ITEMS)

/** Body of `POST /api/bulk/components`. */
export const BulkCreate = z
  .strictObject({
    items: z
      .array(ComponentCreate)
      .min(1)
      .max(BULK_MAX_ITEMS)
      .superRefine(_childBudget((item) => item)),
    dryRun: z.boolean().default(false),
  })
  .meta({ id: 'BulkCreate' })
export type BulkCreate = z.input<typeof BulkCreate>

/** Body of `PATCH /api/bulk/components`: each item `{ id, patch, ifVersion? }`. */
export const BulkPatch = z
  .strictObject({
    items: z
      .array(z.strictObject({ id: idSchema('component'), patch: ComponentPatch, ifVersion: z.int().min(1).optional() }))
      .min(1)
      .max(BULK_MAX_ITEMS)
      .superRefine(_childBudget((item) => item.patch)),
    dryRun: z.boolean().default(false),
  })
  .meta({ id: 'BulkPatch' })
export type BulkPatch = z.input<typeof BulkPatch>

/** Body of `POST /api/bulk/components/delete`. */
export const BulkIds = z.strictObject({ ids: Ids, dryRun: z.boolean().default(false) }).meta({ id: 'BulkIds' })
export type BulkIds = z.input<typeof BulkIds>

/**
 * Body of `POST /api/bulk/components/restore`. The same shape as BulkIds, kept
 * without an id: the published document has always inlined it.
 */
export const BulkRestore = z.strictObject({ ids: Ids, dryRun: z.boolean().default(false) })
export type BulkRestore = z.input<typeof BulkRestore>

/** What a bulk request did (or, for a dry run, would do). */
export const BulkResult = z
  .object({
    jobId: z.string().nullable().meta({ description: 'The recorded job; null for a dry run' }),
    dryRun: z.boolean(),
    count: z.int(),
    items: z.array(Component).optional(),
  })
  .meta({ id: 'BulkResult' })
export type BulkResult = z.infer<typeof BulkResult>

/** A recorded bulk operation (`GET /api/jobs/:id`). */
export const Job = z
  .object({
    id: z.string(),
    kind: z.string().meta({ example: 'bulk-patch' }),
    status: z.string().meta({ example: 'succeeded' }),
    data: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.int(),
  })
  .meta({ id: 'Job' })
export type Job = z.infer<typeof Job>
