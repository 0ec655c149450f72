import type { BulkResult, Component, ComponentPatch, ComponentStatus } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api } from '../api'
import { href } from '../router'
import { useSelection } from '../selection'
import { ErrorBox } from '../ui/error-box'
import { count } from '../ui/format'

type Field = 'category' | 'description'
interface Plan {
  set: Partial<Record<Field, string>>
  clear: Field[]
  addTags: string[]
  removeTags: string[]
  status: ComponentStatus | ''
}

/** At most this many items per request: the API's bulk limit (BULK_MAX_ITEMS). */
const CHUNK = 1000

/**
 * Bulk edit of the rows selected in the library: set or clear a field,
 * add or remove tags, change status. A dry run shows every change first;
 * applying sends them atomically per 1,000 with If-Match versions, with progress.
 */
export default function BulkScreen() {
  const selection = useSelection()
  const queryClient = useQueryClient()
  const ids = [...selection.ids]
  const [plan, setPlan] = useState<Plan>({ set: {}, clear: [], addTags: [], removeTags: [], status: '' })
  const [progress, setProgress] = useState<string>()
  const components = useQuery({
    queryKey: ['bulk-selection', ids],
    queryFn: () => Promise.all(ids.map((id) => api().components.get(id))),
    enabled: ids.length > 0,
  })
  const items = (components.data ?? []).map((c) => ({ c, patch: _patchFor(c, plan) })).filter((x) => Object.keys(x.patch).length > 0)
  const send = async (dryRun: boolean): Promise<BulkResult[]> => {
    const results: BulkResult[] = []
    for (let i = 0; i < items.length; i += CHUNK) {
      const chunk = items.slice(i, i + CHUNK)
      results.push(await api().bulk.patch({ dryRun, items: chunk.map(({ c, patch }) => ({ id: c.id, patch, ifVersion: c.version })) }))
      if (!dryRun) setProgress(`${count(Math.min(i + CHUNK, items.length))} of ${count(items.length)} applied`)
    }
    return results
  }
  const preview = useMutation({ mutationFn: () => send(true) })
  const apply = useMutation({
    mutationFn: () => send(false),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['components'] })
      void queryClient.invalidateQueries({ queryKey: ['bulk-selection'] })
      preview.reset()
    },
  })
  const change = (patch: Partial<Plan>) => {
    preview.reset()
    apply.reset()
    setProgress(undefined)
    setPlan((p) => ({ ...p, ...patch }))
  }
  const tagList = (text: string) =>
    text
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean)

  if (ids.length === 0)
    return (
      <section>
        <h1>Bulk edit</h1>
        <p>
          No rows selected. Select components in the <a href={href('/')}>library</a> first.
        </p>
      </section>
    )

  return (
    <section>
      <div className="screen-head">
        <h1>Bulk edit</h1>
        <p className="muted">{count(ids.length)} components selected</p>
      </div>
      <ErrorBox error={components.error} />
      <form className="form" onSubmit={(e) => (e.preventDefault(), preview.mutate())}>
        <div className="grid2">
          {(['category', 'description'] as const).map((f) => (
            <fieldset key={f}>
              <legend>{f === 'category' ? 'Category' : 'Description'}</legend>
              <label>
                <input type="radio" name={f} checked={!(f in plan.set) && !plan.clear.includes(f)} onChange={() => change({ set: _without(plan.set, f), clear: plan.clear.filter((x) => x !== f) })} /> Leave as is
              </label>
              <label>
                <input type="radio" name={f} checked={f in plan.set} onChange={() => change({ set: { ...plan.set, [f]: '' }, clear: plan.clear.filter((x) => x !== f) })} /> Set to
              </label>
              {f in plan.set && (
                <label>
                  New {f}
                  <input value={plan.set[f]} onChange={(e) => change({ set: { ...plan.set, [f]: e.target.value } })} />
                </label>
              )}
              <label>
                <input type="radio" name={f} checked={plan.clear.includes(f)} onChange={() => change({ set: _without(plan.set, f), clear: [...plan.clear, f] })} /> Clear
              </label>
            </fieldset>
          ))}
          <label>
            Add tags (comma separated)
            <input onChange={(e) => change({ addTags: tagList(e.target.value) })} />
          </label>
          <label>
            Remove tags (comma separated)
            <input onChange={(e) => change({ removeTags: tagList(e.target.value) })} />
          </label>
          <label>
            Change status
            <select value={plan.status} onChange={(e) => change({ status: e.target.value as ComponentStatus | '' })}>
              <option value="">Leave as is</option>
              <option value="draft">draft</option>
              <option value="active">active</option>
              <option value="nrnd">nrnd</option>
              <option value="obsolete">obsolete</option>
            </select>
            <span className="hint">Only allowed moves succeed (draft → active → nrnd or obsolete); one refused move stops the whole edit.</span>
          </label>
        </div>
        <div className="actions">
          <button type="submit" disabled={items.length === 0 || preview.isPending}>
            Preview (dry run)
          </button>
          <button type="button" className="primary" disabled={!preview.data || apply.isPending} onClick={() => apply.mutate()}>
            Apply to {count(items.length)} components
          </button>
          <span className="muted">{items.length ? `${count(items.length)} would change` : 'Nothing to change yet'}</span>
        </div>
      </form>
      <ErrorBox error={preview.error ?? apply.error} title={apply.error ? 'Nothing applied' : 'The dry run refused the edit'} />
      {progress && (
        <p role="status" className={apply.isSuccess ? 'ok' : undefined}>
          {apply.isSuccess ? `Done: ${progress}.` : progress}
        </p>
      )}
      {preview.data && (
        <section className="panel" aria-labelledby="preview-h">
          <h2 id="preview-h">Dry run: {count(preview.data.reduce((n, r) => n + r.count, 0))} components would change, nothing is saved yet</h2>
          <table className="simple">
            <thead>
              <tr>
                <th scope="col">Component</th>
                <th scope="col">Changes</th>
              </tr>
            </thead>
            <tbody>
              {items.slice(0, 200).map(({ c, patch }) => (
                <tr key={c.id}>
                  <td>
                    <a href={href(`/components/${c.id}`)}>{c.name}</a>
                  </td>
                  <td>
                    {Object.entries(patch)
                      .map(([k, v]) => `${k}: ${_text((c as Record<string, unknown>)[k])} → ${_text(v)}`)
                      .join('; ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {items.length > 200 && <p className="muted">…and {count(items.length - 200)} more.</p>}
        </section>
      )}
    </section>
  )
}

function _patchFor(c: Component, plan: Plan): ComponentPatch {
  const patch: ComponentPatch = {}
  for (const [field, value] of Object.entries(plan.set) as Array<[Field, string]>) if (value.trim() && (c[field] ?? '') !== value.trim()) patch[field] = value.trim()
  for (const field of plan.clear) if (c[field] !== null) patch[field] = null
  if (plan.addTags.length || plan.removeTags.length) {
    const remove = new Set(plan.removeTags.map((t) => t.toLowerCase()))
    const tags = [...c.tags.filter((t) => !remove.has(t.toLowerCase())), ...plan.addTags.filter((t) => !c.tags.some((x) => x.toLowerCase() === t.toLowerCase()))]
    if (JSON.stringify(tags) !== JSON.stringify(c.tags)) patch.tags = tags
  }
  if (plan.status && plan.status !== c.status) patch.status = plan.status
  return patch
}

function _without<T extends object>(o: T, key: keyof T): T {
  const { [key]: _gone, ...rest } = o
  return rest as T
}

function _text(v: unknown): string {
  if (v === null || v === undefined || v === '') return '(empty)'
  return Array.isArray(v) ? v.join(', ') || '(none)' : String(v)
}
