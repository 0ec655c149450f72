import { useId } from 'react'
import type { CategoryTemplate } from '../../queries/templates'
import { siNumber } from '../../ui/format'

/** A number's limits as the type gives them, for the hint. */
function _limits(t: CategoryTemplate & { min?: number | null; max?: number | null }): string {
  const unit = t.unit ?? ''
  if (t.min != null && t.max != null) return `${siNumber(t.min)} to ${siNumber(t.max)} ${unit}`.trim()
  if (t.min != null) return `at least ${siNumber(t.min)} ${unit}`.trim()
  if (t.max != null) return `at most ${siNumber(t.max)} ${unit}`.trim()
  return ''
}

/**
 * One parameter a category's template asks for: a number with its unit beside
 * it, a choice as a select (a value that is no longer a choice stays
 * selectable, marked), text as text; required ones marked. The server's
 * error for this parameter is shown under it.
 */
export function TemplateField(props: {
  template: CategoryTemplate & { min?: number | null; max?: number | null }
  value: string
  onChange: (value: string) => void
  error: string | undefined
  readOnly: boolean
}) {
  const { template: t, value, error } = props
  const id = useId()
  const described = [error ? `${id}-err` : '', `${id}-hint`].filter(Boolean).join(' ')
  const common = { id, 'aria-invalid': error ? true : undefined, 'aria-required': t.required || undefined, 'aria-describedby': described }
  const limits = t.kind === 'number' ? _limits(t) : ''
  const hint = [t.kind === 'number' ? `a number (10k, 4.7u)${t.unit ? ` in ${t.unit}` : ''}` : t.kind === 'choice' ? 'one of the list' : 'text', limits, t.isValue ? "KiCad's Value" : ''].filter(Boolean).join(' · ')
  const outside = t.kind === 'choice' && value && !(t.choices ?? []).some((c) => c.toLowerCase() === value.toLowerCase())
  // The label names the parameter only; the hint and the error are its description.
  return (
    <div className="template-field">
      <label htmlFor={id}>
        {t.parameterType}
        {t.required && (
          <span className="required-mark" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {t.kind === 'choice' ? (
        <select {...common} value={value} disabled={props.readOnly} onChange={(e) => props.onChange(e.target.value)}>
          <option value="">—</option>
          {outside && <option value={value}>{value} (not a choice)</option>}
          {(t.choices ?? []).map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      ) : (
        <span className="with-unit">
          <input {...common} value={value} readOnly={props.readOnly} onChange={(e) => props.onChange(e.target.value)} />
          {t.kind === 'number' && t.unit && <span aria-hidden="true">{t.unit}</span>}
        </span>
      )}
      <span className="hint" id={`${id}-hint`}>
        {hint}
      </span>
      {error && (
        <span className="field-error" id={`${id}-err`}>
          {error}
        </span>
      )}
    </div>
  )
}
