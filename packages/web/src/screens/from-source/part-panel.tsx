import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { api } from '../../api'
import { componentSaved } from '../../queries/components'
import { sourceQueries } from '../../queries/sources'
import { templateQueries } from '../../queries/templates'
import { navigate } from '../../router'
import { ErrorBox } from '../../ui/error-box'
import { PartDetails } from './part-details'

/**
 * The chosen candidate read whole, and Create component: the server makes
 * it in one step (fields, datasheet link, offers, provenance), then the new
 * component opens. `canCreate`: the caller may change the library.
 */
export function PartPanel({ sourceId, sourceName, partRef, canCreate }: { sourceId: string; sourceName: string; partRef: string; canCreate: boolean }) {
  const queryClient = useQueryClient()
  const part = useQuery(sourceQueries.part(sourceId, partRef))
  const categories = useQuery({ ...templateQueries.categories(), enabled: canCreate })
  const [category, setCategory] = useState('')
  const create = useMutation({
    mutationFn: () => api().components.fromSource({ sourceId, ref: partRef, ...(category.trim() ? { category: category.trim() } : {}) }),
    onSuccess: (c) => {
      void componentSaved(queryClient, c)
      navigate(`/components/${c.id}`)
    },
  })
  const panel = useRef<HTMLElement>(null)
  const id = useId()
  // A card chosen far up the list: the part comes into view below it, not unseen under the fold.
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'start', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' })
  }, [partRef])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    create.mutate()
  }
  const hints = part.data?.categoryHints ?? []

  return (
    <section className="panel part-panel" aria-labelledby={`${id}-h`} ref={panel} aria-busy={part.isPending}>
      <h2 id={`${id}-h`}>{part.data ? `${part.data.mpn} at ${sourceName}` : `Part ${partRef} at ${sourceName}`}</h2>
      {part.isPending && <p className="muted">Reading the part…</p>}
      <ErrorBox error={part.error} title="The part could not be read" />
      {part.data && <PartDetails part={part.data} />}
      {part.data && canCreate && (
        <form className="create-from-source" onSubmit={submit}>
          {/* The hint under the row, so the button lines up with the input it goes with. */}
          <div className="row">
            <label>
              Category (optional)
              <input value={category} onChange={(e) => setCategory(e.target.value)} list={`${id}-categories`} placeholder="Passives/Resistors" maxLength={200} aria-describedby={`${id}-category-hint`} />
            </label>
            <button type="submit" className="primary" disabled={create.isPending}>
              {create.isPending ? 'Creating…' : 'Create component'}
            </button>
          </div>
          <span className="hint" id={`${id}-category-hint`}>
            Empty: the library’s category named like the supplier’s{hints.length ? ` (${hints.at(-1)})` : ''}, if it has one.
          </span>
          <datalist id={`${id}-categories`}>
            {categories.data?.map((c) => (
              <option key={c.id} value={c.path} />
            ))}
          </datalist>
        </form>
      )}
      <ErrorBox error={create.error} title="Not created" />
    </section>
  )
}
