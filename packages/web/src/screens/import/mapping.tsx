import { TARGETS, type ImportSession, type Target } from './session'

/** What each column of the file becomes; a change is sent at once and the outcomes read again. */
export function ColumnMapping({ session, busy, onChange }: { session: ImportSession; busy: boolean; onChange: (mapping: Record<string, Target>) => void }) {
  return (
    <fieldset>
      <legend>Column mapping</legend>
      <div className="grid2">
        {session.columns.map((col) => (
          <label key={col}>
            Column “{col}”
            <select value={session.mapping[col] ?? 'ignore'} disabled={session.status === 'committed' || busy} onChange={(e) => onChange({ ...session.mapping, [col]: e.target.value as Target })}>
              {TARGETS.map((t) => (
                <option key={t} value={t}>
                  {t === 'parameter' ? `parameter “${col}”` : t}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
    </fieldset>
  )
}
