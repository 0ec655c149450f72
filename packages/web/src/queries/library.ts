import type { Component, ComponentStatus } from '@complib/client-sdk'
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { api } from '../api'
import { componentKeys } from './components'

/** What GET /api/components sorts by: a column's key, or a parameter's value (`parameter:Resistance`). */
export type SortKey = 'name' | 'ipn' | 'updatedAt' | 'createdAt' | 'category' | 'status' | 'manufacturer' | 'stock' | 'id' | `parameter:${string}`
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

/** Live components, or the trash (deleted ones, to restore). */
export type Shelf = 'live' | 'trash'

/** What a row shows beside the component's own record, read in a side call (stock is not in the stored view; decision 1411). */
export interface RowExtras {
  stock?: number
  /** Where its first image is, when it has one. */
  image?: { url: string } | null
}

export interface LibraryPage {
  items: Component[]
  total: number
  /** The server stopped counting at `total`: more match (a filtered list, decision 0209). */
  totalBounded: boolean
  nextCursor: string | null
}

/** Rows fetched per request while scrolling; a jump far down asks for more at once (up to MAX_PAGE). */
export const PAGE = 200
const MAX_PAGE = 5000

/**
 * The filters as the query of `GET /api/components`, its ids and the export
 * (decision 0444): one translation, so "select all matching" and the export
 * take exactly the rows the table lists.
 */
export function filterQuery(f: LibraryFilters, shelf: Shelf) {
  const ranges = f.ranges.filter((r) => r.type.trim() && (r.min.trim() || r.max.trim()))
  return {
    ...(f.q.trim() ? { q: f.q.trim() } : {}),
    ...(f.status.length ? { status: f.status } : {}),
    ...(f.category.trim() ? { category: f.category.trim() } : {}),
    ...(f.tag.trim() ? { tag: f.tag.trim() } : {}),
    ...(f.manufacturer.trim() ? { manufacturer: f.manufacturer.trim() } : {}),
    ...(ranges.length ? { parameter: ranges.map((r) => `${r.type.trim()}:${r.min.trim()}..${r.max.trim()}`) } : {}),
    ...(shelf === 'trash' ? { deleted: 'only' as const } : {}),
  }
}

/**
 * The library's rows, page after page, sorted and filtered by the server
 * (`GET /api/components`, parameter ranges included, SI-aware: 10k..47k).
 * Stock and images are read apart (`extrasQuery`): the rows are drawn as
 * soon as their page arrives, not after a second request.
 */
export function libraryQuery(filters: LibraryFilters, sort: Sort, wanted: { current: number }, { shelf = 'live' }: { shelf?: Shelf } = {}) {
  const query = filterQuery(filters, shelf)
  return infiniteQueryOptions({
    queryKey: componentKeys.library({ ...query, sort }),
    initialPageParam: { limit: PAGE } as PageParam,
    // Read when the next page is fetched: a jump far down the scrollbar asks for the rows up to there at once.
    getNextPageParam: (last: LibraryPage, all: LibraryPage[]): PageParam | undefined => (last.nextCursor ? { cursor: last.nextCursor, limit: nextPageSize(all.reduce((n, p) => n + p.items.length, 0), wanted.current) } : undefined),
    placeholderData: (previous) => previous,
    queryFn: async ({ pageParam }): Promise<LibraryPage> => {
      const page = await api().components.list({ ...query, limit: pageParam.limit, ...(pageParam.cursor ? { cursor: pageParam.cursor } : {}), sort: `${sort.desc ? '-' : ''}${sort.key}` })
      return { items: page.items, total: page.total, totalBounded: page.totalBounded === true, nextCursor: page.nextCursor }
    },
  })
}

/**
 * The stock totals and first images of one page's rows, filled in when they
 * come (the table shows a placeholder until then). Under `lists()`, so a
 * change of a component or its stock reads them again with the rows.
 */
export function extrasQuery(ids: readonly string[]) {
  return queryOptions({ queryKey: [...componentKeys.lists(), 'library-extras', ids] as const, queryFn: () => rowExtras(ids) })
}

/** Ids per extras request: the API's limit. */
const EXTRAS_CHUNK = 500

/** Each component's total stock and first image, for a page of ids (`GET /api/components/extras`, 500 at a time). */
export async function rowExtras(ids: readonly string[]): Promise<Record<string, RowExtras>> {
  const chunks: string[][] = []
  for (let i = 0; i < ids.length; i += EXTRAS_CHUNK) chunks.push(ids.slice(i, i + EXTRAS_CHUNK))
  const answers = await Promise.all(chunks.map((chunk) => api().components.extras(chunk)))
  return Object.assign({}, ...answers) as Record<string, RowExtras>
}

/** The ids of every component matching the filters, loaded or not (decision 1413), 100,000 per request. */
export async function matchingIds(filters: LibraryFilters, shelf: Shelf): Promise<string[]> {
  const ids: string[] = []
  let cursor: string | undefined
  do {
    const page = await api().components.ids({ ...filterQuery(filters, shelf), ...(cursor ? { cursor } : {}) })
    for (const id of page.ids) ids.push(id)
    cursor = page.nextCursor ?? undefined
  } while (cursor)
  return ids
}

interface PageParam {
  cursor?: string
  limit: number
}

/** How many rows to ask for next so that row `wanted` arrives in one request. */
export function nextPageSize(loaded: number, wanted: number): number {
  return Math.min(MAX_PAGE, Math.max(PAGE, wanted - loaded + PAGE))
}

/** A parameter name the filters offer, with its unit when known. */
export interface ParameterName {
  name: string
  unit: string | null
}

/** What the filters and the column menu offer: categories and parameter names, read when the menus open. */
export const libraryMetaKeys = {
  all: () => ['library-meta'] as const,
  categories: () => [...libraryMetaKeys.all(), 'categories'] as const,
  parameterNames: (category: string) => [...libraryMetaKeys.all(), 'parameter-names', category] as const,
}

export const libraryMetaQueries = {
  categories: () => queryOptions({ queryKey: libraryMetaKeys.categories(), queryFn: () => api().categories.list(), staleTime: 60_000 }),
  /**
   * Parameter names: the templates of `category` (a path) first, in their
   * order, then every parameter type by name. Without a category, or where
   * it has no templates, only the types.
   */
  parameterNames: (category: string) =>
    queryOptions({
      queryKey: libraryMetaKeys.parameterNames(category),
      staleTime: 60_000,
      queryFn: async (): Promise<ParameterName[]> => {
        const [types, templates] = await Promise.all([api().parameterTypes.list({ limit: 1000 }), category ? _templatesOf(category) : Promise.resolve([])])
        const names = new Map<string, ParameterName>()
        for (const t of templates) names.set(t.parameterType, { name: t.parameterType, unit: t.unit })
        for (const t of [...types.items].sort((a, b) => a.name.localeCompare(b.name))) if (!names.has(t.name)) names.set(t.name, { name: t.name, unit: t.unit ?? null })
        return [...names.values()]
      },
    }),
}

/** The parameter templates of the category at `path` (its ancestors' and its own); none when no category has that path. */
async function _templatesOf(path: string): Promise<Array<{ parameterType: string; unit: string | null }>> {
  const category = (await api().categories.list()).find((c) => c.path.toLowerCase() === path.toLowerCase())
  return category ? api().categories.templates(category.id) : []
}
