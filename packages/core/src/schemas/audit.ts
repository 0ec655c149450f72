import * as z from 'zod'
import { Actor, ActorKind, Channel } from './account'
import { PageQuery, Timestamp } from './common'

/**
 * One entry of the audit trail: who did what, to which record, how, and why
 * (the comment sent with the write). Entries are append-only; each carries
 * the hash of the one before it, so a changed, removed or inserted entry
 * breaks the chain (`GET /api/audit/verify`).
 */
export const AuditEntry = z
  .object({
    seq: z.int().meta({ description: 'Position in the trail; newest is highest' }),
    at: Timestamp,
    actor: Actor,
    channel: Channel,
    requestId: z.string().nullable(),
    action: z.string().meta({ description: 'What happened: the operation id of a write (`patchComponent`, `createToken`, `pushConnector`), or `auth.login`, `auth.login-failed`, `auth.refused`, `audit.prune`', example: 'patchComponent' }),
    target: z.object({ type: z.string(), id: z.string() }).nullable().meta({ description: 'The record acted on, when there is one' }),
    comment: z.string().nullable().meta({ description: 'The `Complib-Comment` sent with the write' }),
    details: z.record(z.string(), z.unknown()).nullable().meta({ description: 'What else the action records (never a secret)' }),
    prevHash: z.string().meta({ description: 'SHA-256 (hex) of the entry before; 64 zeros for the first ever' }),
    hash: z.string().meta({ description: 'SHA-256 (hex) over prevHash and this entry' }),
  })
  .meta({ id: 'AuditEntry' })
export type AuditEntry = z.infer<typeof AuditEntry>

/** Query of `GET /api/audit`: newest first. */
export const AuditQuery = PageQuery.extend({
  actor: z.string().trim().min(1).max(200).optional().meta({ description: 'A user name, or a user or token id' }),
  actorKind: ActorKind.optional(),
  action: z.string().trim().min(1).max(100).optional().meta({ description: 'An action, or a prefix ending in `.` (`auth.`)' }),
  targetId: z.string().trim().min(1).max(100).optional().meta({ description: 'The id of the record acted on' }),
  since: Timestamp.optional(),
  until: Timestamp.optional(),
})
export type AuditQuery = z.output<typeof AuditQuery>

/** `GET /api/audit/verify`. */
export const AuditVerification = z
  .object({
    intact: z.boolean(),
    checked: z.int().meta({ description: 'How many entries were checked' }),
    firstSeq: z.int().nullable().meta({ description: 'The oldest entry kept (older ones were pruned, which is itself an entry)' }),
    brokenAt: z.int().nullable().meta({ description: 'The first entry whose hash does not follow; null when intact' }),
  })
  .meta({ id: 'AuditVerification' })
export type AuditVerification = z.infer<typeof AuditVerification>

/** Body of `POST /api/audit/prune` (admins): entries older than `before` go, and the pruning is an entry. */
export const AuditPrune = z.strictObject({ before: Timestamp }).meta({ id: 'AuditPrune' })
