import { createContext, useContext, useMemo, useState, type ReactNode } from 'react'

/** The rows chosen in the library, for bulk actions (kept while moving between screens). */
export interface Selection {
  ids: ReadonlySet<string>
  /**
   * What the selection was made as, when made at once: the library's filters
   * for "every row matching" (decision 1413). Any change row by row drops it.
   */
  scope: string | undefined
  toggle(id: string, on?: boolean): void
  set(ids: Iterable<string>, scope?: string): void
  clear(): void
}

const SelectionContext = createContext<Selection | undefined>(undefined)

export function SelectionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<{ ids: ReadonlySet<string>; scope: string | undefined }>({ ids: new Set(), scope: undefined })
  const value = useMemo<Selection>(
    () => ({
      ids: state.ids,
      scope: state.scope,
      toggle: (id, on) =>
        setState((prev) => {
          const next = new Set(prev.ids)
          if (on ?? !prev.ids.has(id)) next.add(id)
          else next.delete(id)
          return { ids: next, scope: undefined }
        }),
      set: (list, scope) => setState({ ids: new Set(list), scope }),
      clear: () => setState({ ids: new Set(), scope: undefined }),
    }),
    [state],
  )
  return <SelectionContext.Provider value={value}>{children}</SelectionContext.Provider>
}

export function useSelection(): Selection {
  const s = useContext(SelectionContext)
  if (!s) throw new Error('useSelection outside SelectionProvider')
  return s
}
