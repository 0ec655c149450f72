import type { Component } from '@complib/client-sdk'
import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { componentQueries } from '../../queries/components'
import { ErrorBox } from '../../ui/error-box'
import { dateTime, relativeTime } from '../../ui/format'

/** The component's versions, newest first, with the fields each update changed. */
export function History({ component }: { component: Component }) {
  const history = useQuery(componentQueries.history(component.id, component.version))
  const id = useId()
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>History</h2>
      <ErrorBox error={history.error} />
      <ol className="history" reversed>
        {history.data?.items.map((h) => (
          <li key={h.seq}>
            <strong>
              Version {h.version}: {h.op}
            </strong>{' '}
            <span className="muted" title={dateTime(h.at)}>
              {relativeTime(h.at)}
            </span>
            {h.op === 'update' && h.changes.length > 0 && (
              <ul>
                {h.changes.map((field) => (
                  <li key={field}>
                    <code>{field}</code> → {_show((h.snapshot as Record<string, unknown>)[field])}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </section>
  )
}

function _show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)'
  if (Array.isArray(value))
    return (
      value
        .map((v) => (typeof v === 'object' && v ? Object.values(v as Record<string, unknown>).filter((x) => x !== null).join(' ') : String(v)))
        .join(', ') || '(none)'
    )
  return String(value)
}
