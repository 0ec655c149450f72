import { plural } from '../../ui/format'
import { TARGETS, type ImportSession, type Target } from './session'

/**
 * What each column of the file becomes; a change is sent at once and the
 * outcomes read again. Warnings about the mapping show beside the column they
 * name (or above, for the mapping as a whole). A column the recognised
 * format does not know says what became of it: a peer's preset ignores it, a
 * plain spreadsheet makes it a parameter (decision 0643); either can be changed.
 */
export function ColumnMapping({ session, busy, onChange }: { session: ImportSession; busy: boolean; onChange: (mapping: Record<string, Target>) => void }) {
  const locked = session.status === 'committed' || session.status === 'planning' || session.status === 'committing' || busy
  const general = session.warnings.filter((w) => w.column === null)
  const unknown = new Set(session.unknownColumns)
  return (
    <fieldset>
      <legend>Column mapping</legend>
      {general.map((w) => (
        <p key={w.message} className="hint" role="note">
          ⚠ {w.message}
        </p>
      ))}
      {unknown.size > 0 && (
        <p className="hint" role="note">
          {plural(unknown.size, 'column')} not recognised as {session.preset === 'spreadsheet' ? 'known fields' : `part of the ${session.preset} format`}: each says below what it becomes.
        </p>
      )}
      <div className="grid2">
        {session.columns.map((col) => {
          const warnings = session.warnings.filter((w) => w.column === col)
          return (
            <label key={col}>
              Column “{col}”
              <select value={session.mapping[col] ?? 'ignore'} disabled={locked} onChange={(e) => onChange({ ...session.mapping, [col]: e.target.value as Target })}>
                {TARGETS.map((t) => (
                  <option key={t} value={t}>
                    {t === 'parameter' ? `parameter “${col}”` : t}
                  </option>
                ))}
              </select>
              {unknown.has(col) && (
                <small className="hint" data-unknown-column={col}>
                  {_unknownNote(session, col)}
                </small>
              )}
              {warnings.map((w) => (
                <small key={w.message} className="hint" role="note">
                  ⚠ {w.message}
                </small>
              ))}
            </label>
          )
        })}
      </div>
    </fieldset>
  )
}

/** What became of a column the format does not know, as the mapping now stands. */
function _unknownNote(session: ImportSession, col: string): string {
  const target = session.mapping[col] ?? 'ignore'
  if (target === 'ignore') return 'Not recognised: ignored. Choose a field to keep it.'
  if (target === 'parameter') return `Not recognised: kept as the parameter “${col}”.`
  return `Not recognised by the format: mapped to ${target} by you.`
}
