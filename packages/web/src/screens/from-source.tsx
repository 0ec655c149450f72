import { useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useCan } from '../queries/auth'
import { sourceQueries } from '../queries/sources'
import { href } from '../router'
import { ErrorBox } from '../ui/error-box'
import { plural } from '../ui/format'
import { Candidates } from './from-source/candidates'
import { PartPanel } from './from-source/part-panel'
import '../ui/sources.css'

/**
 * Add from a supplier: choose a source, search it by MPN or keywords, compare
 * the candidates side by side, read the chosen part whole (parameters,
 * offers), then make it a component in one step.
 */
export default function FromSourceScreen() {
  const sources = useQuery(sourceQueries.list())
  const writer = useCan('library:write')
  const admin = useCan('sources:admin')
  const [picked, setPicked] = useState('')
  const [text, setText] = useState('')
  /** What was searched for: a search runs on Search, not on each key (each spends the provider's quota). */
  const [q, setQ] = useState('')
  const [chosen, setChosen] = useState<string>()
  const sourceId = picked || sources.data?.[0]?.id || ''
  const search = useQuery(sourceQueries.search(sourceId, q))
  const sourceName = sources.data?.find((s) => s.id === sourceId)?.name ?? 'the source'

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setChosen(undefined)
    setQ(text.trim())
    // The same words again: asked again, not only shown from the page's cache (stock moves).
    if (text.trim() === q) void search.refetch()
  }

  return (
    <section className="from-source">
      <div className="screen-head">
        <h1>Add from a supplier</h1>
        <p className="muted">Find a part in a supplier’s catalogue and make it a component, with its parameters, datasheet and offers.</p>
        {writer && (
          <div className="actions">
            <a className="button" href={href('/components/new')}>
              New component by hand
            </a>
          </div>
        )}
      </div>
      <ErrorBox error={sources.error} title="The sources could not be read" />
      {sources.data?.length === 0 ? (
        <p className="panel">
          No sources are configured yet.{' '}
          {admin ? (
            <>
              <a href={href('/sources')}>Add one</a> (a Mouser API key, for instance) to search it here.
            </>
          ) : (
            'An admin configures them on the Sources screen.'
          )}
        </p>
      ) : (
        <form className="search-form panel" onSubmit={submit} role="search">
          <label>
            Source
            <select
              value={sourceId}
              onChange={(e) => {
                setPicked(e.target.value)
                setChosen(undefined)
              }}
            >
              {sources.data?.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <label className="grow">
            MPN or keywords
            <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="LM358, 10k 0603 resistor" required maxLength={200} />
          </label>
          <button type="submit" className="primary" disabled={!sourceId || search.isFetching}>
            {search.isFetching ? 'Searching…' : 'Search'}
          </button>
        </form>
      )}
      {search.error && (
        <>
          <ErrorBox error={search.error} title="The search failed" />
          {admin && (
            <p className="hint">
              Credentials or host wrong? Check the source on the <a href={href('/sources')}>Sources screen</a>.
            </p>
          )}
        </>
      )}
      {search.data && (
        <div aria-live="polite">
          <p className="muted">
            {search.data.candidates.length === 0 ? `Nothing at ${sourceName} matches “${q}”.` : `${plural(search.data.candidates.length, 'candidate')} at ${sourceName} for “${q}”${search.data.cached ? ' (from the server’s cache)' : ''}.`}
          </p>
          <Candidates candidates={search.data.candidates} chosen={chosen} onChoose={setChosen} />
        </div>
      )}
      {chosen && <PartPanel key={`${sourceId}:${chosen}`} sourceId={sourceId} sourceName={sourceName} partRef={chosen} canCreate={writer} />}
    </section>
  )
}
