import type { AuditEntry, AuditPrune, AuditQuery, AuditVerification, Page } from '@complib/core'
import type * as z from 'zod'
import { iteratePages, readPage } from '../_internal/paging'
import type { Transport } from '../_internal/transport'
import type { IterateQueryOf, QueryOf } from '../_internal/types'

/** What `client.audit.prune` answers: how many entries went, and the entry that records the pruning. */
export interface AuditPruneResult {
  removed: number
  entry: AuditEntry
}

/**
 * `client.audit`: the audit trail, newest first: who changed what, how, and
 * the comment they gave (see `client.withComment`); sign-ins and refusals too.
 *
 * @example
 * for await (const e of client.audit.iterate({ targetId: c.id })) console.log(e.at, e.actor.name, e.action, e.comment)
 */
export function createAuditResource(t: Transport) {
  return {
    /** One page; filter by `actor`, `actorKind`, `action` (or a prefix ending in `.`), `targetId`, `since`, `until`. */
    list: (query: QueryOf<typeof AuditQuery> = {}): Promise<Page<AuditEntry>> => readPage(t, '/audit', query),
    iterate: (query: IterateQueryOf<typeof AuditQuery> = {}): AsyncGenerator<AuditEntry, void, undefined> => iteratePages(t, '/audit', query),
    /** Walks the hash chain: `intact: false` with `brokenAt` when an entry was changed, removed or inserted. */
    verify: (): Promise<AuditVerification> => t.call('GET', '/audit/verify'),
    /** Removes entries older than `before` (admins); the pruning is itself an entry. */
    prune: (body: z.input<typeof AuditPrune>): Promise<AuditPruneResult> => t.call('POST', '/audit/prune', { body }),
  }
}

export type AuditResource = ReturnType<typeof createAuditResource>
