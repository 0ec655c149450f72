import type { Suggestion } from '@complib/client-sdk'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { componentQueries } from '../../queries/components'
import { navigate } from '../../router'

/**
 * How long the text must rest before it filters the table: short enough that
 * results show within 150 ms of a keystroke (decision 1405; bench/web.ts measures it),
 * long enough that a burst of typing sends one listing rather than one per key.
 */
const FILTER_DELAY_MS = 40

/**
 * Search as you type: the text filters the table (once it rests for FILTER_DELAY_MS),
 * and a list of suggestions (`GET /api/suggest`, best first) opens a
 * component directly. A combobox by the ARIA pattern: arrows move, Enter
 * opens the active suggestion, Escape closes the list (and, with it closed,
 * leaves the box): Escape never empties the text, which the browser's own
 * search field would do. `/` anywhere outside a field comes back to it.
 */
export function SearchBox({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const [q, setQ] = useState(value)
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => setQ(value), [value])
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || _typing(e.target)) return
      e.preventDefault()
      input.current?.focus()
      input.current?.select()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
  useEffect(() => {
    const t = setTimeout(() => onChange(q), FILTER_DELAY_MS)
    return () => clearTimeout(t)
  }, [q, onChange])
  const suggestions = useQuery(componentQueries.suggest(q.trim()))
  const items: Suggestion[] = q.trim() ? (suggestions.data ?? []) : []
  const expanded = open && items.length > 0

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault()
      setOpen(true)
      setActive((a) => Math.min(items.length - 1, a + 1))
    } else if (e.key === 'ArrowUp') {
      e.preventDefault()
      setActive((a) => Math.max(-1, a - 1))
    } else if (e.key === 'Escape') {
      // The default of Escape in a search field clears it: the text is the table's filter, kept.
      e.preventDefault()
      if (expanded) {
        setOpen(false)
        setActive(-1)
      } else e.currentTarget.blur()
    } else if (e.key === 'Enter') {
      const chosen = expanded && active >= 0 ? items[active] : undefined
      if (chosen) {
        e.preventDefault()
        navigate(`/components/${chosen.id}`)
      } else {
        onChange(q)
        setOpen(false)
      }
    }
  }

  return (
    <div className="search-box">
      <label htmlFor={`${id}-input`}>Search</label>
      <input
        id={`${id}-input`}
        ref={input}
        aria-keyshortcuts="/"
        type="search"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? `${id}-opt-${active}` : undefined}
        placeholder="name, IPN, part number, description (press /)"
        autoComplete="off"
        value={q}
        onChange={(e) => {
          setQ(e.target.value)
          setOpen(true)
          setActive(-1)
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
      />
      <ul id={`${id}-list`} role="listbox" aria-label="Suggestions" className="suggestions" hidden={!expanded}>
        {items.map((s, i) => (
          <li
            key={s.id}
            id={`${id}-opt-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => {
              e.preventDefault()
              navigate(`/components/${s.id}`)
            }}
          >
            <span>{s.label}</span>
            {s.detail && <span className="muted"> {s.detail}</span>}
          </li>
        ))}
      </ul>
    </div>
  )
}

/** Whether a key pressed at `target` is typing into a field (where `/` is a character). */
function _typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type)
  return target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement
}
