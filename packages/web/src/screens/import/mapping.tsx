import { TARGETS, type ImportSession, type Target } from './session'

/**
 * What each column of the file becomes; a change is sent at once and the
 * outcomes read again. Warnings about the mapping show beside the column they
 * name (or above, for the mapping as a whole).
 */
export function ColumnMapping({ session, busy, onChange }: { session: ImportSession; busy: boolean; onChange: (mapping: Record<string, Target>) => void }) {
  const locked = session.status === 'committed' || session.status === 'planning' || session.status === 'committing' || busy
  const general = session.warnings.filter((w) => w.column === null)
  return (
    <fieldset>
      <legend>Column mapping</legend>
      {general.map((w) => (
        <p key={w.message} className="hint" role="note">
          ⚠ {w.message}
        </p>
      ))}
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
