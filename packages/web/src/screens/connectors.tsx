import { useQuery } from '@tanstack/react-query'
import { useCan } from '../queries/auth'
import { connectorQueries } from '../queries/connectors'
import { href } from '../router'
import { cronInWords } from '../ui/cron-words'
import { ErrorBox } from '../ui/error-box'
import { dateTime, relativeTime } from '../ui/format'

/** Every connector: where it sends, its schedule and when it runs next. */
export default function ConnectorsScreen() {
  const list = useQuery(connectorQueries.list())
  const admin = useCan('connectors:admin')
  return (
    <section>
      <div className="screen-head">
        <h1>Connectors</h1>
        <p className="muted">Push the library to other systems as signed webhook batches.</p>
        {admin && (
          <div className="actions">
            <a className="button primary" href={href('/connectors/new')}>
              New connector
            </a>
          </div>
        )}
      </div>
      <ErrorBox error={list.error} />
      <table className="simple">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Sends to</th>
            <th scope="col">Schedule</th>
            <th scope="col">Next run</th>
            <th scope="col">Enabled</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.length === 0 && (
            <tr>
              <td colSpan={5} className="muted">
                No connectors yet.{' '}
                {admin ? (
                  <>
                    <a href={href('/connectors/new')}>Create one</a> to push the library to a receiver.
                  </>
                ) : (
                  'An admin creates them.'
                )}
              </td>
            </tr>
          )}
          {list.data?.items.map((c) => (
            <tr key={c.id}>
              <td>
                <a href={href(`/connectors/${c.id}`)}>{c.name}</a>
              </td>
              <td>
                <code>{String(c.config.url ?? c.type)}</code>
              </td>
              <td>{typeof c.config.cron === 'string' ? cronInWords(c.config.cron) : 'manual only'}</td>
              <td title={dateTime(c.nextRunAt)}>{c.nextRunAt ? relativeTime(c.nextRunAt) : '—'}</td>
              <td>{c.enabled ? 'yes' : 'no'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
