import type { Component, ComponentStatus } from '@complib/client-sdk'
import { infiniteQueryOptions } from '@tanstack/react-query'
import { api } from '../api'
import { componentKeys } from './components'

export type SortKey = 'name' | 'ipn' | 'updatedAt' | 'id'
export type Sort = { key: SortKey; desc: boolean }

export interface ParamRange {
  type: string
  min: string
  max: string
}

export interface LibraryFilters {
  q: string
  status: ComponentStatus[]
  category: string
  tag: string
  manufacturer: string
  ranges: ParamRange[]
}

export const EMPTY_FILTERS: LibraryFilters = { q: '', status: [], category: '', tag: '', manufacturer: '', ranges: [] }

export interface LibraryPage {
  items: Component[]
  total: number
  nextCursor: string | null
}

/** Rows fetched per request while scrolling; a jump far down asks for more at once (up to MAX_PAGE). */
export const PAGE = 200
const MAX_PAGE = 5000

/**
 * The library's rows, page after page, sorted and filtered by the server
 * (`GET /api/components`). With parameter ranges, rows come from the
 * parametric search (`POST /api/search/parametric`, SI-aware: 10k..47k)
 * and the other filters are applied to each page it returns.
 */
export function libraryQuery(filters: LibraryFilters, sort: Sort, wanted: { current: number }) {
  const ranges = filters.ranges.filter((r) => r.type.trim() && (r.min.trim() || r.max.trim()))
  const { q, status, category, tag, manufacturer } = filters
  return infiniteQueryOptions({
    queryKey: componentKeys.library({ q, status, category, tag, manufacturer, ranges, sort }),
    initialPageParam: { limit: PAGE } as PageParam,
    // Read when the next page is fetched: a jump far down the scrollbar asks for the rows up to there at once.
    getNextPageParam: (last: LibraryPage, all: LibraryPage[]): PageParam | undefined => (last.nextCursor ? { cursor: last.nextCursor, limit: nextPageSize(all.reduce((n, p) => n + p.items.length, 0), wanted.current) } : undefined),
    placeholderData: (previous) => previous,
    queryFn: async ({ pageParam }): Promise<LibraryPage> => {
      if (ranges.length > 0) {
        const page = await api().searchParametric({
          conditions: ranges.map((r) => ({ type: r.type.trim(), ...(r.min.trim() ? { min: r.min.trim() } : {}), ...(r.max.trim() ? { max: r.max.trim() } : {}) })),
          limit: Math.min(pageParam.limit, 1000),
          ...(pageParam.cursor ? { cursor: pageParam.cursor } : {}),
        })
        // With other filters too, the total is known only once every page is in: -1 until then.
        const extra = filters.q.trim() || filters.status.length || filters.category.trim() || filters.tag.trim() || filters.manufacturer.trim()
        return { items: extra ? page.items.filter((c) => _matches(c, filters)) : page.items, total: extra ? -1 : page.total, nextCursor: page.nextCursor }
      }
      const page = await api().components.list({
        limit: pageParam.limit,
        ...(pageParam.cursor ? { cursor: pageParam.cursor } : {}),
        sort: `${sort.desc ? '-' : ''}${sort.key}` as 'name',
        ...(filters.q.trim() ? { q: filters.q.trim() } : {}),
        ...(filters.status.length ? { status: filters.status } : {}),
        ...(filters.category.trim() ? { category: filters.category.trim() } : {}),
        ...(filters.tag.trim() ? { tag: filters.tag.trim() } : {}),
        ...(filters.manufacturer.trim() ? { manufacturer: filters.manufacturer.trim() } : {}),
      })
      return { items: page.items, total: page.total, nextCursor: page.nextCursor }
    },
  })
}

interface PageParam {
  cursor?: string
  limit: number
}

/** How many rows to ask for next so that row `wanted` arrives in one request. */
export function nextPageSize(loaded: number, wanted: number): number {
  return Math.min(MAX_PAGE, Math.max(PAGE, wanted - loaded + PAGE))
}

function _matches(c: Component, f: LibraryFilters): boolean {
  const has = (text: string | null | undefined, want: string) => !want.trim() || (text ?? '').toLowerCase().includes(want.trim().toLowerCase())
  return (
    (f.status.length === 0 || f.status.includes(c.status)) &&
    (!f.category.trim() || (c.category ?? '').toLowerCase() === f.category.trim().toLowerCase()) &&
    (!f.tag.trim() || c.tags.some((t) => t.toLowerCase() === f.tag.trim().toLowerCase())) &&
    (!f.manufacturer.trim() || c.mpns.some((m) => m.manufacturer.toLowerCase() === f.manufacturer.trim().toLowerCase())) &&
    (has(c.name, f.q) || has(c.ipn, f.q) || has(c.description, f.q) || c.mpns.some((m) => has(m.partNumber, f.q)))
  )
}
