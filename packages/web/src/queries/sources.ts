import type { ComplibClient } from '@complib/client-sdk'
import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { api } from '../api'

// The SDK names these records only through its methods: their types are read off them.
type Sources = ComplibClient['sources']
/** A configured source as the API shows it: its secrets as hints only. */
export type SourceView = Awaited<ReturnType<Sources['get']>>
/** A type of source this server can use (`GET /api/sources/types`), with its config's JSON Schema. */
export type SourceType = Awaited<ReturnType<Sources['types']>>[number]
export type SourceCandidate = Awaited<ReturnType<Sources['search']>>['candidates'][number]
export type SourcePart = Awaited<ReturnType<Sources['part']>>['part']
export type SourceLifecycle = SourcePart['lifecycle']

/**
 * Keys of what is read about sources. The types sit apart: they are the
 * server's, fixed while it runs. The list, searches and parts sit under
 * `all()`, refreshed together when a source changes: a new key or host
 * answers a search differently.
 */
export const sourceKeys = {
  types: () => ['source-types'] as const,
  all: () => ['sources'] as const,
  list: () => [...sourceKeys.all(), 'list'] as const,
  search: (sourceId: string, q: string) => [...sourceKeys.all(), 'search', sourceId, q] as const,
  part: (sourceId: string, ref: string) => [...sourceKeys.all(), 'part', sourceId, ref] as const,
}

export const sourceQueries = {
  types: () => queryOptions({ queryKey: sourceKeys.types(), queryFn: () => api().sources.types(), staleTime: Infinity }),
  /** Every configured source (a server has a handful). */
  list: () => queryOptions({ queryKey: sourceKeys.list(), queryFn: async () => (await api().sources.list({ limit: 200 })).items }),
  /**
   * Candidates for an MPN or keywords. Asked on Search, not as one types, and
   * not retried: each call spends the provider's quota, and a refused key
   * fails the same way twice.
   */
  search: (sourceId: string, q: string) =>
    queryOptions({ queryKey: sourceKeys.search(sourceId, q), queryFn: () => api().sources.search(sourceId, q, { limit: 20 }), enabled: !!sourceId && !!q, retry: false, staleTime: 5 * 60_000 }),
  /** One part, whole, as the source gives it (not retried, as search). */
  part: (sourceId: string, ref: string | undefined) =>
    queryOptions({ queryKey: sourceKeys.part(sourceId, ref ?? ''), queryFn: async () => (await api().sources.part(sourceId, ref!)).part, enabled: !!sourceId && !!ref, retry: false, staleTime: 5 * 60_000 }),
}

/** After a source is created, changed or deleted: the list, and what its searches and parts answered. */
export function sourcesChanged(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: sourceKeys.all() })
}
