import type { ComponentStatus } from '@complib/client-sdk'
import { useEffect, useState } from 'react'
import { EMPTY_FILTERS, type LibraryFilters } from '../../queries/library'

const STATUSES: ComponentStatus[] = ['draft', 'active', 'nrnd', 'obsolete']

/** The filters menu: edited here, applied to the table on Apply (the search text is kept). */
export function Filters({ filters, onChange }: { filters: LibraryFilters; onChange: (f: LibraryFilters) => void }) {
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
