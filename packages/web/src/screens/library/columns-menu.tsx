import { COLUMNS } from './columns'

/** Which columns the table shows; at least one stays. */
export function ColumnsMenu({ shown, onToggle }: { shown: string[]; onToggle: (id: string, on: boolean) => void }) {
  return (
    <details className="menu">
      <summary>Columns</summary>
      <fieldset>
        <legend>Shown columns</legend>
        {COLUMNS.map((c) => (
          <label key={c.id}>
            <input type="checkbox" checked={shown.includes(c.id)} onChange={(e) => onToggle(c.id, e.target.checked)} /> {c.label}
          </label>
        ))}
      </fieldset>
    </details>
  )
}
