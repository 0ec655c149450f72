import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { api } from '../api'

/** Locations, and the stock they hold; a component's own stock sits apart, under `stock`. */
export const locationKeys = {
  all: () => ['locations'] as const,
  tree: () => [...locationKeys.all(), 'tree'] as const,
  options: () => [...locationKeys.all(), 'options'] as const,
  stockAt: (locationId: string) => [...locationKeys.all(), 'stock', locationId] as const,
}

export const stockKeys = {
  all: () => ['stock'] as const,
  forComponent: (componentId: string) => [...stockKeys.all(), componentId] as const,
}

export const locationQueries = {
  tree: () => queryOptions({ queryKey: locationKeys.tree(), queryFn: () => api().locations.tree() }),
  /** Every location, flat: the choices of a stock form. */
  options: () => queryOptions({ queryKey: locationKeys.options(), queryFn: () => api().locations.list({ limit: 1000 }) }),
  /** What one location holds: its components and the quantity of each here. */
  stockAt: (locationId: string) =>
    queryOptions({
      queryKey: locationKeys.stockAt(locationId),
      queryFn: async () => {
        const page = await api().components.list({ locationId, limit: 200 })
        const rows = await Promise.all(page.items.map(async (c) => ({ c, entry: (await api().stock.forComponent(c.id)).find((s) => s.locationId === locationId) })))
        return { total: page.total, rows }
      },
    }),
}

export const stockQueries = {
  forComponent: (componentId: string) => queryOptions({ queryKey: stockKeys.forComponent(componentId), queryFn: () => api().stock.forComponent(componentId) }),
}

/** After a location is added or removed: every view of locations. */
export function invalidateLocations(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: locationKeys.all() })
}

/** After a component's quantity at a location is set: its stock, and what the locations hold. */
export function stockChanged(queryClient: QueryClient, componentId: string): Promise<void> {
  return Promise.all([queryClient.invalidateQueries({ queryKey: stockKeys.forComponent(componentId) }), invalidateLocations(queryClient)]).then(() => undefined)
}
