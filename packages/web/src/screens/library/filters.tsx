import type { ComponentStatus } from '@complib/client-sdk'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { EMPTY_FILTERS, libraryMetaQueries, type LibraryFilters } from '../../queries/library'

const STATUSES: ComponentStatus[] = ['draft', 'active', 'nrnd', 'obsolete']

/** How many filters are set (the search text apart): shown on the button. */
export function activeFilters(f: LibraryFilters): number {
  return [f.status.length, f.category.trim(), f.tag.trim(), f.manufacturer.trim(), f.ranges.length].filter(Boolean).length
}

/**
 * The filters: a button that opens a panel in the page's flow, above the
 * table (never over it). Edited there, applied on Apply, which closes it, as
 * Escape does (dropping the edits). The search text is kept either way.
 * Parameter names are offered from the chosen category's templates first,
 * then every parameter type.
 */
export function Filters({ filters, onChange }: { filters: LibraryFilters; onChange: (f: LibraryFilters) => void }) {
  const [open, setOpen] = useState(false)
  const [draft, setDraft] = useState(filters)
  const toggle = useRef<HTMLButtonElement>(null)
  const id = useId()
  useEffect(() => setDraft(filters), [filters])
  const names = useQuery({ ...libraryMetaQueries.parameterNames(draft.category.trim()), enabled: open })
  const categories = useQuery({ ...libraryMetaQueries.categories(), enabled: open })
  const set = (patch: Partial<LibraryFilters>) => setDraft((d) => ({ ...d, ...patch }))
  const setRange = (i: number, patch: Partial<LibraryFilters['ranges'][number]>) => set({ ranges: draft.ranges.map((x, j) => (j === i ? { ...x, ...patch } : x)) })
  const active = activeFilters(filters)
  const close = () => {
    setOpen(false)
    setDraft(filters)
    toggle.current?.focus()
  }
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return
    e.preventDefault()
    close()
  }

  return (
    <>
      <button ref={toggle} type="button" className={`menu-toggle${open ? ' open' : ''}`} aria-expanded={open} aria-controls={`${id}-panel`} onClick={() => (open ? close() : setOpen(true))} onKeyDown={onKeyDown}>
        Filters{active ? ` (${active})` : ''}
      </button>
      {active > 0 && !open && (
        <button type="button" onClick={() => onChange({ ...EMPTY_FILTERS, q: filters.q })}>
          Clear filters
        </button>
      )}
      {open && (
        <form
          id={`${id}-panel`}
          className="filters-panel"
          aria-label="Filters"
          onKeyDown={onKeyDown}
          onSubmit={(e) => {
            e.preventDefault()
            onChange({ ...draft, q: filters.q })
            setOpen(false)
            toggle.current?.focus()
          }}
        >
          <fieldset className="statuses">
            <legend>Status</legend>
            {STATUSES.map((s) => (
              <label key={s}>
                <input type="checkbox" checked={draft.status.includes(s)} onChange={(e) => set({ status: e.target.checked ? [...draft.status, s] : draft.status.filter((x) => x !== s) })} /> {s}
              </label>
            ))}
          </fieldset>
          <div className="fields">
            <label>
              Category <input value={draft.category} list={`${id}-categories`} onChange={(e) => set({ category: e.target.value })} />
            </label>
            <label>
              Tag <input value={draft.tag} onChange={(e) => set({ tag: e.target.value })} />
            </label>
            <label>
              Manufacturer <input value={draft.manufacturer} onChange={(e) => set({ manufacturer: e.target.value })} />
            </label>
          </div>
          <datalist id={`${id}-categories`}>
            {(categories.data ?? []).map((c) => (
              <option key={c.id} value={c.path} />
            ))}
          </datalist>
          <datalist id={`${id}-names`}>
            {(names.data ?? []).map((n) => (
              <option key={n.name} value={n.name}>
                {n.unit ? `${n.name} (${n.unit})` : n.name}
              </option>
            ))}
          </datalist>
          <fieldset className="ranges">
            <legend>Parameter ranges (SI prefixes: 10k, 4k7, 100n)</legend>
            {draft.ranges.map((r, i) => (
              <div className="range" key={i}>
                <label>
                  Parameter <input value={r.type} placeholder="Resistance" list={`${id}-names`} onChange={(e) => setRange(i, { type: e.target.value })} />
                </label>
                <label>
                  From <input value={r.min} placeholder="10k" inputMode="decimal" onChange={(e) => setRange(i, { min: e.target.value })} />
                </label>
                <label>
                  to <input value={r.max} placeholder="47k" inputMode="decimal" onChange={(e) => setRange(i, { max: e.target.value })} />
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
            <button
              type="button"
              onClick={() => {
                onChange({ ...EMPTY_FILTERS, q: filters.q })
                setOpen(false)
                toggle.current?.focus()
              }}
            >
              Clear filters
            </button>
            <button type="button" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </>
  )
}
