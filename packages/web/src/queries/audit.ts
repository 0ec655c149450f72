import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api } from '../api'

/** What the audit screen filters by (empty: not filtered). `since` and `until` are ISO timestamps. */
export interface AuditFilters {
  actor: string
  action: string
  targetId: string
  since: string
  until: string
}

export const EMPTY_AUDIT_FILTERS: AuditFilters = { actor: '', action: '', targetId: '', since: '', until: '' }

export const auditKeys = {
  all: () => ['audit'] as const,
  page: (filters: AuditFilters, cursor: string | undefined, limit: number) => [...auditKeys.all(), 'page', filters, cursor ?? null, limit] as const,
}

export const auditQueries = {
  /** One page of the trail, newest first; the previous page stays shown while the next loads. */
  page: (filters: AuditFilters, cursor: string | undefined, limit = 50) =>
    queryOptions({
      queryKey: auditKeys.page(filters, cursor, limit),
      queryFn: () =>
        api().audit.list({
          limit,
          cursor,
          actor: filters.actor.trim() || undefined,
          action: filters.action.trim() || undefined,
          targetId: filters.targetId.trim() || undefined,
          since: filters.since || undefined,
          until: filters.until || undefined,
        }),
      placeholderData: keepPreviousData,
    }),
}
