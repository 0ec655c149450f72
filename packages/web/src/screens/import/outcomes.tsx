import type { ImportRowOutcome } from '@complib/client-sdk'
import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { api } from '../../api'
import { importKeys } from '../../queries/imports'
import { ErrorBox } from '../../ui/error-box'
import { count } from '../../ui/format'
import { diffLines, fieldName } from '../component/enrich-values'
import type { ImportSession } from './session'
import { ValueLines } from '../../ui/value-lines'

/** Rows of the outcome table (the server pages every row: GET /api/imports/:id/rows). */
const ROWS_SHOWN = 500

type Outcome = 'create' | 'update' | 'unchanged' | 'invalid'
type Shown = 'all' | Outcome
/** The rows of one outcome, said of rows of a file or parts of a pull. */
const SHOWN: Record<Outcome, (rows: string) => string> = {
  invalid: (rows) => `invalid ${rows}`,
  update: (rows) => `${rows} to update`,
  create: (rows) => `${rows} to create`,
  unchanged: (rows) => `${rows} left as they are`,
}

/**
 * Which rows the table starts with: every row, unless some are left as they
 * are beside others that change (a re-sync of a peer: a few updates among
 * hundreds unchanged), then the ones to look at first.
 */
function firstShown(s: ImportSession['summary']): Shown {
  if (s.unchanged === 0) return 'all'
  return s.invalid > 0 ? 'invalid' : s.update > 0 ? 'update' : s.create > 0 ? 'create' : 'all'
}

/**
 * Every row's outcome as the server reads it (the session's preview holds
 * only the first rows), or the rows of one outcome; an update shows each
 * field it changes, before and after.
 */
export function RowOutcomes({ session }: { session: ImportSession }) {
  const [shown, setShown] = useState<Shown>(() => firstShown(session.summary))
  const filterId = useId()
  const outcomes = useQuery({
    queryKey: [...importKeys.rows(session.id, session.version), ROWS_SHOWN, shown],
    queryFn: () => api().imports.rows(session.id, { limit: ROWS_SHOWN, ...(shown === 'all' ? {} : { outcome: shown }) }),
  })
  const rows = outcomes.data?.items ?? []
  const s = session.summary
  // A pull's rows are the peer's parts, numbered from 1 (the server numbers rows as a spreadsheet would, from 2).
  const pull = session.preset === 'pull'
  const noun = pull ? 'parts' : 'rows'
  const offered = (Object.keys(SHOWN) as Outcome[]).filter((o) => s[o] > 0 || o === shown)
  return (
    <>
      {offered.length > 1 && (
        <p className="row-filter">
          <label htmlFor={filterId}>Show</label>{' '}
          <select id={filterId} value={shown} onChange={(e) => setShown(e.target.value as Shown)}>
            <option value="all">every {pull ? 'part' : 'row'}</option>
            {offered.map((o) => (
              <option key={o} value={o}>
                {SHOWN[o](noun)} ({count(s[o])})
              </option>
            ))}
          </select>
        </p>
      )}
      <table className="simple import-rows">
        <caption className="visually-hidden">Outcome of {shown === 'all' ? `every ${pull ? 'part' : 'row'}` : `the ${SHOWN[shown](noun)}`}</caption>
        <thead>
          <tr>
            <th scope="col">{pull ? 'Part' : 'Row'}</th>
            <th scope="col">Outcome</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.row} className={r.outcome === 'invalid' ? 'invalid' : undefined}>
              <td>{pull ? r.row - 1 : r.row}</td>
              <td>{r.outcome}</td>
              <td>
                {r.errors.length ? r.errors.map((e) => `${e.field}: ${e.message}`).join('; ') : (r.name ?? r.ipn ?? '')}
                {r.outcome === 'update' && r.changes.length > 0 && <Changes changes={r.changes} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorBox error={outcomes.error} />
      {outcomes.data && outcomes.data.total > rows.length && (
        <p className="hint">
          The first {count(rows.length)} of {count(outcomes.data.total)} {noun}; every row's outcome is at GET /api/imports/{session.id}/rows.
        </p>
      )}
    </>
  )
}

type Change = ImportRowOutcome['changes'][number]

/** What an update changes, field by field: the stored value and the one after the commit, the lines that differ marked. */
function Changes({ changes }: { changes: readonly Change[] }) {
  return (
    <table className="import-changes">
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Now</th>
          <th scope="col">After the commit</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => {
          const lines = diffLines(c.field, c.before, c.after)
          return (
            <tr key={c.field}>
              <th scope="row">{fieldName(c.field)}</th>
              <td>
                <ValueLines lines={lines.current} mark="del" />
              </td>
              <td>
                <ValueLines lines={lines.proposed} mark="ins" />
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
