import type { Component, ComplibClient } from '@complib/client-sdk'
import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { useCan } from '../../queries/auth'
import { componentQueries } from '../../queries/components'
import { ErrorBox } from '../../ui/error-box'
import { dateTime, relativeTime } from '../../ui/format'
import { diffVersions } from './history-diff'
import { RestoreVersion } from './restore-version'

type Entry = Awaited<ReturnType<ComplibClient['components']['history']>>['items'][number]

const OPS: Record<Entry['op'], string> = { create: 'created', update: 'changed', delete: 'deleted', restore: 'restored' }

/**
 * The component's versions, newest first: who, how and why, what each
 * changed against the version before it, and (for those who may change the
 * library) a way back to any earlier version.
 */
export function History({ component }: { component: Component }) {
  const history = useQuery(componentQueries.history(component.id, component.version))
  const writer = useCan('library:write')
  const id = useId()
  const items = history.data?.items ?? []
  const byVersion = new Map(items.map((h) => [h.version, h]))
  return (
    <section aria-labelledby={`${id}-h`} className="history-section">
      <h2 id={`${id}-h`}>History</h2>
      <ErrorBox error={history.error} />
      <ol className="history" reversed>
        {items.map((h) => {
          const before = byVersion.get(h.version - 1)
          // The oldest entry of a long history has no predecessor here: its changed fields are named, not diffed.
          const changes = before ? diffVersions(before.snapshot, h.snapshot) : []
          return (
            <li key={h.seq} className="version">
              <div>
                <strong>Version {h.version}</strong> {h.revertedTo !== null ? `restored version ${h.revertedTo}` : OPS[h.op]}
                {h.actor && <> by {h.actor.name}</>}
                {h.channel && <span className="muted"> · {h.channel}</span>}{' '}
                <span className="muted" title={dateTime(h.at)}>
                  · {relativeTime(h.at)}
                </span>
              </div>
              {h.revertedTo !== null && <p className="reverted">Reverted to version {h.revertedTo}</p>}
              {h.comment && <q className="comment">{h.comment}</q>}
              {changes.length > 0 && (
                <ul className="diff" aria-label={`Changes in version ${h.version}`}>
                  {changes.map((c) => (
                    <li key={c.field}>
                      <span className="field">{c.label}:</span> <del>{c.before || '(empty)'}</del> → <ins>{c.after || '(empty)'}</ins>
                    </li>
                  ))}
                </ul>
              )}
              {!before && h.op === 'update' && h.changes.length > 0 && <p className="muted">Changed: {h.changes.join(', ')}</p>}
              {writer && h.version !== component.version && !component.deletedAt && <RestoreVersion component={component} version={h.version} />}
            </li>
          )
        })}
      </ol>
    </section>
  )
}
