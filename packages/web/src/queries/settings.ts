import { queryOptions, type QueryClient } from '@tanstack/react-query'
import type { Settings } from '@complib/client-sdk'
import { api } from '../api'

export const settingsKeys = {
  settings: () => ['settings'] as const,
}

export const settingsQueries = {
  /** The server's settings (admins). */
  settings: () => queryOptions({ queryKey: settingsKeys.settings(), queryFn: () => api().settings.get() }),
}

/** After a save: the settings as the server answered. */
export function settingsSaved(queryClient: QueryClient, settings: Settings): void {
  queryClient.setQueryData(settingsKeys.settings(), settings)
}
