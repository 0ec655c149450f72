import * as z from 'zod'
import { idSchema } from '../ids'
import { Actor } from './account'
import { PageQuery, Timestamp } from './common'

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const
export const RunStatus = z.enum(RUN_STATUSES).meta({ id: 'RunStatus' })
export type RunStatus = z.infer<typeof RunStatus>

export const BatchStatus = z.enum(['pending', 'sending', 'succeeded', 'failed']).meta({ id: 'BatchStatus' })
export type BatchStatus = z.infer<typeof BatchStatus>

/** One HTTP attempt of a batch. `status` is null when no answer came (timeout, reset). */
export const DeliveryAttempt = z
  .object({
    at: Timestamp,
    status: z.int().nullable(),
    durationMs: z.number(),
    error: z.string().nullable(),
    retryAfter: z.int().min(0).optional().meta({ description: "The receiver's Retry-After, in seconds, when it sent one" }),
  })
  .meta({ id: 'DeliveryAttempt' })
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>

/** One batch of a run: at most 250 component ids, one `webhook-id` for all its attempts. */
export const RunBatch = z
  .object({
    index: z.int().min(0),
    webhookId: z.string().meta({ example: 'msg_01JD7W3T9X4QF5B8S2M6K0N1PZ' }),
    size: z.int().min(1).max(250),
    status: BatchStatus,
    entitiesSent: z.int().min(0).meta({ description: 'Entities the receiver acknowledged (what the connector code sent, which may leave some out); 0 until the batch succeeds' }),
    entitiesSkipped: z.int().min(0).meta({ description: 'Frozen components deleted or purged before the batch read them: not sent' }),
    attempts: z.array(DeliveryAttempt),
    lastStatus: z.int().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'RunBatch' })
export type RunBatch = z.infer<typeof RunBatch>

/** A push run of a connector. */
export const Run = z
  .object({
    id: idSchema('run'),
    connectorId: idSchema('connector'),
    trigger: z.enum(['manual', 'cron', 'test']),
    startedBy: Actor.nullable().meta({ description: 'Who started the run (`system`/`cron` for a scheduled one); null for runs from before accounts were recorded' }),
    status: RunStatus,
    total: z.int().meta({ description: 'Components live at the start of the run. Its batches are planned as it goes: a component purged before the run reached it leaves the total, which is exact once every batch is planned' }),
    batchesTotal: z.int().meta({ description: 'Batches of the run: from the live count at its start until every batch is planned, then exact' }),
    batchesSucceeded: z.int(),
    batchesFailed: z.int(),
    entitiesSent: z.int().meta({ description: 'Entities acknowledged by the receiver, summed over the succeeded batches' }),
    entitiesSkipped: z.int().meta({ description: 'Frozen components deleted or purged during the run, before their batch read them: not sent' }),
    error: z.string().nullable(),
    createdAt: Timestamp,
    startedAt: Timestamp.nullable(),
    finishedAt: Timestamp.nullable(),
    resumedAt: Timestamp.nullable(),
    logs: z.array(z.string()),
  })
  .meta({ id: 'Run' })
export type Run = z.infer<typeof Run>

/**
 * Batches a run's details carry: a push of a million parts has 4,000 of them,
 * which made one answer of a megabyte; the rest are paged by
 * `GET /api/connector-runs/{runId}/batches` (decision 0319).
 */
export const RUN_DETAIL_BATCHES = 100

/** A run with its first batches (`GET /api/connector-runs/:runId`). */
export const RunDetail = Run.extend({
  batches: z.array(RunBatch).meta({ description: `The first ${RUN_DETAIL_BATCHES} batches by index; \`batchesNextCursor\` continues at GET /api/connector-runs/{runId}/batches` }),
  batchesNextCursor: z
    .string()
    .nullable()
    .optional()
    .meta({ description: 'The `cursor` of GET /api/connector-runs/{runId}/batches for the batches after these; null when these are all of them' }),
}).meta({ id: 'RunDetail' })
export type RunDetail = z.infer<typeof RunDetail>

/** Query of `GET /api/connector-runs/{runId}/batches`: a page of batches by index, `status` to keep some (`failed,pending`). */
export const RunBatchesQuery = PageQuery.extend({
  status: z
    .string()
    .transform((s) => [...new Set(s.split(',').map((v) => v.trim()).filter(Boolean))])
    .pipe(z.array(BatchStatus).min(1))
    .optional()
    .meta({ description: 'Comma-separated batch statuses to keep (pending, sending, succeeded, failed)' }),
})
export type RunBatchesQuery = z.output<typeof RunBatchesQuery>
