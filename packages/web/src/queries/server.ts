import { queryOptions } from '@tanstack/react-query'
import { api } from '../api'

interface KicadCategory {
  id: string
  name: string
  description?: string
}

export const serverKeys = {
  health: () => ['health'] as const,
  kicadCategories: () => ['kicad', 'categories'] as const,
}

export const serverQueries = {
  health: () => queryOptions({ queryKey: serverKeys.health(), queryFn: () => api().health() }),
  /** The categories KiCad's HTTP library lists (its sub-libraries). */
  kicadCategories: () => queryOptions({ queryKey: serverKeys.kicadCategories(), queryFn: () => api().request<KicadCategory[]>('/kicad/v1/categories.json') }),
}
