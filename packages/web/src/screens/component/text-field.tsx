import { useId } from 'react'

/** A labelled text input with an optional hint and the server's error for the field. */
export function TextField(props: {
  label: string
  value: string
  onChange: (v: string) => void
  required?: boolean
  hint?: string | undefined
  error?: string | undefined
  readOnly?: boolean | undefined
}) {
  const id = useId()
  return (
    <label htmlFor={id}>
      {props.label}
      <input id={id} readOnly={props.readOnly} value={props.value} required={props.required} aria-invalid={props.error ? true : undefined} aria-describedby={props.error ? `${id}-err` : undefined} onChange={(e) => props.onChange(e.target.value)} />
      {props.hint && <span className="hint">{props.hint}</span>}
      {props.error && (
        <span className="field-error" id={`${id}-err`}>
          {props.error}
        </span>
      )}
    </label>
  )
}
