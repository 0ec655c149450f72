import type { DiffLine } from '../screens/component/enrich-values'

/** A value's lines in a before/after table; those the other side lacks marked as removed (`del`) or added (`ins`). */
export function ValueLines({ lines, mark }: { lines: DiffLine[]; mark: 'del' | 'ins' }) {
  if (lines.length === 0) return <span className="muted">(empty)</span>
  const Mark = mark
  return (
    <ul className="plain value-lines">
      {lines.map((l, i) => (
        <li key={i}>{l.changed ? <Mark>{l.text}</Mark> : l.text}</li>
      ))}
    </ul>
  )
}
