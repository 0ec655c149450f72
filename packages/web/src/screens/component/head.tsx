import type { Component } from '@complib/client-sdk'
import { useCan } from '../../queries/auth'
import { dateTime, relativeTime } from '../../ui/format'

/** The component's name, id, version and age, with Duplicate and Delete (or Restore, once deleted) for those who may change the library. */
export function ComponentHead(props: { id: string | undefined; loaded: Component | undefined; busy: boolean; onAction: (kind: 'duplicate' | 'delete' | 'restore') => void }) {
  const { id, loaded, busy, onAction } = props
  const deleted = !!loaded?.deletedAt
  const writer = useCan('library:write')
  return (
    <div className="screen-head">
      <h1>{id ? (loaded?.name ?? 'Component') : 'New component'}</h1>
      {loaded && (
        <p className="muted">
          <code>{loaded.id}</code> · version {loaded.version} · updated {relativeTime(loaded.updatedAt)}
          {deleted && <strong className="deleted"> · deleted {dateTime(loaded.deletedAt)}</strong>}
        </p>
      )}
      {id && writer && (
        <div className="actions">
          <button type="button" onClick={() => onAction('duplicate')} disabled={busy || deleted}>
            Duplicate
          </button>
          {deleted ? (
            <button type="button" onClick={() => onAction('restore')} disabled={busy}>
              Restore
            </button>
          ) : (
            <button type="button" className="danger" onClick={() => confirm(`Delete ${loaded?.name}? It can be restored.`) && onAction('delete')} disabled={busy}>
              Delete
            </button>
          )}
        </div>
      )}
    </div>
  )
}
