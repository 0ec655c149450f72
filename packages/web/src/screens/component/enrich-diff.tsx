import type { EnrichChange, EnrichField } from '../../queries/offers'
import { diffLines, fieldName } from './enrich-values'
import { ValueLines } from '../../ui/value-lines'

/**
 * A dry run's differences, field by field: what the library holds, what the
 * source gives (new lines marked), and a checkbox to apply each. A field the
 * server would refuse (its `note` says why) cannot be chosen.
 */
export function EnrichDiff(props: { changes: readonly EnrichChange[]; sourceName: string; selected: ReadonlySet<EnrichField>; onToggle: (field: EnrichField, on: boolean) => void }) {
  const { changes, selected, onToggle } = props
  return (
    <table className="simple enrich-diff">
      <caption className="visually-hidden">Differences with {props.sourceName}</caption>
      <thead>
        <tr>
          <th scope="col">Field (ticked: applied)</th>
          <th scope="col">In the library</th>
          <th scope="col">From {props.sourceName}</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => {
          const lines = diffLines(c.field, c.current, c.proposed)
          return (
            <tr key={c.field} className={c.note ? 'blocked' : undefined}>
              <th scope="row">
                <label>
                  <input type="checkbox" checked={selected.has(c.field)} disabled={!!c.note} onChange={(e) => onToggle(c.field, e.target.checked)} aria-describedby={c.note ? `note-${c.field}` : undefined} />
                  {fieldName(c.field)}
                </label>
                {c.note && (
                  <span className="hint" id={`note-${c.field}`}>
                    Not applicable: {c.note}.
                  </span>
                )}
              </th>
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
