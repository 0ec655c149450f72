import { useQuery } from '@tanstack/react-query'
import { useId, useRef, useState } from 'react'
import { libraryMetaQueries } from '../../queries/library'
import { COLUMNS, PARAM_PREFIX } from './columns'
import { escapeCloses, useOutsideCloses } from './menu'

/**
 * Which columns the table shows (at least one stays), and columns of single
 * parameters (`Resistance`), each sortable by the server.
 */
export function ColumnsMenu({ shown, onChange }: { shown: string[]; onChange: (ids: string[]) => void }) {
  const [open, setOpen] = useState(false)
  const menu = useRef<HTMLDetailsElement>(null)
  useOutsideCloses(menu)
  const [name, setName] = useState('')
  const id = useId()
  const names = useQuery({ ...libraryMetaQueries.parameterNames(''), enabled: open })
  const params = shown.filter((c) => c.startsWith(PARAM_PREFIX))
  const toggle = (col: string, on: boolean) => {
    // The fixed columns keep their order; parameter columns follow in the order they were added.
    const next = [...COLUMNS.map((c) => c.id).filter((c) => (c === col ? on : shown.includes(c))), ...params.filter((p) => p !== col || on)]
    if (next.length > 0) onChange(next)
  }
  const add = () => {
    const wanted = `${PARAM_PREFIX}${name.trim()}`
    if (name.trim() && !shown.includes(wanted)) onChange([...shown, wanted])
    setName('')
  }
  return (
    <details className="menu" ref={menu} onToggle={(e) => setOpen(e.currentTarget.open)} onKeyDown={escapeCloses}>
      <summary>Columns</summary>
      <fieldset>
        <legend>Shown columns</legend>
        {COLUMNS.map((c) => (
          <label key={c.id}>
            <input type="checkbox" checked={shown.includes(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} /> {c.label}
          </label>
        ))}
        {params.map((p) => (
          <label key={p}>
            <input type="checkbox" checked onChange={() => toggle(p, false)} /> {p.slice(PARAM_PREFIX.length)} (parameter)
          </label>
        ))}
        <div className="add-param">
          <label htmlFor={`${id}-param`}>A parameter as a column</label>
          <input id={`${id}-param`} value={name} list={`${id}-names`} placeholder="Resistance" onChange={(e) => setName(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), add())} />
          <button type="button" onClick={add} disabled={!name.trim()}>
            Add column
          </button>
          <datalist id={`${id}-names`}>
            {(names.data ?? []).map((n) => (
              <option key={n.name} value={n.name} />
            ))}
          </datalist>
        </div>
      </fieldset>
    </details>
  )
}
