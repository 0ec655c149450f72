import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query'
import { api } from '../api'

/**
 * Who is calling (`GET /api/auth/me`): the account, role and permissions the
 * interface is drawn for. One query, so every screen asks the same thing.
 */
export const authKeys = {
  me: () => ['auth', 'me'] as const,
}

export const authQueries = {
  me: () => queryOptions({ queryKey: authKeys.me(), queryFn: () => api().auth.me(), staleTime: 60_000 }),
}

/** What the API's permission table grants (packages/api-server/src/auth/permissions.ts). */
export type Permission =
  | 'library:read'
  | 'library:write'
  | 'connectors:read'
  | 'connectors:push'
  | 'connectors:admin'
  | 'sources:read'
  | 'sources:search'
  | 'sources:admin'
  | 'users:admin'
  | 'audit:read'
  | 'settings:admin'
  | 'backup:read'

/** Whether the permissions `me` lists hold `permission`; nothing is granted before `me` is known. */
export function can(permissions: readonly string[] | undefined, permission: Permission): boolean {
  return !!permissions?.includes(permission)
}

/**
 * Whether the caller may do `permission`. Every control the caller cannot use
 * is left out of the page (not shown disabled) through this one check.
 */
export function useCan(permission: Permission): boolean {
  const me = useQuery(authQueries.me())
  return can(me.data?.permissions, permission)
}

/** After signing in or out, or a change of one's own account: who is calling, read again. */
export function meChanged(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: authKeys.me() })
}
