import type { SourceView } from '../../queries/sources'
import { fieldError } from '../../ui/error-box'
import type { ConfigField, ConfigValues } from './config-fields'

/**
 * One input per config field of the chosen type. A secret is a password
 * input whose placeholder is the hint of the one kept (`…9c21`): empty, it
 * keeps that value. The server's error for a field is shown under it.
 */
export function ConfigInputs(props: { fields: readonly ConfigField[]; values: ConfigValues; editing: SourceView | undefined; error: unknown; onChange: (name: string, value: string) => void }) {
  const { fields, values, editing, error, onChange } = props
  return (
    <div className="grid2">
      {fields.map((f) => {
        const hint = f.secret ? editing?.secretHints[f.name] : undefined
        const problem = fieldError(error, `body.config.${f.name}`)
        const common = {
          value: values[f.name] ?? '',
          'aria-invalid': problem ? true : undefined,
          onChange: (e: { target: { value: string } }) => onChange(f.name, e.target.value),
        }
        return (
          <label key={f.name}>
            {f.label}
            {f.required && !hint && <span className="required-mark"> (required)</span>}
            {f.kind === 'choice' ? (
              <select {...common} required={f.required}>
                {!f.required && <option value="">{f.placeholder ? `Default (${f.placeholder})` : '—'}</option>}
                {f.choices.map((c) => (
                  <option key={c} value={c}>
                    {f.boolean ? (c === 'true' ? 'yes' : 'no') : c}
                  </option>
                ))}
              </select>
            ) : (
              <input
                {...common}
                type={f.secret ? 'password' : f.kind === 'url' ? 'url' : f.kind === 'number' ? 'number' : 'text'}
                min={f.min}
                max={f.max}
                step={f.kind === 'number' ? (f.integer ? 1 : 'any') : undefined}
                // A kept secret need not be typed again: required only when none is set.
                required={f.required && !hint}
                placeholder={hint ? `${hint} (kept when left empty)` : f.placeholder}
                autoComplete={f.secret ? 'new-password' : 'off'}
                spellCheck={false}
              />
            )}
            {f.description && <span className="hint">{f.description}</span>}
            {problem && <span className="field-error">{problem}</span>}
          </label>
        )
      })}
    </div>
  )
}
