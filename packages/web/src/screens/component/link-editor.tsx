import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { linkQueries, type LinkKind } from '../../queries/links'

/** Links to symbols or footprints: the linked ones, and (unless `readOnly`) a search to add one. */
export function LinkEditor(props: {
  kind: LinkKind
  legend: string
  links: Array<{ id: string; name: string }>
  onChange: (links: Array<{ id: string; name: string }>) => void
  readOnly?: boolean
}) {
  const [q, setQ] = useState('')
  const id = useId()
  const options = useQuery({ ...linkQueries.pick(props.kind, q), enabled: !props.readOnly })
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
            {!props.readOnly && (
              <button type="button" onClick={() => props.onChange(props.links.filter((x) => x.id !== l.id))} aria-label={`Unlink ${l.name}`}>
                Unlink
              </button>
            )}
          </li>
        ))}
      </ul>
      {!props.readOnly && (
        <>
          <label htmlFor={id}>Find a {props.kind === 'symbols' ? 'symbol' : 'footprint'} to link</label>
          <input id={id} type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="name" />
        </>
      )}
      {!props.readOnly && choices.length > 0 && (
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
