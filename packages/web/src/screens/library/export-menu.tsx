import { useRef, useState } from 'react'
import { downloadFile } from '../../api'
import { filterQuery, type LibraryFilters, type Shelf } from '../../queries/library'
import { ErrorBox } from '../../ui/error-box'
import { escapeCloses, useOutsideCloses } from './menu'

/** The export's URL for the table's filters: the same query as the listing, so the file holds exactly the rows listed (decision 0620). */
export function exportPath(filters: LibraryFilters, shelf: Shelf, format: 'csv' | 'json'): string {
  const params = new URLSearchParams({ format })
  for (const [key, value] of Object.entries(filterQuery(filters, shelf))) for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v))
  return `/api/exports/components?${params.toString()}`
}

/** Downloads the rows the table lists (every one matching the filters, not only those loaded), as CSV or JSON. */
export function ExportMenu({ filters, shelf, rows }: { filters: LibraryFilters; shelf: Shelf; rows: string }) {
  const [error, setError] = useState<unknown>()
  const menu = useRef<HTMLDetailsElement>(null)
  useOutsideCloses(menu)
  const download = (format: 'csv' | 'json') => {
    setError(undefined)
    downloadFile(exportPath(filters, shelf, format), `components.${format}`).catch(setError)
  }
  return (
    <details className="menu" ref={menu} onKeyDown={escapeCloses}>
      <summary>Export</summary>
      <div className="menu-panel">
        <p>The {rows} the table lists, with the filters applied.</p>
        <div className="actions">
          <button type="button" onClick={() => download('csv')}>
            Download CSV
          </button>
          <button type="button" onClick={() => download('json')}>
            Download JSON
          </button>
        </div>
        <ErrorBox error={error} />
      </div>
    </details>
  )
}
