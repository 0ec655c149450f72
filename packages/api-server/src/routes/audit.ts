import { AuditEntry, AuditPrune, AuditQuery, AuditVerification } from '@complib/core'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'
import { PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { withHeaders } from '../routing/reply'

export const auditRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/audit',
    group: 'audit',
    operationId: 'listAudit',
    permission: 'audit:read',
    summary: 'The audit trail, newest first',
    description: 'Changes with who made them, how and why; sign-ins and failed ones; refusals; users, tokens, connectors, pushes, imports, backups.',
    query: AuditQuery,
    responses: { 200: { description: 'Entries', schema: z.array(AuditEntry), headers: PAGE_HEADERS } },
    handler: async ({ query, services, url }) => {
      const page = await services.storage.audit.list(query)
      return withHeaders(page.items, pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/audit/verify',
    group: 'audit',
    operationId: 'verifyAudit',
    permission: 'audit:read',
    summary: 'Check that no entry was changed, removed or inserted',
    description: 'Each entry carries the hash of the one before it; this walks the chain from the oldest entry kept.',
    responses: { 200: { description: 'Whether the chain is intact', schema: AuditVerification } },
    handler: ({ services }) => services.storage.audit.verify(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/audit/prune',
    group: 'audit',
    operationId: 'pruneAudit',
    permission: 'settings:admin',
    // The store writes the pruning's own entry, with what went.
    audit: false,
    summary: 'Remove entries older than a time (the pruning is itself an entry)',
    body: AuditPrune,
    responses: { 200: { description: 'How many went', schema: z.object({ removed: z.int(), entry: AuditEntry }) } },
    handler: ({ body, services, auth }) =>
      services.storage.audit.prune(body.before, {
        actor: auth.principal.actor,
        channel: auth.channel,
        requestId: auth.requestId,
        comment: auth.comment,
        action: 'audit.prune',
        target: null,
        details: null,
      }),
  }),
]
