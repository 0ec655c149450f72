import type { ComponentStatus } from '@complib/client-sdk'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { href } from '../router'
import { useSelection } from '../selection'
import { ErrorBox } from '../ui/error-box'
import { count } from '../ui/format'
import { COLUMNS, loadColumns, saveColumns } from './library-columns'
import { EMPTY_FILTERS, useLibraryRows, type LibraryFilters, type Sort } from './library-query'
import { SearchBox } from './search-box'

const STATUSES: ComponentStatus[] = ['draft', 'active', 'nrnd', 'obsolete']
const ROW_HEIGHT = 36

/**
 * Every component in a virtualised table: only the rows in view are in the
 * page, fetched a page at a time as they come into view, sorted and
 * filtered by the server (docs/decisions.md, "Web interface").
 */
export function LibraryScreen() {
  const [filters, setFilters] = useState<LibraryFilters>(EMPTY_FILTERS)
  const [sort, setSort] = useState<Sort>({ key: 'name', desc: false })
  const [columnIds, setColumnIds] = useState(loadColumns)
  const wanted = useRef(0)
  const rows = useLibraryRows(filters, sort, wanted)
  const selection = useSelection()
  const items = useMemo(() => rows.data?.pages.flatMap((p) => p.items) ?? [], [rows.data])
  const known = rows.data?.pages[0]?.total ?? 0
  // An unknown total (parametric ranges with other filters): what is loaded, and one loading row that fetches more.
  const total = known >= 0 ? known : items.length
  // While more pages exist, the table is as tall as the whole result: the scrollbar tells the truth.
  const rowCount = rows.hasNextPage ? Math.max(known >= 0 ? known : items.length + 1, items.length) : items.length
  const columns = COLUMNS.filter((c) => columnIds.includes(c.id))
  const template = `2.5rem ${columns.map((c) => c.width).join(' ')}`

  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({ count: rowCount, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 })
  const virtualRows = virtualizer.getVirtualItems()
  const lastVisible = virtualRows.at(-1)?.index ?? 0

  useEffect(() => {
    wanted.current = lastVisible + 1
    if (lastVisible >= items.length - 1 - 40 && rows.hasNextPage && !rows.isFetchingNextPage) void rows.fetchNextPage()
  }, [lastVisible, items.length, rows.hasNextPage, rows.isFetchingNextPage, rows.fetchNextPage])

  const setQ = useCallback((q: string) => setFilters((f) => (f.q === q ? f : { ...f, q })), [])
  const toggleColumn = (id: string, on: boolean) => {
    const next = COLUMNS.map((c) => c.id).filter((c) => (c === id ? on : columnIds.includes(c)))
    if (next.length === 0) return
    setColumnIds(next)
    saveColumns(next)
  }
  const selectedHere = items.filter((c) => selection.ids.has(c.id)).length

  return (
    <section className="library">
      <div className="screen-head">
        <h1>Library</h1>
        <p className="muted" aria-live="polite">
          {rows.isPending ? 'Loading…' : `${count(total)}${known < 0 && rows.hasNextPage ? '+' : ''} components${filters.ranges.some((r) => r.type) ? ' matching the ranges' : ''}`}
          {rows.isFetching && !rows.isPending ? ' · updating…' : ''}
        </p>
        <div className="actions">
          <a className="button primary" href={href('/components/new')}>
            New component
          </a>
        </div>
      </div>

      <div className="toolbar">
        <SearchBox value={filters.q} onChange={setQ} />
        <Filters filters={filters} onChange={setFilters} />
        <details className="menu">
          <summary>Columns</summary>
          <fieldset>
            <legend>Shown columns</legend>
            {COLUMNS.map((c) => (
              <label key={c.id}>
                <input type="checkbox" checked={columnIds.includes(c.id)} onChange={(e) => toggleColumn(c.id, e.target.checked)} /> {c.label}
              </label>
            ))}
          </fieldset>
        </details>
      </div>

      <div className="selection-bar" aria-live="polite">
        <span>{selection.ids.size > 0 ? `${count(selection.ids.size)} selected` : 'No rows selected'}</span>
        <button type="button" onClick={() => selection.set([...selection.ids, ...items.map((c) => c.id)])} disabled={items.length === 0}>
          Select all loaded ({count(items.length)})
        </button>
        <button type="button" onClick={() => selection.clear()} disabled={selection.ids.size === 0}>
          Clear selection
        </button>
        <a className={`button${selection.ids.size ? ' primary' : ' disabled'}`} href={selection.ids.size ? href('/bulk') : undefined} aria-disabled={selection.ids.size === 0}>
          Bulk edit selected
        </a>
      </div>

      <ErrorBox error={rows.error} title="The library could not be loaded" />

      <div
        className="vtable"
        role="table"
        aria-label="Components"
        aria-rowcount={rowCount + 1}
        ref={scroller}
        tabIndex={0}
        style={{ ['--cols' as string]: template }}
      >
        <div role="rowgroup" className="vhead">
          <div role="row" aria-rowindex={1} className="vrow">
            <div role="columnheader" className="check">
              <input
                type="checkbox"
                aria-label="Select every loaded row"
                checked={items.length > 0 && selectedHere === items.length}
                onChange={(e) => (e.target.checked ? selection.set([...selection.ids, ...items.map((c) => c.id)]) : selection.clear())}
              />
            </div>
            {columns.map((c) => (
              <div role="columnheader" key={c.id} aria-sort={c.sort && sort.key === c.sort ? (sort.desc ? 'descending' : 'ascending') : undefined}>
                {c.sort ? (
                  <button type="button" className="sort" onClick={() => setSort((s) => ({ key: c.sort!, desc: s.key === c.sort ? !s.desc : false }))}>
                    {c.label}
                    <span aria-hidden="true">{sort.key === c.sort ? (sort.desc ? ' ▼' : ' ▲') : ''}</span>
                  </button>
                ) : (
                  c.label
                )}
              </div>
            ))}
          </div>
        </div>
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualRows.map((v) => {
            const c = items[v.index]
            return (
              <div
                role="row"
                key={c?.id ?? `loading-${v.index}`}
                aria-rowindex={v.index + 2}
                aria-selected={c ? selection.ids.has(c.id) : undefined}
                className={`vrow${c && selection.ids.has(c.id) ? ' selected' : ''}`}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${v.start}px)` }}
              >
                {c ? (
                  <>
                    <div role="cell" className="check">
                      <input type="checkbox" aria-label={`Select ${c.name}`} checked={selection.ids.has(c.id)} onChange={(e) => selection.toggle(c.id, e.target.checked)} />
                    </div>
                    {columns.map((col) => (
                      <div role="cell" key={col.id} title={typeof col.render(c) === 'string' ? (col.render(c) as string) : undefined}>
                        {col.render(c)}
                      </div>
                    ))}
                  </>
                ) : (
                  <div role="cell" className="loading-row">
                    Loading…
                  </div>
                )}
              </div>
            )
          })}
        </div>
        {!rows.isPending && rowCount === 0 && (
          <p className="empty">
            No components match. {filters === EMPTY_FILTERS ? <a href={href('/components/new')}>Create the first one</a> : 'Change the filters.'}
          </p>
        )}
      </div>
    </section>
  )
}

function Filters({ filters, onChange }: { filters: LibraryFilters; onChange: (f: LibraryFilters) => void }) {
  const [draft, setDraft] = useState(filters)
  useEffect(() => setDraft(filters), [filters])
  const set = (patch: Partial<LibraryFilters>) => setDraft((d) => ({ ...d, ...patch }))
  const active = [filters.status.length, filters.category, filters.tag, filters.manufacturer, filters.ranges.length].filter(Boolean).length
  return (
    <details className="menu filters">
      <summary>Filters{active ? ` (${active})` : ''}</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          onChange({ ...draft, q: filters.q })
        }}
      >
        <fieldset>
          <legend>Status</legend>
          {STATUSES.map((s) => (
            <label key={s}>
              <input type="checkbox" checked={draft.status.includes(s)} onChange={(e) => set({ status: e.target.checked ? [...draft.status, s] : draft.status.filter((x) => x !== s) })} /> {s}
            </label>
          ))}
        </fieldset>
        <label>
          Category <input value={draft.category} onChange={(e) => set({ category: e.target.value })} />
        </label>
        <label>
          Tag <input value={draft.tag} onChange={(e) => set({ tag: e.target.value })} />
        </label>
        <label>
          Manufacturer <input value={draft.manufacturer} onChange={(e) => set({ manufacturer: e.target.value })} />
        </label>
        <fieldset>
          <legend>Parameter ranges (SI prefixes: 10k, 4k7, 100n)</legend>
          {draft.ranges.map((r, i) => (
            <div className="range" key={i}>
              <label>
                Parameter <input value={r.type} placeholder="Resistance" onChange={(e) => set({ ranges: draft.ranges.map((x, j) => (j === i ? { ...x, type: e.target.value } : x)) })} />
              </label>
              <label>
                From <input value={r.min} placeholder="10k" size={6} onChange={(e) => set({ ranges: draft.ranges.map((x, j) => (j === i ? { ...x, min: e.target.value } : x)) })} />
              </label>
              <label>
                to <input value={r.max} placeholder="47k" size={6} onChange={(e) => set({ ranges: draft.ranges.map((x, j) => (j === i ? { ...x, max: e.target.value } : x)) })} />
              </label>
              <button type="button" onClick={() => set({ ranges: draft.ranges.filter((_, j) => j !== i) })}>
                Remove range
              </button>
            </div>
          ))}
          <button type="button" onClick={() => set({ ranges: [...draft.ranges, { type: '', min: '', max: '' }] })}>
            Add a range
          </button>
        </fieldset>
        <div className="actions">
          <button type="submit" className="primary">
            Apply filters
          </button>
          <button type="button" onClick={() => onChange({ ...EMPTY_FILTERS, q: filters.q })}>
            Clear filters
          </button>
        </div>
      </form>
    </details>
  )
}
