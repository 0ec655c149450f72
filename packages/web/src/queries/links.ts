import { queryOptions } from '@tanstack/react-query'
import { api } from '../api'

/** What a component links to: symbols and footprints. */
export type LinkKind = 'symbols' | 'footprints'

export const linkKeys = {
  pick: (kind: LinkKind, q: string) => [kind, 'pick', q] as const,
}

export const linkQueries = {
  /** The first matches of a name, to link one. */
  pick: (kind: LinkKind, q: string) =>
    queryOptions({ queryKey: linkKeys.pick(kind, q), queryFn: () => api()[kind].list({ limit: 20, ...(q.trim() ? { q: q.trim() } : {}) }), staleTime: 30_000 }),
}
