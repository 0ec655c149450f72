import { plural } from '../../ui/format'
import { TARGETS, type ImportSession, type Target } from './session'

/**
 * What each column of the file becomes; a change is sent at once and the
 * outcomes read again. Warnings about the mapping show beside the column they
 * name (or above, for the mapping as a whole). A column the recognised
 * format does not know says what became of it: a peer's preset ignores it, a
 * plain spreadsheet makes it a parameter (decision 0643); either can be changed.
 * The columns the format knows and leaves out (a peer's full export has a
 * hundred and more) fold under one line, open on demand.
 */
export function ColumnMapping({ session, busy, onChange }: { session: ImportSession; busy: boolean; onChange: (mapping: Record<string, Target>) => void }) {
  const locked = session.status === 'committed' || session.status === 'planning' || session.status === 'committing' || busy
  const general = session.warnings.filter((w) => w.column === null)
  const unknown = new Set(session.unknownColumns)
  const warned = new Set(session.warnings.map((w) => w.column))
  const folded = (col: string) => (session.mapping[col] ?? 'ignore') === 'ignore' && !unknown.has(col) && !warned.has(col)
  const noted = (col: string) => unknown.has(col) || warned.has(col)
  const shown = _grouped(session.columns.filter((col) => !folded(col)), session.mapping, noted)
  const ignored = _grouped(session.columns.filter(folded), session.mapping, noted)
  const field = (entry: string | ListGroup) => {
    if (typeof entry !== 'string') return group(entry)
    const col = entry
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
  }
  // A list flattened into columns (Part-DB's partLots.0.amount, partLots.1.amount, …) is one choice.
  const group = ({ prefix, columns }: ListGroup) => {
    const target = session.mapping[columns[0]!] ?? 'ignore'
    return (
      <label key={`${prefix}.*`}>
        Columns “{prefix}.*” ({columns.length})
        <select
          value={target}
          disabled={locked}
          onChange={(e) => onChange({ ...session.mapping, ...Object.fromEntries(columns.map((c) => [c, e.target.value as Target])) })}
        >
          {TARGETS.filter((t) => t !== 'parameter' && t !== 'parameterUnit').map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
    )
  }
  return (
    <fieldset className="column-mapping">
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
      <div className="grid2">{shown.map(field)}</div>
      {ignored.length > 0 && (
        <details className="ignored-columns">
          <summary>
            {plural(ignored.length, 'column')} the {session.preset === 'spreadsheet' ? 'mapping' : `${session.preset} format`} leaves out
          </summary>
          <div className="grid2">{ignored.map(field)}</div>
        </details>
      )}
    </fieldset>
  )
}

/** Columns of one flattened list (`prefix.N.key`) that share one target. */
interface ListGroup {
  prefix: string
  columns: string[]
}

/**
 * The columns in file order, the columns of each flattened list that all have
 * one target (and no note of their own) gathered where the list's first one is.
 */
function _grouped(columns: readonly string[], mapping: Readonly<Record<string, Target>>, noted: (column: string) => boolean): Array<string | ListGroup> {
  const byPrefix = new Map<string, string[]>()
  for (const c of columns) {
    const prefix = /^([^.]+)\.\d+\./.exec(c)?.[1]
    if (prefix !== undefined && !noted(c)) byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), c])
  }
  const groups = new Map<string, ListGroup>()
  for (const [prefix, cols] of byPrefix) {
    const target = mapping[cols[0]!]
    if (cols.length > 1 && target !== 'parameter' && cols.every((c) => mapping[c] === target)) groups.set(prefix, { prefix, columns: cols })
  }
  const out: Array<string | ListGroup> = []
  const placed = new Set<string>()
  for (const c of columns) {
    const prefix = /^([^.]+)\.\d+\./.exec(c)?.[1]
    const g = prefix === undefined || noted(c) ? undefined : groups.get(prefix)
    if (!g) out.push(c)
    else if (!placed.has(g.prefix)) {
      placed.add(g.prefix)
      out.push(g)
    }
  }
  return out
}

/** What became of a column the format does not know, as the mapping now stands. */
function _unknownNote(session: ImportSession, col: string): string {
  const target = session.mapping[col] ?? 'ignore'
  if (target === 'ignore') return 'Not recognised: ignored. Choose a field to keep it.'
  if (target === 'parameter') return `Not recognised: kept as the parameter “${col}”.`
  return `Not recognised by the format: mapped to ${target} by you.`
}
