import { useCan } from '../../queries/auth'
import { href } from '../../router'
import { count, plural } from '../../ui/format'
import type { ImportSession } from './session'

/** A pull of a peer's library (decision 1609): `fileName` names the source it came from. */
export function isPull(session: ImportSession): boolean {
  return session.preset === 'pull'
}

/** A pull that failed before anything was planned (the peer refused, or could not be read): nothing to preview or commit. */
export function pullFailed(session: ImportSession): boolean {
  const s = session.summary
  return isPull(session) && session.status === 'failed' && s.create + s.update + s.unchanged + s.invalid === 0
}

/**
 * The file as detected (or the peer a pull read), and where it is: a job's
 * progress, what committing would do, or, once committed, what it did (at
 * the top, above the rows), or why the commit (or the pull) failed.
 */
export function ImportSummary({ session }: { session: ImportSession }) {
  const pull = isPull(session)
  const admin = useCan('sources:admin')
  const file = pull ? (
    <>
      Pulled from <strong>{session.fileName ?? 'the peer'}</strong>: {plural(session.rowCount, 'part')}.
    </>
  ) : (
    <>
      <strong>{session.fileName ?? 'Upload'}</strong>: detected <strong>{session.format.toUpperCase()}</strong>, {plural(session.rowCount, 'row')}.
    </>
  )
  if (session.status === 'committed') {
    const r = session.result
    return (
      <p role="status" className="ok" aria-live="polite">
        {file} Imported: <strong>{count(r?.created ?? 0)}</strong> created, <strong>{count(r?.updated ?? 0)}</strong> updated
        {r?.unchanged ? <>, {count(r.unchanged)} {pull ? 'already up to date' : 'already as the file says'}</> : null}.
      </p>
    )
  }
  if (pullFailed(session)) {
    return (
      <>
        <p role="alert" className="error-box">
          Nothing was pulled from <strong>{session.fileName ?? 'the peer'}</strong>: {session.failure ?? 'the pull failed'}
        </p>
        {admin && (
          <p className="hint">
            URL or token wrong? Check the source on the <a href={href('/sources')}>Sources screen</a>, then pull again.
          </p>
        )}
      </>
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
          {session.summary.unchanged > 0 && <> and leave {count(session.summary.unchanged)} as {session.summary.unchanged === 1 ? 'it is' : 'they are'}</>}
          {session.summary.invalid > 0 ? (
            <>
              ; <strong>{count(session.summary.invalid)}</strong> {pull ? (session.summary.invalid === 1 ? 'part is' : 'parts are') : session.summary.invalid === 1 ? 'row is' : 'rows are'} invalid: {pull ? 'fix them at the peer and pull again' : 'fix the file or the mapping'} to commit.
            </>
          ) : (
            '.'
          )}
        </p>
      )}
    </>
  )
}

const PHASES = { pulling: 'Pulling parts', reading: 'Reading', planning: 'Planning', committing: 'Committing', undoing: 'Undoing the commit' } as const

/**
 * A job's progress: which phase, how many rows (or parts) of how many. A pull
 * names its peer; until the peer has said how many parts it holds, the bar
 * runs without a value (indeterminate) rather than saying "0 of 0".
 */
function ImportProgress({ session }: { session: ImportSession }) {
  const p = session.progress!
  const phase = p.phase === 'pulling' ? `${PHASES.pulling} from ${session.fileName ?? 'the peer'}` : PHASES[p.phase]
  const known = p.total > 0
  const label = known ? `${phase}: ${count(p.done)} of ${count(p.total)}` : `${phase}…`
  return (
    <p role="status" aria-live="polite">
      <label>
        {label}
        {known ? <progress max={p.total} value={p.done} aria-label={label} /> : <progress aria-label={label} />}
      </label>
    </p>
  )
}
