import type { Component } from '@complib/client-sdk'
import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { api } from '../api'

/**
 * Keys of what is read about components. Every list of components (the
 * library's pages, the suggestions, the bulk edit's selection) sits under
 * `lists()`, so a change of one component refreshes them all with one prefix;
 * a component's own record and its history sit apart, refreshed by name
 * (decision 1410).
 */
export const componentKeys = {
  all: () => ['components'] as const,
  lists: () => [...componentKeys.all(), 'list'] as const,
  library: (params: object) => [...componentKeys.lists(), 'library', params] as const,
  suggest: (q: string) => [...componentKeys.lists(), 'suggest', q] as const,
  selection: (ids: readonly string[]) => [...componentKeys.lists(), 'selection', ids] as const,
  detail: (id: string | undefined) => [...componentKeys.all(), 'detail', id] as const,
  history: (id: string) => [...componentKeys.all(), 'history', id] as const,
  historyAt: (id: string, version: number) => [...componentKeys.history(id), version] as const,
}

/** Ids per request when the bulk edit reads its rows: a response of a few megabytes. */
const SELECTION_CHUNK = 2000

export const componentQueries = {
  /** One component, deleted or not (a deleted one is shown with Restore). Undefined id: a new component, nothing read. */
  detail: (id: string | undefined) =>
    queryOptions({ queryKey: componentKeys.detail(id), queryFn: () => api().components.get(id!, { includeDeleted: true }), enabled: id !== undefined }),
  /** Keyed by the version shown: a new version reads the history again. */
  history: (id: string, version: number) => queryOptions({ queryKey: componentKeys.historyAt(id, version), queryFn: () => api().components.history(id, { limit: 100 }) }),
  suggest: (q: string) =>
    queryOptions({
      queryKey: componentKeys.suggest(q),
      // Reading the signal lets TanStack cancel a request the typing has moved past (the client takes none to abort with).
      queryFn: ({ signal }) => (void signal, api().suggest('components', q, { limit: 8 })),
      enabled: q.length > 0,
      staleTime: 30_000,
      placeholderData: (previous) => previous,
    }),
  /**
   * The rows chosen for a bulk edit, read whole: their versions go with the
   * edit as If-Match. Read by id in a few requests (`POST /api/exports/components`),
   * not one per row: "select all matching" can choose tens of thousands (decision 1413).
   */
  selection: (ids: readonly string[]) =>
    queryOptions({
      queryKey: componentKeys.selection(ids),
      queryFn: async () => {
        const chunks: string[][] = []
        for (let i = 0; i < ids.length; i += SELECTION_CHUNK) chunks.push(ids.slice(i, i + SELECTION_CHUNK))
        return (await Promise.all(chunks.map((chunk) => api().exports.componentsById(chunk)))).flat()
      },
      enabled: ids.length > 0,
    }),
}

/** After a save, delete or restore of one component: its record as the server answered, and what lists or follows it. */
export function componentSaved(queryClient: QueryClient, c: Component): Promise<void> {
  queryClient.setQueryData(componentKeys.detail(c.id), c)
  return _all([queryClient.invalidateQueries({ queryKey: componentKeys.lists() }), queryClient.invalidateQueries({ queryKey: componentKeys.history(c.id) })])
}

/** After a component is added (a duplicate): the lists that may show it. */
export function invalidateComponentLists(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: componentKeys.lists() })
}

/** After a change of one component made beside its form (a file added or removed makes a new version). */
export function invalidateComponent(queryClient: QueryClient, id: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: componentKeys.detail(id) })
}

/** After a change of many components at once (a bulk edit, an import): everything read about components. */
export function invalidateComponents(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: componentKeys.all() })
}

function _all(promises: Array<Promise<void>>): Promise<void> {
  return Promise.all(promises).then(() => undefined)
}
