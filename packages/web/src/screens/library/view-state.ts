import { EMPTY_FILTERS, type LibraryFilters, type Sort } from '../../queries/library'
import { DEFAULT_COLUMNS, isColumnList } from './columns'

/** What a saved view holds (decision 1412): the filters with the search text, the columns and the sort. */
export interface LibraryView {
  filters: LibraryFilters
  columns: string[]
  sort: Sort
}

export const DEFAULT_SORT: Sort = { key: 'name', desc: false }

export const DEFAULT_VIEW: LibraryView = { filters: EMPTY_FILTERS, columns: DEFAULT_COLUMNS, sort: DEFAULT_SORT }

/**
 * The columns and sort as last left in this browser (columns alone before
 * saved views: read as such). Filters are not carried over a reload: a table
 * that opens filtered would look like a library with parts missing; a saved
 * view brings them back on request. Within the page's life they are kept
 * (`left`): back from a bulk edit or a component, the table is as it was.
 */
const CURRENT = 'complib.library.view'
const OLD_COLUMNS = 'complib.columns'

/**
 * A view read from storage or the server: anything not of the right shape
 * (a hand-edited value, a view saved by an older page) falls back to the
 * default, part by part.
 */
export function parseView(value: unknown): LibraryView {
  const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>
  const f = (v.filters && typeof v.filters === 'object' ? v.filters : {}) as Record<string, unknown>
  const text = (x: unknown) => (typeof x === 'string' ? x.slice(0, 200) : '')
  const statuses = ['draft', 'active', 'nrnd', 'obsolete'] as const
  const filters: LibraryFilters = {
    q: text(f.q),
    status: Array.isArray(f.status) ? statuses.filter((s) => (f.status as unknown[]).includes(s)) : [],
    category: text(f.category),
    tag: text(f.tag),
    manufacturer: text(f.manufacturer),
    ranges: Array.isArray(f.ranges)
      ? f.ranges.slice(0, 20).flatMap((r: unknown) => {
          const x = (r && typeof r === 'object' ? r : {}) as Record<string, unknown>
          return typeof x.type === 'string' ? [{ type: text(x.type), min: text(x.min), max: text(x.max) }] : []
        })
      : [],
  }
  const s = (v.sort && typeof v.sort === 'object' ? v.sort : {}) as Record<string, unknown>
  const sort: Sort = typeof s.key === 'string' && s.key ? { key: s.key as Sort['key'], desc: s.desc === true } : DEFAULT_SORT
  return { filters, columns: isColumnList(v.columns) ? v.columns : DEFAULT_COLUMNS, sort }
}

let left: LibraryView | undefined

export function loadCurrentView(): LibraryView {
  if (left) return left
  try {
    const saved = localStorage.getItem(CURRENT)
    if (saved) return { ...parseView(JSON.parse(saved)), filters: EMPTY_FILTERS }
    const columns = JSON.parse(localStorage.getItem(OLD_COLUMNS) ?? 'null') as unknown
    return { ...DEFAULT_VIEW, columns: isColumnList(columns) ? columns : DEFAULT_COLUMNS }
  } catch {
    // Unreadable JSON: the defaults.
    return DEFAULT_VIEW
  }
}

export function saveCurrentView(view: LibraryView): void {
  left = view
  try {
    localStorage.setItem(CURRENT, JSON.stringify({ columns: view.columns, sort: view.sort }))
  } catch {
    // Storage full or refused (a private window): the view lasts as long as the page.
  }
}
