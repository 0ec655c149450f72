/** The keys of a row whose values are text (a row may carry flags beside them). */
type TextKey<R> = { [K in keyof R]-?: R[K] extends string ? K : never }[keyof R] & string

/** Rows of small text fields (parameters, MPNs): add, edit, remove; only shown when `readOnly`. */
export function RowsEditor<R extends object>(props: {
  legend: string
  rows: R[]
  fields: Array<{ key: TextKey<R>; label: string; placeholder?: string }>
  empty: R
  onChange: (rows: R[]) => void
  error?: string | undefined
  /** The server's error for one row, by index (shown under it). */
  rowErrors?: ReadonlyMap<number, string>
  /** A remark on one row, by index (shown under it). */
  rowNotes?: ReadonlyMap<number, string>
  hint?: string | undefined
  readOnly?: boolean
}) {
  const { rows, onChange } = props
  return (
    <fieldset className="rows">
      <legend>{props.legend}</legend>
      {props.hint && <p className="hint">{props.hint}</p>}
      {rows.length === 0 && <p className="muted">None.</p>}
      {rows.map((row, i) => (
        <div className="row" key={i}>
          {props.fields.map((f) => (
            <label key={f.key}>
              <span className="visually-hidden">
                {props.legend} {i + 1}:{' '}
              </span>
              {f.label}
              <input readOnly={props.readOnly} aria-invalid={props.rowErrors?.has(i) ? true : undefined} value={row[f.key] as string} placeholder={f.placeholder} onChange={(e) => onChange(rows.map((r, j) => (j === i ? { ...r, [f.key]: e.target.value } : r)))} />
            </label>
          ))}
          {!props.readOnly && (
            <button type="button" onClick={() => onChange(rows.filter((_, j) => j !== i))} aria-label={`Remove ${props.legend.toLowerCase()} row ${i + 1}`}>
              Remove
            </button>
          )}
          {props.rowErrors?.get(i) && <span className="field-error row-error">{props.rowErrors.get(i)}</span>}
          {props.rowNotes?.get(i) && <span className="hint row-error">{props.rowNotes.get(i)}</span>}
        </div>
      ))}
      {!props.readOnly && (
        <button type="button" onClick={() => onChange([...rows, { ...props.empty }])}>
          Add {props.legend.toLowerCase().replace(/s$/, '')}
        </button>
      )}
      {props.error && <p className="field-error">{props.error}</p>}
    </fieldset>
  )
}
