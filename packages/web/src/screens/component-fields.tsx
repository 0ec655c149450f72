import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { api } from '../api'

/** Rows of small text fields (parameters, MPNs): add, edit, remove. */
export function RowsEditor<R extends Record<string, string>>(props: {
  legend: string
  rows: R[]
  fields: Array<{ key: keyof R & string; label: string; placeholder?: string }>
  empty: R
  onChange: (rows: R[]) => void
  error?: string | undefined
}) {
  const { rows, onChange } = props
  return (
    <fieldset className="rows">
      <legend>{props.legend}</legend>
      {rows.length === 0 && <p className="muted">None.</p>}
      {rows.map((row, i) => (
        <div className="row" key={i}>
          {props.fields.map((f) => (
            <label key={f.key}>
              <span className="visually-hidden">
                {props.legend} {i + 1}:{' '}
              </span>
              {f.label}
              <input value={row[f.key]} placeholder={f.placeholder} onChange={(e) => onChange(rows.map((r, j) => (j === i ? { ...r, [f.key]: e.target.value } : r)))} />
            </label>
          ))}
          <button type="button" onClick={() => onChange(rows.filter((_, j) => j !== i))} aria-label={`Remove ${props.legend.toLowerCase()} row ${i + 1}`}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...rows, { ...props.empty }])}>
        Add {props.legend.toLowerCase().replace(/s$/, '')}
      </button>
      {props.error && <p className="field-error">{props.error}</p>}
    </fieldset>
  )
}

/** Links to symbols or footprints: the linked ones, and a search to add one. */
export function LinkEditor(props: { kind: 'symbols' | 'footprints'; legend: string; links: Array<{ id: string; name: string }>; onChange: (links: Array<{ id: string; name: string }>) => void }) {
  const [q, setQ] = useState('')
  const id = useId()
  const options = useQuery({
    queryKey: [props.kind, 'pick', q],
    queryFn: () => api()[props.kind].list({ limit: 20, ...(q.trim() ? { q: q.trim() } : {}) }),
    staleTime: 30_000,
  })
  const linked = new Set(props.links.map((l) => l.id))
  const choices = (options.data?.items ?? []).filter((o) => !linked.has(o.id))
  return (
    <fieldset className="links">
      <legend>{props.legend}</legend>
      <ul>
        {props.links.length === 0 && <li className="muted">None linked.</li>}
        {props.links.map((l) => (
          <li key={l.id}>
            {l.name}{' '}
            <button type="button" onClick={() => props.onChange(props.links.filter((x) => x.id !== l.id))} aria-label={`Unlink ${l.name}`}>
              Unlink
            </button>
          </li>
        ))}
      </ul>
      <label htmlFor={id}>Find a {props.kind === 'symbols' ? 'symbol' : 'footprint'} to link</label>
      <input id={id} type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="name" />
      {choices.length > 0 && (
        <ul className="choices">
          {choices.slice(0, 8).map((o) => (
            <li key={o.id}>
              <button type="button" onClick={() => props.onChange([...props.links, { id: o.id, name: o.name }])}>
                Link {o.name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  )
}
