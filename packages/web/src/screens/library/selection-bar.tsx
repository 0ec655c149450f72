import type { Component } from '@complib/client-sdk'
import { href } from '../../router'
import { useSelection } from '../../selection'
import { count } from '../../ui/format'

/** How many rows are chosen, select or clear them, and on to the bulk edit. */
export function SelectionBar({ items }: { items: Component[] }) {
  const selection = useSelection()
  return (
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
  )
}
