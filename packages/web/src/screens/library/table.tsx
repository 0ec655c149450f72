import type { Component } from '@complib/client-sdk'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef, type ReactNode } from 'react'
import type { RowExtras, Sort } from '../../queries/library'
import { useSelection } from '../../selection'
import type { Column } from './columns'

const ROW_HEIGHT = 36

/**
 * The rows as a virtualised ARIA table: only those in view are in the page.
 * As the view nears the last loaded row, the next page is fetched, sized to
 * reach the row in view (`wanted`, read by the query's next page). Rows
 * have checkboxes for a bulk edit when `selectable`; the header's checkbox
 * selects every row matching the filters, loaded or not (decision 1413).
 */
export function LibraryTable(props: {
  items: Component[]
  extras: ReadonlyMap<string, RowExtras>
  rowCount: number
  columns: Column[]
  sort: Sort
  onSort: (key: NonNullable<Column['sort']>) => void
  paging: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> }
  wanted: { current: number }
  empty: ReactNode
  selectable: boolean
  /** Selects every row matching the filters; `allSelected` says it is done. */
  onSelectAll: () => void
  allSelected: boolean
  /** A control at the end of each row (Restore, in the trash). */
  rowAction?: (c: Component) => ReactNode
}) {
  const { items, rowCount, columns, sort, paging, wanted } = props
  const selection = useSelection()
  const { selectable } = props
  const template = `${selectable ? '2.5rem ' : ''}${columns.map((c) => c.width).join(' ')}${props.rowAction ? ' 7rem' : ''}`
  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({ count: rowCount, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 })
  const virtualRows = virtualizer.getVirtualItems()
  const lastVisible = virtualRows.at(-1)?.index ?? 0

  useEffect(() => {
    wanted.current = lastVisible + 1
    if (lastVisible >= items.length - 1 - 40 && paging.hasNextPage && !paging.isFetchingNextPage) void paging.fetchNextPage()
  }, [lastVisible, items.length, paging.hasNextPage, paging.isFetchingNextPage, paging.fetchNextPage])

  return (
    <div className="vtable" role="table" aria-label="Components" aria-rowcount={rowCount + 1} ref={scroller} tabIndex={0} style={{ ['--cols' as string]: template }}>
      <div role="rowgroup" className="vhead">
        <div role="row" aria-rowindex={1} className="vrow">
          {selectable && (
            <div role="columnheader" className="check">
              <input
                type="checkbox"
                aria-label="Select every row matching the filters"
                checked={props.allSelected}
                disabled={rowCount === 0}
                onChange={(e) => (e.target.checked ? props.onSelectAll() : selection.clear())}
              />
            </div>
          )}
          {columns.map((c) => (
            <div role="columnheader" key={c.id} className={c.align === 'end' ? 'end' : undefined} aria-sort={c.sort && sort.key === c.sort ? (sort.desc ? 'descending' : 'ascending') : undefined}>
              {c.sort ? (
                <button type="button" className="sort" onClick={() => props.onSort(c.sort!)}>
                  {c.label}
                  <span aria-hidden="true">{sort.key === c.sort ? (sort.desc ? ' ▼' : ' ▲') : ''}</span>
                </button>
              ) : (
                c.label
              )}
            </div>
          ))}
          {props.rowAction && (
            <div role="columnheader">
              <span className="visually-hidden">Actions</span>
            </div>
          )}
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
                  {selectable && (
                    <div role="cell" className="check">
                      <input type="checkbox" aria-label={`Select ${c.name}`} checked={selection.ids.has(c.id)} onChange={(e) => selection.toggle(c.id, e.target.checked)} />
                    </div>
                  )}
                  {columns.map((col) => {
                    const shown = col.render(c, props.extras.get(c.id))
                    return (
                      <div role="cell" key={col.id} className={col.align === 'end' ? 'end' : undefined} title={typeof shown === 'string' ? shown : undefined}>
                        {shown}
                      </div>
                    )
                  })}
                  {props.rowAction && <div role="cell">{props.rowAction(c)}</div>}
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
      {props.empty}
    </div>
  )
}
