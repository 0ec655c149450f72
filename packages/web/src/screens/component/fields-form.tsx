import type { Component, ComponentStatus } from '@complib/client-sdk'
import { useId, type FormEvent } from 'react'
import { fieldError } from '../../ui/error-box'
import type { Draft } from './draft'
import { LinkEditor } from './link-editor'
import { RowsEditor } from './rows-editor'
import { TextField } from './text-field'

/** draft → active → nrnd | obsolete; nrnd → active | obsolete; obsolete → active (core's STATUS_TRANSITIONS). */
const TRANSITIONS: Record<ComponentStatus, ComponentStatus[]> = { draft: ['active'], active: ['nrnd', 'obsolete'], nrnd: ['active', 'obsolete'], obsolete: ['active'] }
const STATUS_WORDS: Record<ComponentStatus, string> = { draft: 'draft', active: 'active', nrnd: 'not recommended for new designs (nrnd)', obsolete: 'obsolete' }

/** Every field of a component, with Save (or Create) and Discard. */
export function FieldsForm(props: {
  id: string | undefined
  loaded: Component | undefined
  draft: Draft
  changed: string[]
  error: unknown
  saving: boolean
  onEdit: (patch: Partial<Draft>) => void
  onSave: () => void
  onDiscard: () => void
}) {
  const { id, loaded, draft, changed, error, onEdit: set } = props
  const nameId = useId()
  const deleted = !!loaded?.deletedAt
  const statusChoices = loaded ? [loaded.status, ...TRANSITIONS[loaded.status]] : (['draft', 'active'] as ComponentStatus[])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    props.onSave()
  }
  return (
    <form onSubmit={submit} className="form" aria-labelledby={nameId}>
      <h2 id={nameId} className="visually-hidden">
        Fields
      </h2>
      <div className="grid2">
        <TextField label="Name" value={draft.name} onChange={(name) => set({ name })} required error={fieldError(error, 'body.name')} />
        <TextField label="IPN" value={draft.ipn} onChange={(ipn) => set({ ipn })} hint={id ? undefined : 'left empty, the next free one is given'} error={fieldError(error, 'body.ipn')} />
        <TextField label="Category" value={draft.category} onChange={(category) => set({ category })} error={fieldError(error, 'body.category')} />
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
      <TextField label="Tags (comma separated)" value={draft.tags} onChange={(tags) => set({ tags })} error={fieldError(error, 'body.tags')} />
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
        <button type="submit" className="primary" disabled={props.saving || deleted || (!!id && changed.length === 0)}>
          {props.saving ? 'Saving…' : id ? 'Save changes' : 'Create component'}
        </button>
        {id && changed.length > 0 && (
          <button type="button" onClick={props.onDiscard}>
            Discard changes
          </button>
        )}
        {id && <span className="muted">{changed.length ? `Changed: ${changed.join(', ')}` : 'No unsaved changes'}</span>}
      </div>
    </form>
  )
}
