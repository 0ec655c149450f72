import { useQuery } from '@tanstack/react-query'
import { importQueries } from '../../queries/imports'
import { ErrorBox } from '../../ui/error-box'
import { count } from '../../ui/format'
import type { ImportSession } from './session'

/** Rows of the outcome table (the server pages every row: GET /api/imports/:id/rows). */
const ROWS_SHOWN = 500

/** Every row's outcome as the server reads it (the session's preview holds only the first rows). */
export function RowOutcomes({ session }: { session: ImportSession }) {
  const outcomes = useQuery(importQueries.rows(session, ROWS_SHOWN))
  const rows = outcomes.data?.items ?? []
  return (
    <>
      <table className="simple">
        <caption className="visually-hidden">Outcome of every row</caption>
        <thead>
          <tr>
            <th scope="col">Row</th>
            <th scope="col">Outcome</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.row} className={r.outcome === 'invalid' ? 'invalid' : undefined}>
              <td>{r.row}</td>
              <td>{r.outcome}</td>
              <td>{r.errors.length ? r.errors.map((e) => `${e.field}: ${e.message}`).join('; ') : (r.name ?? r.ipn ?? '')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorBox error={outcomes.error} />
      {outcomes.data && outcomes.data.total > rows.length && (
        <p className="hint">
          The first {count(rows.length)} of {count(outcomes.data.total)} rows; every row's outcome is at GET /api/imports/{session.id}/rows.
        </p>
      )}
    </>
  )
}
