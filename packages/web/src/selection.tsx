import { createContext, useContext, useMemo, useState, type ReactNode } from 'react'

/** The rows chosen in the library, for bulk actions (kept while moving between screens). */
export interface Selection {
  ids: ReadonlySet<string>
  toggle(id: string, on?: boolean): void
  set(ids: Iterable<string>): void
  clear(): void
}

const SelectionContext = createContext<Selection | undefined>(undefined)

export function SelectionProvider({ children }: { children: ReactNode }) {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set())
  const value = useMemo<Selection>(
    () => ({
      ids,
      toggle: (id, on) =>
        setIds((prev) => {
          const next = new Set(prev)
          if (on ?? !prev.has(id)) next.add(id)
          else next.delete(id)
          return next
        }),
      set: (list) => setIds(new Set(list)),
      clear: () => setIds(new Set()),
    }),
    [ids],
  )
  return <SelectionContext.Provider value={value}>{children}</SelectionContext.Provider>
}

export function useSelection(): Selection {
  const s = useContext(SelectionContext)
  if (!s) throw new Error('useSelection outside SelectionProvider')
  return s
}
