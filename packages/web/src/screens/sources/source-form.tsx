import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useMemo, useState, type FormEvent } from 'react'
import { api } from '../../api'
import { sourcesChanged, type SourceType, type SourceView } from '../../queries/sources'
import { ErrorBox, fieldError } from '../../ui/error-box'
import { configFields, initialValues, toConfig, type ConfigValues } from './config-fields'
import { ConfigInputs } from './config-inputs'
import { TypeInfo } from './type-info'

/**
 * A new source (its type chosen here) or a change of one (admins). The
 * config's fields are drawn from the type's JSON Schema; the server merges an
 * edit into the kept config, so a secret left empty stays as it was.
 */
export function SourceForm({ types, editing, onSaved, onCancel }: { types: readonly SourceType[]; editing: SourceView | undefined; onSaved: (s: SourceView) => void; onCancel: () => void }) {
  const queryClient = useQueryClient()
  const [typeName, setTypeName] = useState(editing?.type ?? types[0]?.type ?? '')
  const type = types.find((t) => t.type === typeName)
  const { fields, unsupported } = useMemo(() => (type ? configFields(type) : { fields: [], unsupported: [] }), [type])
  const [name, setName] = useState(editing?.name ?? type?.title ?? '')
  const [values, setValues] = useState<ConfigValues>(() => initialValues(fields, editing))
  const save = useMutation({
    mutationFn: () => {
      const config = toConfig(fields, values, editing)
      if (editing) return api().sources.patch(editing.id, { name: name.trim(), config }, { ifMatch: editing.version })
      return api().sources.create({ type: typeName, name: name.trim(), config })
    },
    onSuccess: (s) => {
      void sourcesChanged(queryClient)
      onSaved(s)
    },
  })
  const id = useId()

  const pickType = (next: string) => {
    const t = types.find((x) => x.type === next)
    // A name still the previous type's title follows the type; one typed by hand stays.
    if (!name.trim() || name === type?.title) setName(t?.title ?? '')
    setTypeName(next)
    setValues(t ? initialValues(configFields(t).fields) : {})
    save.reset()
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.mutate()
  }

  return (
    <form className="form source-form" onSubmit={submit} aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{editing ? `Edit ${editing.name}` : 'New source'}</h2>
      <ErrorBox error={save.error} title="Not saved" />
      <div className="grid2">
        <label>
          Type
          <select value={typeName} onChange={(e) => pickType(e.target.value)} disabled={!!editing}>
            {types.map((t) => (
              <option key={t.type} value={t.type}>
                {t.title}
              </option>
            ))}
          </select>
          {editing && <span className="hint">A source keeps its type; add another for a different one.</span>}
        </label>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} aria-invalid={fieldError(save.error, 'body.name') ? true : undefined} />
          <span className="hint">How the library names where a field or an offer came from.</span>
        </label>
      </div>
      {type && <TypeInfo type={type} />}
      <fieldset>
        <legend>{type?.title ?? 'Source'} settings</legend>
        <ConfigInputs fields={fields} values={values} editing={editing} error={save.error} onChange={(n, v) => setValues((old) => ({ ...old, [n]: v }))} />
        {unsupported.length > 0 && <p className="hint">Also set through the API: {unsupported.join(', ')}.</p>}
      </fieldset>
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending || !type}>
          {save.isPending ? 'Saving…' : editing ? 'Save source' : 'Create source'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
