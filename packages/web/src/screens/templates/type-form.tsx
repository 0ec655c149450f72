import type { ParameterType } from '@complib/client-sdk'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { api } from '../../api'
import { parameterTypesChanged } from '../../queries/templates'
import { ErrorBox, fieldError } from '../../ui/error-box'

type Kind = ParameterType['kind']

interface Form {
  name: string
  unit: string
  kind: Kind
  choices: string
  min: string
  max: string
  description: string
}

const KIND_WORDS: Record<Kind, string> = { number: 'number (with SI prefix: 10k, 4.7u)', choice: 'one of a list', text: 'any text' }

function _toForm(t: ParameterType | undefined): Form {
  return {
    name: t?.name ?? '',
    unit: t?.unit ?? '',
    kind: t?.kind ?? 'number',
    choices: (t?.choices ?? []).join('\n'),
    min: t?.min == null ? '' : String(t.min),
    max: t?.max == null ? '' : String(t.max),
    description: t?.description ?? '',
  }
}

/** The body the API takes: choices only for `choice`, limits only for `number` (the others sent as null, so a kind change clears them). */
function _toBody(f: Form) {
  const number = (s: string) => (s.trim() === '' ? null : _siNumber(s.trim()))
  return {
    name: f.name.trim(),
    unit: f.unit.trim() || null,
    kind: f.kind,
    choices:
      f.kind === 'choice'
        ? f.choices
            .split('\n')
            .map((c) => c.trim())
            .filter(Boolean)
        : null,
    min: f.kind === 'number' ? number(f.min) : null,
    max: f.kind === 'number' ? number(f.max) : null,
    description: f.description.trim() || null,
  }
}

const SI: Record<string, number> = { p: 1e-12, n: 1e-9, u: 1e-6, µ: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9 }

/**
 * A limit as typed (`10k`, `4.7u`, `-40`) as the number the API stores; text that
 * is none goes as typed, so the server's 400 names `body.min` or `body.max`.
 */
function _siNumber(text: string): number {
  const m = /^([-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)\s*([pnuµmkMG]?)$/.exec(text)
  return m ? Number(m[1]) * (m[2] ? SI[m[2]]! : 1) : (text as unknown as number)
}

/** Creates a parameter type, or changes one (`type`) with If-Match; the server's field errors are shown at their fields. */
export function TypeForm({ type, onDone }: { type: ParameterType | undefined; onDone: () => void }) {
  const queryClient = useQueryClient()
  const [form, setForm] = useState<Form>(() => _toForm(type))
  const id = useId()
  const save = useMutation({
    mutationFn: () => (type ? api().parameterTypes.patch(type.id, _toBody(form), { ifMatch: type.version }) : api().parameterTypes.create(_toBody(form))),
    onSuccess: () => {
      void parameterTypesChanged(queryClient)
      onDone()
    },
  })
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.mutate()
  }
  const err = (field: string) => fieldError(save.error, `body.${field}`)
  const field = (name: keyof Form, label: string, props: { placeholder?: string; inputMode?: 'decimal' } = {}) => (
    <label htmlFor={`${id}-${name}`}>
      {label}
      <input id={`${id}-${name}`} value={form[name]} onChange={(e) => set({ [name]: e.target.value })} aria-invalid={err(name) ? true : undefined} {...props} />
      {err(name) && <span className="field-error">{err(name)}</span>}
    </label>
  )
  return (
    <form className="type-form" onSubmit={submit} aria-label={type ? `Edit ${type.name}` : 'New parameter type'}>
      {field('name', 'Name', { placeholder: 'Resistance' })}
      {field('unit', 'Unit', { placeholder: 'Ω' })}
      <label htmlFor={`${id}-kind`}>
        Kind
        <select id={`${id}-kind`} value={form.kind} onChange={(e) => set({ kind: e.target.value as Kind })}>
          {(Object.keys(KIND_WORDS) as Kind[]).map((k) => (
            <option key={k} value={k}>
              {KIND_WORDS[k]}
            </option>
          ))}
        </select>
      </label>
      {form.kind === 'number' && (
        <>
          {field('min', 'Smallest value', { placeholder: 'no limit', inputMode: 'decimal' })}
          {field('max', 'Largest value', { placeholder: 'no limit', inputMode: 'decimal' })}
        </>
      )}
      {form.kind === 'choice' && (
        <label htmlFor={`${id}-choices`} className="wide">
          Choices, one a line
          <textarea id={`${id}-choices`} rows={4} value={form.choices} onChange={(e) => set({ choices: e.target.value })} aria-invalid={err('choices') ? true : undefined} placeholder={'X7R\nC0G\nX5R'} />
          {err('choices') && <span className="field-error">{err('choices')}</span>}
        </label>
      )}
      <div className="wide">{field('description', 'Description (optional)')}</div>
      <div className="wide">
        <ErrorBox error={save.error} title="Not saved" />
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            {type ? 'Save type' : 'Add type'}
          </button>
          <button type="button" onClick={onDone}>
            Cancel
          </button>
        </div>
      </div>
    </form>
  )
}
