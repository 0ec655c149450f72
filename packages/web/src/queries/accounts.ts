import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { api } from '../api'

/** Keys of what is read about accounts and their API tokens (decision 1410). */
export const accountKeys = {
  users: () => ['users'] as const,
  tokens: () => ['tokens'] as const,
  tokenList: (all: boolean) => [...accountKeys.tokens(), { all }] as const,
}

export const accountQueries = {
  /** Every account (admins). */
  users: () => queryOptions({ queryKey: accountKeys.users(), queryFn: () => api().users.list({ limit: 200 }) }),
  /** The caller's tokens, or (admins, `all`) everyone's with their owners. */
  tokens: (all: boolean) => queryOptions({ queryKey: accountKeys.tokenList(all), queryFn: () => api().tokens.list({ all, limit: 200 }) }),
}

/** After an account is created or changed: the list (a disabled account's tokens stop working, so they too). */
export function usersChanged(queryClient: QueryClient): Promise<void> {
  return Promise.all([queryClient.invalidateQueries({ queryKey: accountKeys.users() }), queryClient.invalidateQueries({ queryKey: accountKeys.tokens() })]).then(() => undefined)
}

/** After a token is created or revoked: both lists (mine, everyone's). */
export function tokensChanged(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: accountKeys.tokens() })
}
