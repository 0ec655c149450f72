import type { ParameterType } from '@complib/client-sdk'
import { useQuery } from '@tanstack/react-query'
import { Fragment, useState } from 'react'
import { templateQueries } from '../../queries/templates'
import { ErrorBox } from '../../ui/error-box'
import { siNumber } from '../../ui/format'
import { TypeForm } from './type-form'

/** What values a type takes, in words: "number, 1 to 10M Ω", "one of X7R, C0G". */
export function kindInWords(t: Pick<ParameterType, 'kind' | 'unit' | 'choices'> & Partial<Pick<ParameterType, 'min' | 'max'>>): string {
  if (t.kind === 'choice') return `one of ${(t.choices ?? []).join(', ')}`
  if (t.kind === 'text') return 'text'
  const unit = t.unit ? ` ${t.unit}` : ''
  const min = t.min == null ? null : siNumber(t.min)
  const max = t.max == null ? null : siNumber(t.max)
  if (min !== null && max !== null) return `number, ${min} to ${max}${unit}`
  if (min !== null) return `number, at least ${min}${unit}`
  if (max !== null) return `number, at most ${max}${unit}`
  return `number${unit ? ` in${unit}` : ''}`
}

/** Every parameter type with its kind, unit and limits; writers edit one in place or add one. */
export function ParameterTypes({ writer }: { writer: boolean }) {
  const types = useQuery(templateQueries.parameterTypes())
  const [editing, setEditing] = useState<string>()
  return (
    <section className="panel" aria-labelledby="types-h">
      <h2 id="types-h">Parameter types</h2>
      <ErrorBox error={types.error} />
      {types.data?.length === 0 && <p className="muted">No parameter types yet: a parameter written with a new name is free-form text until a type says otherwise.</p>}
      {!!types.data?.length && (
        <table className="simple">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Takes</th>
              {writer && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {types.data.map((t) => (
              <Fragment key={t.id}>
                <tr>
                  <th scope="row">{t.name}</th>
                  <td>{kindInWords(t)}</td>
                  {writer && (
                    <td>
                      <button type="button" onClick={() => setEditing(editing === t.id ? undefined : t.id)} aria-expanded={editing === t.id} aria-label={`Edit ${t.name}`}>
                        Edit
                      </button>
                    </td>
                  )}
                </tr>
                {editing === t.id && (
                  <tr>
                    <td colSpan={3}>
                      <TypeForm key={`${t.id}:${t.version}`} type={t} onDone={() => setEditing(undefined)} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
      {writer &&
        (editing === 'new' ? (
          <TypeForm type={undefined} onDone={() => setEditing(undefined)} />
        ) : (
          <button type="button" onClick={() => setEditing('new')}>
            New parameter type
          </button>
        ))}
    </section>
  )
}
