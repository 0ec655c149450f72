import { count } from '../../ui/format'
import type { ImportSession } from './session'

/** The file as detected, and what committing it would do. */
export function ImportSummary({ session }: { session: ImportSession }) {
  return (
    <p aria-live="polite">
      <strong>{session.fileName ?? 'Upload'}</strong>: detected <strong>{session.format.toUpperCase()}</strong>, {count(session.rowCount)} rows. Committing would create{' '}
      <strong>{count(session.summary.create)}</strong>, update <strong>{count(session.summary.update)}</strong>
      {session.summary.invalid > 0 ? (
        <>
          ; <strong>{count(session.summary.invalid)}</strong> {session.summary.invalid === 1 ? 'row is' : 'rows are'} invalid: fix the file or the mapping to commit.
        </>
      ) : (
        '.'
      )}
    </p>
  )
}
