import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { sourceQueries } from '../../queries/sources'

/**
 * Pulling a peer's whole library (InvenTree, Part-DB): one of the configured
 * sources whose type can pull. The pull answers with an import session, shown
 * and committed below like an uploaded file's; pulling again re-syncs.
 */
export function PullForm({ busy, onPull }: { busy: boolean; onPull: (sourceId: string) => void }) {
  const types = useQuery(sourceQueries.types())
  const list = useQuery(sourceQueries.list())
  const pullable = new Map((types.data ?? []).filter((t) => t.capabilities.pull).map((t) => [t.type, t.title ?? t.type]))
  const peers = (list.data ?? []).filter((s) => pullable.has(s.type))
  const [chosen, setChosen] = useState('')
  const sourceId = chosen || peers[0]?.id || ''
  if (!types.data || !list.data) return null
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault()
        if (sourceId) onPull(sourceId)
      }}
    >
      {peers.length === 0 ? (
        <p className="hint">
          To pull a library straight from a running InvenTree or Part-DB, add it as a source first (<a href="#/sources">Sources</a>, with its URL and an API token).
        </p>
      ) : (
        <>
          <label>
            Pull the whole library of
            <select value={sourceId} onChange={(e) => setChosen(e.target.value)}>
              {peers.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({pullable.get(s.type)})
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={busy || !sourceId}>
            {busy ? 'Pulling…' : 'Pull and preview'}
          </button>
        </>
      )}
    </form>
  )
}
