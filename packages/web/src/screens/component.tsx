import { PreconditionFailedError, type Component, type ComponentStatus } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useState, type FormEvent } from 'react'
import { api } from '../api'
import { navigate } from '../router'
import { ErrorBox, fieldError } from '../ui/error-box'
import { dateTime, relativeTime } from '../ui/format'
import { ComponentExtras } from './component-extras'
import { NEW_DRAFT, rebaseDraft, toDraft, toFields, toPatch, type Draft } from './component-draft'
import { LinkEditor, RowsEditor } from './component-fields'

/** draft → active → nrnd | obsolete; nrnd → active | obsolete; obsolete → active (core's STATUS_TRANSITIONS). */
const TRANSITIONS: Record<ComponentStatus, ComponentStatus[]> = { draft: ['active'], active: ['nrnd', 'obsolete'], nrnd: ['active', 'obsolete'], obsolete: ['active'] }
const STATUS_WORDS: Record<ComponentStatus, string> = { draft: 'draft', active: 'active', nrnd: 'not recommended for new designs (nrnd)', obsolete: 'obsolete' }

/**
 * One component: every field editable, saved with `If-Match` so that a save
 * meeting a newer version (412) is refused, said, and offered a reload; it
 * never overwrites. `id` undefined: a new component.
 */
