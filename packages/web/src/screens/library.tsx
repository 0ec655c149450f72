import { useInfiniteQuery, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { api } from '../api'
import { authQueries, useCan } from '../queries/auth'
import { componentSaved } from '../queries/components'
import { extrasQuery, libraryQuery, matchingIds, type LibraryFilters, type RowExtras, type Shelf } from '../queries/library'
import { href } from '../router'
import { useSelection } from '../selection'
import { ErrorBox } from '../ui/error-box'
import { pluralAtLeast } from '../ui/format'
import { columnsFor } from './library/columns'
import { ColumnsMenu } from './library/columns-menu'
import { ExportMenu } from './library/export-menu'
import { activeFilters, Filters } from './library/filters'
import { SearchBox } from './library/search-box'
import { SelectionBar } from './library/selection-bar'
import { LibraryTable } from './library/table'
import { loadCurrentView, saveCurrentView, type LibraryView } from './library/view-state'
import { ViewsMenu } from './library/views-menu'

/** The trash or the library, as left: back from a part opened in the trash, the trash is shown. */
let shelfLeft: Shelf = 'live'

/**
 * Every component in a virtualised table: only the rows in view are in the
 * page, fetched a page at a time as they come into view, sorted and
 * filtered by the server (decisions 1405, 1411). The trash lists deleted
 * parts, each with Restore.
 */
export function LibraryScreen() {
  const [view, setView] = useState<LibraryView>(loadCurrentView)
  const [shelf, setShelf] = useState<Shelf>(() => shelfLeft)
  useEffect(() => void (shelfLeft = shelf), [shelf])
  const { filters, sort, columns: columnIds } = view
  const wanted = useRef(0)
  const queryClient = useQueryClient()
  const selection = useSelection()
  const me = useQuery(authQueries.me())
  // Creating and bulk editing are for those who may change the library; the rest read.
  const writer = useCan('library:write')
  // Adding from a supplier also searches a source (its quota): offered to those who may.
  const searcher = useCan('sources:search')
  const columns = useMemo(() => columnsFor(columnIds), [columnIds])
  const rows = useInfiniteQuery(libraryQuery(filters, sort, wanted, { shelf }))
  const items = useMemo(() => rows.data?.pages.flatMap((p) => p.items) ?? [], [rows.data])
  // Stock and images (a column showing them), a request per page after it: the rows do not wait for them.
  const withExtras = columnIds.includes('stock') || columnIds.includes('image')
  const pageIds = useMemo(() => (withExtras ? (rows.data?.pages.map((p) => p.items.map((c) => c.id)).filter((ids) => ids.length > 0) ?? []) : []), [rows.data, withExtras])
  const extras = useQueries({
    queries: pageIds.map((ids) => extrasQuery(ids)),
    // Every row of an answered page has its extras, even those the answer leaves out (nothing to show).
    combine: (answers) => new Map<string, RowExtras>(answers.flatMap((a, i) => (a.data ? (pageIds[i] ?? []).map((id): [string, RowExtras] => [id, a.data[id] ?? {}]) : []))),
  })
  const total = rows.data?.pages[0]?.total ?? 0
  const bounded = rows.data?.pages[0]?.totalBounded ?? false
  // While more pages exist, the table is as tall as the whole result: the scrollbar tells the truth.
  const rowCount = rows.hasNextPage ? Math.max(total, items.length) : items.length

  useEffect(() => saveCurrentView(view), [view])
  const change = (patch: Partial<LibraryView>) => setView((v) => ({ ...v, ...patch }))
  const setFilters = useCallback((f: LibraryFilters) => setView((v) => ({ ...v, filters: f })), [])
  const setQ = useCallback((q: string) => setView((v) => (v.filters.q === q ? v : { ...v, filters: { ...v.filters, q } })), [])

  // "Select all matching": the server's ids for these filters; the selection remembers which filters it was for.
  const filterKey = JSON.stringify([filters, shelf])
  const selectAll = useMutation({ mutationFn: (_key: string) => matchingIds(filters, shelf), onSuccess: (ids, key) => selection.set(ids, key) })
  const allSelected = selection.scope === filterKey && selection.ids.size > 0

  const restore = useMutation({ mutationFn: (id: string) => api().components.restore(id), onSuccess: (c) => componentSaved(queryClient, c) })
  const counted = pluralAtLeast(total, bounded, 'component')
  const ranges = filters.ranges.some((r) => r.type.trim())
  const filtered = activeFilters(filters) > 0 || filters.q.trim() !== ''

  return (
    <section className="library">
      <div className="screen-head">
        <h1>{shelf === 'trash' ? 'Trash' : 'Library'}</h1>
        <p className="muted" aria-live="polite">
          {rows.isPending ? 'Loading…' : `${counted}${shelf === 'trash' ? ' deleted' : ''}${ranges ? ' matching the ranges' : ''}`}
          {rows.isFetching && !rows.isPending ? ' · updating…' : ''}
        </p>
        <div className="actions">
          <div className="segmented" role="group" aria-label="Shown parts">
            <button type="button" aria-pressed={shelf === 'live'} onClick={() => setShelf('live')}>
              Library
            </button>
            <button type="button" aria-pressed={shelf === 'trash'} onClick={() => setShelf('trash')}>
              Trash
            </button>
          </div>
          {writer && searcher && (
            <a className="button" href={href('/components/from-source')}>
              Add from supplier
            </a>
          )}
          {writer && (
            <a className="button primary" href={href('/components/new')}>
              New component
            </a>
          )}
        </div>
      </div>

      <div className="toolbar">
        <SearchBox value={filters.q} onChange={setQ} />
        <Filters filters={filters} onChange={setFilters} />
        <ColumnsMenu shown={columnIds} onChange={(ids) => change({ columns: ids })} />
        <ViewsMenu home={me.data?.user ? 'account' : 'browser'} current={view} onOpen={(v) => setView(v)} />
        <ExportMenu filters={filters} shelf={shelf} rows={counted} />
      </div>

      {writer && shelf === 'live' && <SelectionBar matching={rows.isPending ? undefined : total} bounded={bounded} filtered={filtered} selectAll={{ run: () => selectAll.mutate(filterKey), pending: selectAll.isPending, error: selectAll.error }} allSelected={allSelected} />}

      <ErrorBox error={rows.error} title="The library could not be loaded" />
      <ErrorBox error={restore.error} title="Not restored" />

      <LibraryTable
        items={items}
        extras={extras}
        rowCount={rowCount}
        columns={columns}
        sort={sort}
        onSort={(key) => change({ sort: { key, desc: sort.key === key ? !sort.desc : false } })}
        paging={rows}
        wanted={wanted}
        selectable={writer && shelf === 'live'}
        onSelectAll={() => selectAll.mutate(filterKey)}
        allSelected={allSelected}
        rowAction={
          writer && shelf === 'trash'
            ? (c) => (
                <button type="button" className="small" onClick={() => restore.mutate(c.id)} disabled={restore.isPending && restore.variables === c.id} aria-label={`Restore ${c.name}`}>
                  Restore
                </button>
              )
            : undefined
        }
        empty={
          !rows.isPending &&
          rowCount === 0 && (
            <p className="empty">
              {shelf === 'trash' ? 'The trash is empty' : 'No components match'}
              {filtered ? '. Change the filters.' : shelf === 'live' && writer ? (
                <>
                  . <a href={href('/components/new')}>Create the first one</a>
                </>
              ) : (
                '.'
              )}
            </p>
          )
        }
      />
    </section>
  )
}
