import { useInfiniteQuery } from '@tanstack/react-query'
import { useCallback, useMemo, useRef, useState } from 'react'
import { useCan } from '../queries/auth'
import { EMPTY_FILTERS, libraryQuery, type LibraryFilters, type Sort } from '../queries/library'
import { href } from '../router'
import { ErrorBox } from '../ui/error-box'
import { count } from '../ui/format'
import { COLUMNS, loadColumns, saveColumns } from './library/columns'
import { ColumnsMenu } from './library/columns-menu'
import { Filters } from './library/filters'
import { SearchBox } from './library/search-box'
import { SelectionBar } from './library/selection-bar'
import { LibraryTable } from './library/table'

/**
 * Every component in a virtualised table: only the rows in view are in the
 * page, fetched a page at a time as they come into view, sorted and
 * filtered by the server (decision 1405).
 */
export function LibraryScreen() {
  const [filters, setFilters] = useState<LibraryFilters>(EMPTY_FILTERS)
  const [sort, setSort] = useState<Sort>({ key: 'name', desc: false })
  const [columnIds, setColumnIds] = useState(loadColumns)
  const wanted = useRef(0)
  // Creating and bulk editing are for those who may change the library; the rest read.
  const writer = useCan('library:write')
  const rows = useInfiniteQuery(libraryQuery(filters, sort, wanted))
  const items = useMemo(() => rows.data?.pages.flatMap((p) => p.items) ?? [], [rows.data])
  const known = rows.data?.pages[0]?.total ?? 0
  // An unknown total (parametric ranges with other filters): what is loaded, and one loading row that fetches more.
  const total = known >= 0 ? known : items.length
  // While more pages exist, the table is as tall as the whole result: the scrollbar tells the truth.
  const rowCount = rows.hasNextPage ? Math.max(known >= 0 ? known : items.length + 1, items.length) : items.length

  const setQ = useCallback((q: string) => setFilters((f) => (f.q === q ? f : { ...f, q })), [])
  const toggleColumn = (id: string, on: boolean) => {
    const next = COLUMNS.map((c) => c.id).filter((c) => (c === id ? on : columnIds.includes(c)))
    if (next.length === 0) return
    setColumnIds(next)
    saveColumns(next)
  }

  return (
    <section className="library">
      <div className="screen-head">
        <h1>Library</h1>
        <p className="muted" aria-live="polite">
          {rows.isPending ? 'Loading…' : `${count(total)}${known < 0 && rows.hasNextPage ? '+' : ''} components${filters.ranges.some((r) => r.type) ? ' matching the ranges' : ''}`}
          {rows.isFetching && !rows.isPending ? ' · updating…' : ''}
        </p>
        {writer && (
          <div className="actions">
            <a className="button primary" href={href('/components/new')}>
              New component
            </a>
          </div>
        )}
      </div>

      <div className="toolbar">
        <SearchBox value={filters.q} onChange={setQ} />
        <Filters filters={filters} onChange={setFilters} />
        <ColumnsMenu shown={columnIds} onToggle={toggleColumn} />
      </div>

      {writer && <SelectionBar items={items} />}

      <ErrorBox error={rows.error} title="The library could not be loaded" />

      <LibraryTable
        items={items}
        rowCount={rowCount}
        columns={COLUMNS.filter((c) => columnIds.includes(c.id))}
        sort={sort}
        onSort={(key) => setSort((s) => ({ key, desc: s.key === key ? !s.desc : false }))}
        paging={rows}
        wanted={wanted}
        selectable={writer}
        empty={
          !rows.isPending &&
          rowCount === 0 && (
            <p className="empty">
              No components match. {filters !== EMPTY_FILTERS ? 'Change the filters.' : writer ? <a href={href('/components/new')}>Create the first one</a> : ''}
            </p>
          )
        }
      />
    </section>
  )
}
