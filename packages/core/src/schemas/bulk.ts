import * as z from 'zod'
import { idSchema } from '../ids'
import { Component, ComponentCreate, ComponentPatch } from './component'

/** Most items one bulk request takes. */
export const BULK_MAX_ITEMS = 1000

const Ids = z.array(idSchema('component')).min(1).max(BULK_MAX_ITEMS)

/** Body of `POST /api/bulk/components`. */
export const BulkCreate = z
  .strictObject({ items: z.array(ComponentCreate).min(1).max(BULK_MAX_ITEMS), dryRun: z.boolean().default(false) })
  .meta({ id: 'BulkCreate' })
export type BulkCreate = z.input<typeof BulkCreate>

/** Body of `PATCH /api/bulk/components`: each item `{ id, patch, ifVersion? }`. */
export const BulkPatch = z
  .strictObject({
    items: z.array(z.strictObject({ id: idSchema('component'), patch: ComponentPatch, ifVersion: z.int().min(1).optional() })).min(1).max(BULK_MAX_ITEMS),
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
