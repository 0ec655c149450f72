import type { Component, ComponentStatus } from '@complib/client-sdk'
import { useId, type FormEvent } from 'react'
import { useCan } from '../../queries/auth'
import { useTemplatesForPath } from '../../queries/templates'
import { fieldError } from '../../ui/error-box'
import { CategoryParameters } from './category-parameters'
import type { Draft } from './draft'
import { LinkEditor } from './link-editor'
import { RowsEditor } from './rows-editor'
import { TextField } from './text-field'

/** draft → active → nrnd | obsolete; nrnd → active | obsolete; obsolete → active (core's STATUS_TRANSITIONS). */
const TRANSITIONS: Record<ComponentStatus, ComponentStatus[]> = { draft: ['active'], active: ['nrnd', 'obsolete'], nrnd: ['active', 'obsolete'], obsolete: ['active'] }
const STATUS_WORDS: Record<ComponentStatus, string> = { draft: 'draft', active: 'active', nrnd: 'not recommended for new designs (nrnd)', obsolete: 'obsolete' }

/**
 * Every field of a component, with a comment for the change, Save (or
 * Create) and Discard; read only, without them, for a caller who may not
 * change the library.
 */
export function FieldsForm(props: {
  id: string | undefined
  loaded: Component | undefined
  draft: Draft
  changed: string[]
  error: unknown
  saving: boolean
  comment: string
  onComment: (comment: string) => void
  onEdit: (patch: Partial<Draft>) => void
  onSave: () => void
  onDiscard: () => void
}) {
  const { id, loaded, draft, changed, error, onEdit: set } = props
  const nameId = useId()
  const deleted = !!loaded?.deletedAt
  const readOnly = !useCan('library:write')
  const { templates, category } = useTemplatesForPath(draft.category)
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
        <TextField label="Name" value={draft.name} onChange={(name) => set({ name })} required error={fieldError(error, 'body.name')} readOnly={readOnly} />
        <TextField
          label="IPN"
          value={draft.ipn}
          onChange={(ipn) => set({ ipn })}
          hint={id ? undefined : 'left empty, the next free one is given'}
          error={fieldError(error, 'body.ipn')}
          readOnly={readOnly}
        />
        <TextField label="Category" value={draft.category} onChange={(category) => set({ category })} error={fieldError(error, 'body.category')} readOnly={readOnly} />
        <label>
          Status
          <select value={draft.status} onChange={(e) => set({ status: e.target.value as ComponentStatus })} disabled={readOnly}>
            {statusChoices.map((s) => (
              <option key={s} value={s}>
                {STATUS_WORDS[s]}
              </option>
            ))}
          </select>
          <span className="hint">{readOnly ? '' : loaded ? `From ${loaded.status} it can move to ${TRANSITIONS[loaded.status].join(' or ')}.` : 'New components start as draft.'}</span>
        </label>
      </div>
      <label>
        Description
        <textarea readOnly={readOnly} value={draft.description} rows={2} onChange={(e) => set({ description: e.target.value })} />
      </label>
      <TextField label="Tags (comma separated)" value={draft.tags} onChange={(tags) => set({ tags })} error={fieldError(error, 'body.tags')} readOnly={readOnly} />
      <CategoryParameters rows={draft.parameters} templates={templates} category={category} error={error} readOnly={readOnly} onChange={(parameters) => set({ parameters })} />
      <RowsEditor
        legend="Manufacturer part numbers"
        rows={draft.mpns}
        fields={[
          { key: 'manufacturer', label: 'Manufacturer', placeholder: 'Yageo' },
          { key: 'partNumber', label: 'Part number', placeholder: 'RC0603FR-0710KL' },
        ]}
        empty={{ manufacturer: '', partNumber: '' }}
        onChange={(mpns) => set({ mpns })}
        readOnly={readOnly}
        error={fieldError(error, 'body.mpns')}
      />
      <div className="grid2">
        <LinkEditor kind="symbols" legend="Symbols" links={draft.symbols} onChange={(symbols) => set({ symbols })} readOnly={readOnly} />
        <LinkEditor kind="footprints" legend="Footprints" links={draft.footprints} onChange={(footprints) => set({ footprints })} readOnly={readOnly} />
      </div>
      {!readOnly && (
        <div className="actions sticky">
          <label className="comment-field">
            <span className="visually-hidden">Comment for this change (optional)</span>
            <input value={props.comment} onChange={(e) => props.onComment(e.target.value)} placeholder="Comment for this change (optional)" maxLength={1000} />
          </label>
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
      )}
    </form>
  )
}
