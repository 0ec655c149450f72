import { href } from '../../router'
import { useSelection } from '../../selection'
import { count, plural } from '../../ui/format'
import { ErrorBox } from '../../ui/error-box'

/**
 * How many rows are chosen; select every row matching the filters (by the
 * server's ids, loaded or not: decision 1413) or clear; on to the bulk edit.
 */
export function SelectionBar(props: { matching: number | undefined; bounded: boolean; filtered: boolean; selectAll: { run: () => void; pending: boolean; error: unknown }; allSelected: boolean }) {
  const selection = useSelection()
  const n = selection.ids.size
  const { matching, selectAll } = props
  return (
    <div className="selection-bar">
      <span aria-live="polite">{n > 0 ? `${count(n)} selected${props.allSelected ? ' (every one matching the filters)' : ''}` : 'No rows selected'}</span>
      <button type="button" onClick={selectAll.run} disabled={!matching || selectAll.pending || props.allSelected}>
        {selectAll.pending ? 'Selecting…' : props.bounded ? 'Select every component' : matching === 1 ? 'Select the 1 component' : `Select all ${plural(matching ?? 0, 'component')}`}
        {!selectAll.pending && props.filtered ? ' matching the filters' : ''}
      </button>
      <button type="button" onClick={() => selection.clear()} disabled={n === 0}>
        Clear selection
      </button>
      <a className={`button${n ? ' primary' : ' disabled'}`} href={n ? href('/bulk') : undefined} aria-disabled={n === 0}>
        Bulk edit selected
      </a>
      <ErrorBox error={selectAll.error} title="The matching rows could not be selected" />
    </div>
  )
}
