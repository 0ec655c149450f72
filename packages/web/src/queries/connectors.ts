import type { Connector, Run } from '@complib/client-sdk'
import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { api } from '../api'

/** Keys of connectors and their runs; the list, a connector, its code and its runs are refreshed apart. */
export const connectorKeys = {
  all: () => ['connectors'] as const,
  list: () => [...connectorKeys.all(), 'list'] as const,
  detail: (id: string | undefined) => [...connectorKeys.all(), 'detail', id] as const,
  code: (id: string) => [...connectorKeys.all(), 'code', id] as const,
  runs: (connectorId: string) => [...connectorKeys.all(), 'runs', connectorId] as const,
  run: (runId: string, status: string) => [...connectorKeys.all(), 'run', runId, status] as const,
}

export const connectorQueries = {
  list: () => queryOptions({ queryKey: connectorKeys.list(), queryFn: () => api().connectors.list({ limit: 1000 }) }),
  /** Undefined id: a new connector, nothing read. */
  detail: (id: string | undefined) => queryOptions({ queryKey: connectorKeys.detail(id), queryFn: () => api().connectors.get(id!), enabled: id !== undefined }),
  code: (id: string) => queryOptions({ queryKey: connectorKeys.code(id), queryFn: () => api().connectors.getCode(id) }),
  /** While a run is queued or running, the list follows it (a resumed run, or one started elsewhere) until it ends. */
  runs: (connectorId: string) =>
    queryOptions({
      queryKey: connectorKeys.runs(connectorId),
      queryFn: () => api().runs.list(connectorId, { limit: 20 }),
      refetchInterval: (q) => (q.state.data?.items.some(isRunActive) ? 1000 : false),
    }),
  /** Keyed by the status the list shows: a run that moved on is read again. */
  run: (runId: string, status: string, enabled: boolean) => queryOptions({ queryKey: connectorKeys.run(runId, status), queryFn: () => api().runs.get(runId), enabled }),
}

export function isRunActive(run: Run): boolean {
  return run.status === 'queued' || run.status === 'running'
}

/** After a connector's settings are saved: its record as the server answered, and the list. */
export function connectorSaved(queryClient: QueryClient, c: Connector): Promise<void> {
  setConnector(queryClient, c)
  return queryClient.invalidateQueries({ queryKey: connectorKeys.list() })
}

/** A connector as the server answered (a rotated secret changes only the record). */
export function setConnector(queryClient: QueryClient, c: Connector): void {
  queryClient.setQueryData(connectorKeys.detail(c.id), c)
}

/** After the code is saved: the code, and the connector, which has a new version. */
export function connectorCodeChanged(queryClient: QueryClient, id: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: connectorKeys.detail(id) }).then(() => queryClient.invalidateQueries({ queryKey: connectorKeys.code(id) }))
}

/** After a run was started, cancelled or resumed, or ended. */
export function invalidateRuns(queryClient: QueryClient, connectorId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: connectorKeys.runs(connectorId) })
}