export default function ComponentScreen({ id }: { id: string | undefined }) {
  const queryClient = useQueryClient()
  const component = useQuery({ queryKey: ['component', id], queryFn: () => api().components.get(id!, { includeDeleted: true }), enabled: !!id })
  const [base, setBase] = useState<Draft>(NEW_DRAFT)
  const [draft, setDraft] = useState<Draft>(NEW_DRAFT)
  /** The version `base` was read at: what a save sends as If-Match. */
  const [baseVersion, setBaseVersion] = useState<number>()
  const [conflict, setConflict] = useState(false)
  const [saved, setSaved] = useState<string>()
  const loaded = component.data
  // A newer version arrives (first load, a save, an upload or removed file, which
  // count as changes of the component): unsaved edits are carried over onto it
  // unless it changed the same fields, so a file added mid-edit neither discards
  // the edits nor makes the next save meet a 412 of its own making.
  useEffect(() => {
    if (!loaded) return
    const latest = toDraft(loaded)
    const next = baseVersion === undefined ? latest : rebaseDraft(base, draft, latest)
    if (!next) return
    setBase(latest)
    setDraft(next)
    setBaseVersion(loaded.version)
    // Only a new `loaded` moves the base; the edits are read as they stand then.
  }, [loaded])

  const refresh = (c: Component) => {
    queryClient.setQueryData(['component', c.id], c)
    void queryClient.invalidateQueries({ queryKey: ['components'] })
    void queryClient.invalidateQueries({ queryKey: ['history', c.id] })
  }
  const save = useMutation({
    mutationFn: async () => {
      if (!id) return api().components.create(_withoutEmptyIpn(toFields(draft)))
      return api().components.patch(id, toPatch(base, draft), { ifMatch: baseVersion ?? loaded!.version })
    },
    onSuccess: (c) => {
      setConflict(false)
      setSaved(`Saved version ${c.version}.`)
      setBase(toDraft(c))
      setDraft(toDraft(c))
      setBaseVersion(c.version)
      refresh(c)
      if (!id) navigate(`/components/${c.id}`)
    },
    onError: (error) => {
      setSaved(undefined)
      if (error instanceof PreconditionFailedError) setConflict(true)
    },
  })
  const action = useMutation({
    mutationFn: async (kind: 'duplicate' | 'delete' | 'restore') => {
      if (kind === 'duplicate') return { kind, c: await api().components.duplicate(id!) }
      if (kind === 'delete') {
        await api().components.delete(id!, { ifMatch: loaded!.version })
        return { kind, c: await api().components.get(id!, { includeDeleted: true }) }
      }
      return { kind, c: await api().components.restore(id!) }
    },
    onSuccess: ({ kind, c }) => {
      if (kind === 'duplicate') {
        void queryClient.invalidateQueries({ queryKey: ['components'] })
        navigate(`/components/${c.id}`)
      } else {
        setSaved(kind === 'delete' ? 'Deleted. Restore brings it back.' : 'Restored.')
        refresh(c)
      }
    },
    onError: (error) => error instanceof PreconditionFailedError && setConflict(true),
  })

  const reload = async () => {
    const latest = await component.refetch()
    if (latest.data) {
      setBase(toDraft(latest.data))
      setDraft(toDraft(latest.data))
      setBaseVersion(latest.data.version)
    }
    setConflict(false)
    save.reset()
    action.reset()
  }

  const nameId = useId()
  if (id && component.isPending) return <p className="muted">Loading…</p>
  if (id && component.error) return <ErrorBox error={component.error} title="This component could not be loaded" />
  const deleted = !!loaded?.deletedAt
  const changed = id ? Object.keys(toPatch(base, draft)) : []
  const set = (patch: Partial<Draft>) => {
    setSaved(undefined)
    setDraft((d) => ({ ...d, ...patch }))
  }
  const statusChoices = loaded ? [loaded.status, ...TRANSITIONS[loaded.status]] : (['draft', 'active'] as ComponentStatus[])
  const error = save.error ?? action.error

  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.mutate()
  }

  return (
    <section className="component">
      <div className="screen-head">
        <h1>{id ? (loaded?.name ?? 'Component') : 'New component'}</h1>
        {loaded && (
          <p className="muted">
            <code>{loaded.id}</code> · version {loaded.version} · updated {relativeTime(loaded.updatedAt)}
            {deleted && <strong className="deleted"> · deleted {dateTime(loaded.deletedAt)}</strong>}
          </p>
        )}
        {id && (
          <div className="actions">
            <button type="button" onClick={() => action.mutate('duplicate')} disabled={action.isPending || deleted}>
              Duplicate
            </button>
            {deleted ? (
              <button type="button" onClick={() => action.mutate('restore')} disabled={action.isPending}>
                Restore
              </button>
            ) : (
              <button type="button" className="danger" onClick={() => confirm(`Delete ${loaded?.name}? It can be restored.`) && action.mutate('delete')} disabled={action.isPending}>
                Delete
              </button>
            )}
          </div>
        )}
      </div>

      {conflict ? (
        <div role="alert" className="conflict">
          <h2>Someone saved a newer version</h2>
          <p>
            This component changed since you opened it, so your save was refused and nothing was overwritten. Reload to see the latest version; your unsaved edits
            {changed.length ? ` (${changed.join(', ')})` : ''} will be discarded, so copy what you need first.
          </p>
          <div className="actions">
            <button type="button" className="primary" onClick={() => void reload()}>
              Reload the latest version
            </button>
            <button type="button" onClick={() => setConflict(false)}>
              Keep my edits for now
            </button>
          </div>
        </div>
      ) : (
        <ErrorBox error={error} title="Not saved" />
      )}
      {saved && (
        <p role="status" className="ok">
          {saved}
        </p>
      )}

      <form onSubmit={submit} className="form" aria-labelledby={nameId}>
        <h2 id={nameId} className="visually-hidden">
          Fields
        </h2>
        <div className="grid2">
          <Text label="Name" value={draft.name} onChange={(name) => set({ name })} required error={fieldError(error, 'body.name')} />
          <Text label="IPN" value={draft.ipn} onChange={(ipn) => set({ ipn })} hint={id ? undefined : 'left empty, the next free one is given'} error={fieldError(error, 'body.ipn')} />
          <Text label="Category" value={draft.category} onChange={(category) => set({ category })} error={fieldError(error, 'body.category')} />
          <label>
            Status
            <select value={draft.status} onChange={(e) => set({ status: e.target.value as ComponentStatus })}>
              {statusChoices.map((s) => (
                <option key={s} value={s}>
                  {STATUS_WORDS[s]}
                </option>
              ))}
            </select>
            <span className="hint">{loaded ? `From ${loaded.status} it can move to ${TRANSITIONS[loaded.status].join(' or ')}.` : 'New components start as draft.'}</span>
          </label>
        </div>
        <label>
          Description
          <textarea value={draft.description} rows={2} onChange={(e) => set({ description: e.target.value })} />
        </label>
        <Text label="Tags (comma separated)" value={draft.tags} onChange={(tags) => set({ tags })} error={fieldError(error, 'body.tags')} />
        <RowsEditor
          legend="Parameters"
          rows={draft.parameters}
          fields={[
            { key: 'type', label: 'Parameter', placeholder: 'Resistance' },
            { key: 'value', label: 'Value', placeholder: '10k' },
            { key: 'unit', label: 'Unit', placeholder: 'Ω' },
          ]}
          empty={{ type: '', value: '', unit: '' }}
          onChange={(parameters) => set({ parameters })}
          error={fieldError(error, 'body.parameters')}
        />
        <RowsEditor
          legend="Manufacturer part numbers"
          rows={draft.mpns}
          fields={[
            { key: 'manufacturer', label: 'Manufacturer', placeholder: 'Yageo' },
            { key: 'partNumber', label: 'Part number', placeholder: 'RC0603FR-0710KL' },
          ]}
          empty={{ manufacturer: '', partNumber: '' }}
          onChange={(mpns) => set({ mpns })}
          error={fieldError(error, 'body.mpns')}
        />
        <div className="grid2">
          <LinkEditor kind="symbols" legend="Symbols" links={draft.symbols} onChange={(symbols) => set({ symbols })} />
          <LinkEditor kind="footprints" legend="Footprints" links={draft.footprints} onChange={(footprints) => set({ footprints })} />
        </div>
        <div className="actions sticky">
          <button type="submit" className="primary" disabled={save.isPending || deleted || (!!id && changed.length === 0)}>
            {save.isPending ? 'Saving…' : id ? 'Save changes' : 'Create component'}
          </button>
          {id && changed.length > 0 && (
            <button type="button" onClick={() => setDraft(base)}>
              Discard changes
            </button>
          )}
          {id && <span className="muted">{changed.length ? `Changed: ${changed.join(', ')}` : 'No unsaved changes'}</span>}
        </div>
      </form>
      {loaded && <ComponentExtras component={loaded} />}
    </section>
  )
}

function Text(props: { label: string; value: string; onChange: (v: string) => void; required?: boolean; hint?: string | undefined; error?: string | undefined }) {
  const id = useId()
  return (
    <label htmlFor={id}>
      {props.label}
      <input id={id} value={props.value} required={props.required} aria-invalid={props.error ? true : undefined} aria-describedby={props.error ? `${id}-err` : undefined} onChange={(e) => props.onChange(e.target.value)} />
      {props.hint && <span className="hint">{props.hint}</span>}
      {props.error && (
        <span className="field-error" id={`${id}-err`}>
          {props.error}
        </span>
      )}
    </label>
  )
}

function _withoutEmptyIpn<T extends { ipn: string }>(fields: T): Omit<T, 'ipn'> & { ipn?: string } {
  const { ipn, ...rest } = fields
  return ipn ? { ...rest, ipn } : rest
}
