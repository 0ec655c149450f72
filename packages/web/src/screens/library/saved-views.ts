import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api'
import { parseView, type LibraryView } from './view-state'

/** A named view of the table: its filters, columns and sort. */
export interface SavedView {
  id: string
  name: string
  view: LibraryView
}

/**
 * Where saved views live (decision 1412): with the account when one is signed
 * in (`/api/views`, on every browser it signs in from), else in this
 * browser's localStorage (keyless loopback mode, an API key in the tab).
 */
export type ViewsHome = 'account' | 'browser'

const LOCAL = 'complib.library.views'

export const savedViewKeys = {
  all: () => ['saved-views'] as const,
  list: (home: ViewsHome) => [...savedViewKeys.all(), home] as const,
}

interface ServerView {
  id: string
  name: string
  state: unknown
}

export const savedViewQueries = {
  list: (home: ViewsHome) =>
    queryOptions({
      queryKey: savedViewKeys.list(home),
      queryFn: async (): Promise<SavedView[]> => (home === 'account' ? (await _serverViews()).map((v) => ({ id: v.id, name: v.name, view: parseView(v.state) })) : _localViews()),
    }),
}

/** Saves `view` as `name`, replacing a view of that name. */
export async function saveView(home: ViewsHome, name: string, view: LibraryView, existing: SavedView[]): Promise<void> {
  // Names are unique per owner regardless of case (as the API has them): "resistors" replaces "Resistors".
  const same = existing.find((v) => v.name.toLowerCase() === name.toLowerCase())
  if (home === 'account') {
    if (same) await api().views.patch(same.id, { name, state: { ...view } })
    else await api().views.create({ name, state: { ...view } })
    return
  }
  const rest = _localViews().filter((v) => v.name.toLowerCase() !== name.toLowerCase())
  _writeLocal([...rest, { id: name, name, view }].sort((a, b) => a.name.localeCompare(b.name)))
}

export async function deleteView(home: ViewsHome, view: SavedView): Promise<void> {
  if (home === 'account') await api().views.delete(view.id)
  else _writeLocal(_localViews().filter((v) => v.name !== view.name))
}

function _serverViews(): Promise<ServerView[]> {
  return api().views.list()
}

function _localViews(): SavedView[] {
  try {
    const saved = JSON.parse(localStorage.getItem(LOCAL) ?? '[]') as unknown
    if (!Array.isArray(saved)) return []
    return saved.flatMap((v: unknown) => {
      const x = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>
      return typeof x.name === 'string' && x.name ? [{ id: x.name, name: x.name, view: parseView(x.view) }] : []
    })
  } catch {
    // A hand-edited value that is not JSON: no views rather than a broken screen.
    return []
  }
}

function _writeLocal(views: SavedView[]): void {
  localStorage.setItem(LOCAL, JSON.stringify(views.map((v) => ({ name: v.name, view: v.view }))))
}
