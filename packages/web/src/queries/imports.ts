import { queryOptions } from '@tanstack/react-query'
import { api } from '../api'

export const importKeys = {
  rows: (sessionId: string | undefined, version: number | undefined) => ['imports', sessionId, 'rows', version] as const,
}

export const importQueries = {
  /** Every row's outcome as the server reads it, for the session's version (a new mapping is a new version). */
  rows: (session: { id: string; version: number } | undefined, limit: number) =>
    queryOptions({ queryKey: importKeys.rows(session?.id, session?.version), queryFn: () => api().imports.rows(session!.id, { limit }), enabled: session !== undefined }),
}
