import { queryOptions } from '@tanstack/react-query'
import { api } from '../api'
import { componentKeys } from './components'

/** How many components the KiCad screen reads to find the ones without a symbol: one request, bounded (decision 1417). */
export const SYMBOL_CHECK_LIMIT = 5000

export interface WithoutSymbol {
  /** Components KiCad lists (live, with a category) that have no symbol, among those read. */
  parts: Array<{ id: string; ipn: string; name: string; category: string }>
  /** Components read; `total` when every one was. */
  checked: number
  total: number
}

export const kicadQueries = {
  /**
   * The parts KiCad lists but cannot place: a category and no symbol. Under
   * the component lists' prefix, so a save that links a symbol refreshes it.
   */
  withoutSymbol: () =>
    queryOptions({
      queryKey: [...componentKeys.lists(), 'kicad-without-symbol'] as const,
      queryFn: async (): Promise<WithoutSymbol> => {
        const page = await api().components.list({ limit: SYMBOL_CHECK_LIMIT, sort: 'ipn' })
        const parts = page.items.filter((c) => c.category && c.symbols.length === 0).map((c) => ({ id: c.id, ipn: c.ipn, name: c.name, category: c.category! }))
        return { parts, checked: page.items.length, total: page.total }
      },
    }),
}
