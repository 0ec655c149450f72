import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useState } from 'react'
import { api, describeError } from '../../api'
import { templateKeys, templateQueries, templatesChanged, type CategoryTemplate } from '../../queries/templates'
import { ErrorBox } from '../../ui/error-box'
import { kindInWords } from './parameter-types'

/** One of the category's own templates as edited here. */
type Own = Pick<CategoryTemplate, 'parameterTypeId' | 'parameterType' | 'kind' | 'unit' | 'choices' | 'required' | 'isValue'>

/**
 * A category's templates: the inherited ones (from its ancestors, read only,
 * said where they come from), then its own, which writers add, remove,
 * reorder and mark required or as the value; saved all at once (PUT).
 */
export function CategoryTemplates({ writer }: { writer: boolean }) {
  const queryClient = useQueryClient()
  const categories = useQuery(templateQueries.categories())
  const types = useQuery(templateQueries.parameterTypes())
  const [categoryId, setCategoryId] = useState<string>()
  const chosen = categoryId ?? categories.data?.[0]?.id
  const templates = useQuery(templateQueries.forCategory(chosen))
  const [own, setOwn] = useState<Own[]>([])
  const [saved, setSaved] = useState(false)
  const [adding, setAdding] = useState('')
  const selectId = useId()
  const addId = useId()
  const mine = (templates.data ?? []).filter((t) => t.categoryId === chosen)
  useEffect(() => setOwn(mine), [templates.data, chosen])

  const save = useMutation({
    mutationFn: () => api().categories.setTemplates(chosen!, own.map((t) => ({ parameterType: t.parameterTypeId, required: t.required, isValue: t.isValue }))),
    onSuccess: (answer) => {
      queryClient.setQueryData(templateKeys.forCategory(chosen!), answer)
      setSaved(true)
      void templatesChanged(queryClient)
    },
  })
  const edit = (next: Own[]) => {
    setSaved(false)
    save.reset()
    setOwn(next)
  }
  const move = (i: number, by: number) => {
    const next = [...own]
    const [t] = next.splice(i, 1)
    next.splice(i + by, 0, t!)
    edit(next)
  }
  const add = () => {
    const t = types.data?.find((x) => x.id === adding)
    if (!t) return
    edit([...own, { parameterTypeId: t.id, parameterType: t.name, kind: t.kind, unit: t.unit, choices: t.choices, required: false, isValue: false }])
    setAdding('')
  }
  const rowError = (i: number) => describeError(save.error).fields.find((f) => f.path.startsWith(`body.templates[${i}]`))?.message
  const paths = new Map(categories.data?.map((c) => [c.id, c.path]))
  const inherited = (templates.data ?? []).filter((t) => t.categoryId !== chosen && !own.some((o) => o.parameterTypeId === t.parameterTypeId))
  const path = chosen ? paths.get(chosen) : undefined
  const changed = JSON.stringify(own) !== JSON.stringify(mine)
  const addable = (types.data ?? []).filter((t) => !own.some((o) => o.parameterTypeId === t.id))

  return (
    <section className="panel" aria-labelledby="cat-templates-h">
      <h2 id="cat-templates-h">Category templates</h2>
      <ErrorBox error={categories.error ?? templates.error} />
      {categories.data?.length === 0 && <p className="muted">No categories yet: a component's category makes one.</p>}
      {!!categories.data?.length && (
        <>
          <label htmlFor={selectId}>Category</label>
          <select id={selectId} value={chosen ?? ''} onChange={(e) => (setCategoryId(e.target.value), setSaved(false), save.reset())}>
            {categories.data.map((c) => (
              <option key={c.id} value={c.id}>
                {c.path}
              </option>
            ))}
          </select>
          <p className="muted">The parameters a part of {path ?? 'this category'} carries: its form offers them first, in this order.</p>
          <ul className="template-list" aria-label={`Templates of ${path ?? 'the category'}`}>
            {inherited.map((t) => (
              <li key={t.parameterTypeId} className="inherited">
                <span className="name">{t.parameterType}</span>
                <span className="kind">{kindInWords(t)}</span>
                <span>{t.required ? 'required' : 'optional'}</span>
                {t.isValue && <span>value</span>}
                <span>inherited from {paths.get(t.categoryId) ?? 'a parent'}</span>
              </li>
            ))}
            {own.map((t, i) => (
              <li key={t.parameterTypeId}>
                <span className="name">{t.parameterType}</span>
                <span className="kind">{kindInWords(t)}</span>
                <label>
                  <input type="checkbox" checked={t.required} disabled={!writer} onChange={(e) => edit(own.map((o, j) => (j === i ? { ...o, required: e.target.checked } : o)))} />
                  Required
                </label>
                <label title="The parameter KiCad's Value field and the table show">
                  <input type="checkbox" checked={t.isValue} disabled={!writer} onChange={(e) => edit(own.map((o, j) => ({ ...o, isValue: j === i ? e.target.checked : false })))} />
                  Value
                </label>
                {writer && (
                  <>
                    <button type="button" onClick={() => move(i, -1)} disabled={i === 0} aria-label={`Move ${t.parameterType} up`}>
                      ↑
                    </button>
                    <button type="button" onClick={() => move(i, 1)} disabled={i === own.length - 1} aria-label={`Move ${t.parameterType} down`}>
                      ↓
                    </button>
                    <button type="button" onClick={() => edit(own.filter((_, j) => j !== i))} aria-label={`Remove ${t.parameterType}`}>
                      Remove
                    </button>
                  </>
                )}
                {rowError(i) && <span className="field-error">{rowError(i)}</span>}
              </li>
            ))}
          </ul>
          {inherited.length === 0 && own.length === 0 && <p className="muted">No templates: its parts' parameters are all free.</p>}
          {writer && (
            <>
              <div className="template-add">
                <label htmlFor={addId}>
                  Add a parameter
                  <select id={addId} value={adding} onChange={(e) => setAdding(e.target.value)}>
                    <option value="">Choose a type…</option>
                    {addable.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.name}
                        {inherited.some((x) => x.parameterTypeId === t.id) ? ' (overrides the inherited one)' : ''}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="button" onClick={add} disabled={!adding}>
                  Add
                </button>
              </div>
              <ErrorBox error={save.error} title="Not saved" />
              {saved && !changed && (
                <p role="status" className="ok">
                  Templates of {path} saved.
                </p>
              )}
              <div className="actions">
                <button type="button" className="primary" onClick={() => save.mutate()} disabled={!changed || save.isPending}>
                  Save templates
                </button>
                {changed && (
                  <button type="button" onClick={() => edit(mine)}>
                    Discard changes
                  </button>
                )}
              </div>
            </>
          )}
        </>
      )}
    </section>
  )
}
