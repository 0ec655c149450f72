import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { ErrorBox } from '../../ui/error-box'
import { escapeCloses, useOutsideCloses } from './menu'
import { deleteView, saveView, savedViewKeys, savedViewQueries, type ViewsHome } from './saved-views'
import type { LibraryView } from './view-state'

/** Saved views: open one (its filters, columns and sort), save the table as it is under a name, delete one. */
export function ViewsMenu({ home, current, onOpen }: { home: ViewsHome; current: LibraryView; onOpen: (view: LibraryView) => void }) {
  const queryClient = useQueryClient()
  const menu = useRef<HTMLDetailsElement>(null)
  useOutsideCloses(menu)
  const [name, setName] = useState('')
  const views = useQuery(savedViewQueries.list(home))
  const changed = () => queryClient.invalidateQueries({ queryKey: savedViewKeys.all() })
  const save = useMutation({ mutationFn: () => saveView(home, name.trim(), current, views.data ?? []), onSuccess: () => (setName(''), changed()) })
  const remove = useMutation({ mutationFn: (v: Parameters<typeof deleteView>[1]) => deleteView(home, v), onSuccess: changed })
  return (
    <details className="menu" ref={menu} onKeyDown={escapeCloses}>
      <summary>Views{views.data?.length ? ` (${views.data.length})` : ''}</summary>
      <div className="menu-panel views-panel">
        <p className="muted">{home === 'account' ? 'Saved with your account.' : 'Saved in this browser.'}</p>
        <ErrorBox error={views.error ?? save.error ?? remove.error} />
        {views.data?.length ? (
          <ul className="plain" aria-label="Saved views">
            {views.data.map((v) => (
              <li key={v.id}>
                <button
                  type="button"
                  className="link"
                  onClick={() => {
                    onOpen(v.view)
                    if (menu.current) menu.current.open = false
                  }}
                >
                  {v.name}
                </button>{' '}
                <button type="button" className="small" aria-label={`Delete the view ${v.name}`} onClick={() => remove.mutate(v)}>
                  Delete
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p>No saved views yet.</p>
        )}
        <form
          onSubmit={(e) => {
            e.preventDefault()
            if (name.trim()) save.mutate()
          }}
        >
          <label>
            Save this view as <input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} placeholder="Resistors in stock" />
          </label>
          <button type="submit" disabled={!name.trim() || save.isPending}>
            Save view
          </button>
        </form>
      </div>
    </details>
  )
}
