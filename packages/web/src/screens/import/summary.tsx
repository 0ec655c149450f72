import { count, plural } from '../../ui/format'
import type { ImportSession } from './session'

/**
 * The file as detected, and where it is: a job's progress, what committing
 * would do, or, once committed, what it did (at the top, above the rows), or
 * why the commit failed.
 */
export function ImportSummary({ session }: { session: ImportSession }) {
  const file = (
    <>
      <strong>{session.fileName ?? 'Upload'}</strong>: detected <strong>{session.format.toUpperCase()}</strong>, {plural(session.rowCount, 'row')}.
    </>
  )
  if (session.status === 'committed') {
    const r = session.result
    return (
      <p role="status" className="ok" aria-live="polite">
        {file} Imported: <strong>{count(r?.created ?? 0)}</strong> created, <strong>{count(r?.updated ?? 0)}</strong> updated
        {r?.unchanged ? <>, {count(r.unchanged)} already as the file says</> : null}.
      </p>
    )
  }
  return (
    <>
      {session.progress && <ImportProgress session={session} />}
      {session.status === 'failed' && session.failure && (
        <p role="alert" className="error-box">
          The commit did not happen: {session.failure}
        </p>
      )}
      {session.status !== 'planning' && (
        <p aria-live="polite">
          {file} Committing would create <strong>{count(session.summary.create)}</strong>, update <strong>{count(session.summary.update)}</strong>
          {session.summary.invalid > 0 ? (
            <>
              ; <strong>{count(session.summary.invalid)}</strong> {session.summary.invalid === 1 ? 'row is' : 'rows are'} invalid: fix the file or the mapping to commit.
            </>
          ) : (
            '.'
          )}
        </p>
      )}
    </>
  )
}

const PHASES = { pulling: 'Pulling parts from the peer', reading: 'Reading', planning: 'Planning', committing: 'Committing', undoing: 'Undoing the commit' } as const

/** A job's progress: which phase, how many rows (or parts) of how many. */
function ImportProgress({ session }: { session: ImportSession }) {
  const p = session.progress!
  const label = `${PHASES[p.phase]}: ${count(p.done)} of ${count(p.total)}`
  return (
    <p role="status" aria-live="polite" >
      <label>
        {label}
        <progress max={Math.max(1, p.total)} value={p.done} aria-label={label} />
      </label>
    </p>
  )
}
