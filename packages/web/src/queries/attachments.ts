import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { invalidateComponent } from './components'

export const attachmentKeys = {
  all: () => ['attachments'] as const,
  forComponent: (componentId: string) => [...attachmentKeys.all(), componentId] as const,
}

export const attachmentQueries = {
  forComponent: (componentId: string) => queryOptions({ queryKey: attachmentKeys.forComponent(componentId), queryFn: () => api().attachments.forComponent(componentId) }),
}

/** After a file is added to or removed from a component: its files, and the component, which has a new version. */
export function attachmentsChanged(queryClient: QueryClient, componentId: string): Promise<void> {
  return Promise.all([queryClient.invalidateQueries({ queryKey: attachmentKeys.forComponent(componentId) }), invalidateComponent(queryClient, componentId)]).then(() => undefined)
}
