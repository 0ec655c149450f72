import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState, type FormEvent } from 'react'
import { useCan } from '../../queries/auth'
import { saveKicadSettings, kicadSettingsQueries, type KicadSettings } from '../../queries/kicad'
import { templateQueries } from '../../queries/templates'
import { ErrorBox, fieldError } from '../../ui/error-box'
import { KicadPreview } from './preview'

type FieldKey = keyof KicadSettings['fields']
type Rule = KicadSettings['parameters']['rules'][number]

const FIELD_LABELS: Record<FieldKey, string> = { ipn: 'Internal part number', manufacturer: 'Manufacturer', mpn: 'Manufacturer part number' }
const OTHERS: Record<KicadSettings['parameters']['others'], string> = { hidden: 'Sent, hidden', visible: 'Sent, shown', omit: 'Not sent' }

/**
 * What KiCad is served (decision 1419): the part fields, a rule per parameter,
 * caching and which categories and parts it lists. Admins change it; everyone
 * else sees the same controls read-only. Saved whole, since the server
 * replaces the `kicad` settings as one (decision 0634).
 */
export function KicadSettingsPanel() {
  const settings = useQuery(kicadSettingsQueries.settings())
  const admin = useCan('settings:admin')
  const queryClient = useQueryClient()
  const [form, setForm] = useState<KicadSettings>()
  useEffect(() => {
    if (settings.data) setForm(structuredClone(settings.data))
  }, [settings.data])
  const save = useMutation({ mutationFn: (k: KicadSettings) => saveKicadSettings(queryClient, k) })

  if (settings.isPending) return <p className="muted">Loading the KiCad settings…</p>
  if (settings.error || !form) return <ErrorBox error={settings.error} title="The KiCad settings could not be loaded" />
  const change = (next: KicadSettings) => {
    save.reset()
    setForm(next)
  }
  const setField = (key: FieldKey, patch: Partial<KicadSettings['fields'][FieldKey]>) => change({ ...form, fields: { ...form.fields, [key]: { ...form.fields[key], ...patch } } })
  const setRule = (i: number, patch: Partial<Rule>) => change({ ...form, parameters: { ...form.parameters, rules: form.parameters.rules.map((r, j) => (j === i ? { ...r, ...patch } : r)) } })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.mutate(form)
  }
  const error = (path: string) => fieldError(save.error, `body.kicad.${path}`)
  return (
    <section className="panel" aria-labelledby="kicad-settings-h">
      <h2 id="kicad-settings-h">What KiCad gets</h2>
      {!admin && <p className="muted">Only an admin changes these settings; they are shown here as the server holds them.</p>}
      <div className="grid2">
        <form className="form" onSubmit={submit} aria-label="KiCad settings">
          {/* One fieldset, so a reader's controls are all disabled at once; drawn without a frame of its own inside the form's. */}
          <fieldset disabled={!admin || save.isPending} style={{ border: 0, padding: 0, margin: 0, display: 'grid', gap: '0.7rem' }}>
            <h3>Part fields</h3>
            <table className="simple">
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Sent</th>
                  <th scope="col">Name in KiCad</th>
                  <th scope="col">Shown on the schematic</th>
                </tr>
              </thead>
              <tbody>
                {(Object.keys(FIELD_LABELS) as FieldKey[]).map((key) => (
                  <tr key={key}>
                    <th scope="row">{FIELD_LABELS[key]}</th>
                    <td>
                      <input type="checkbox" aria-label={`Send ${FIELD_LABELS[key]}`} checked={form.fields[key].include} onChange={(e) => setField(key, { include: e.target.checked })} />
                    </td>
                    <td>
                      <input aria-label={`${FIELD_LABELS[key]} field name`} value={form.fields[key].name} onChange={(e) => setField(key, { name: e.target.value })} aria-invalid={error(`fields.${key}.name`) ? true : undefined} />
                      {error(`fields.${key}.name`) && <span className="field-error">{error(`fields.${key}.name`)}</span>}
                    </td>
                    <td>
                      <input type="checkbox" aria-label={`Show ${FIELD_LABELS[key]}`} checked={form.fields[key].visible} onChange={(e) => setField(key, { visible: e.target.checked })} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="hint">A part with several manufacturer part numbers gets the second as “{form.fields.mpn.name} 2”, and so on.</p>
            <h3>Parameters</h3>
            <RuleRows rules={form.parameters.rules} setRule={setRule} error={error} onRemove={(i) => change({ ...form, parameters: { ...form.parameters, rules: form.parameters.rules.filter((_, j) => j !== i) } })} />
            <NewRule taken={form.parameters.rules.map((r) => r.type.toLowerCase())} onAdd={(type) => change({ ...form, parameters: { ...form.parameters, rules: [...form.parameters.rules, { type, include: true, name: null, visible: false }] } })} />
            <label>
              Every other parameter
              <select value={form.parameters.others} onChange={(e) => change({ ...form, parameters: { ...form.parameters, others: e.target.value as KicadSettings['parameters']['others'] } })}>
                {Object.entries(OTHERS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <h3>Listing and caching</h3>
            <label>
              Clients may reuse an answer for (seconds)
              <input type="number" min={0} max={86400} value={form.cacheMaxAge} onChange={(e) => change({ ...form, cacheMaxAge: Number(e.target.value) })} aria-invalid={error('cacheMaxAge') ? true : undefined} />
              <span className="hint">Sent as Cache-Control max-age, for proxies and scripts. KiCad keeps parts and categories for the timeouts in its .kicad_httplib file instead.</span>
              {error('cacheMaxAge') && <span className="field-error">{error('cacheMaxAge')}</span>}
            </label>
            <label className="inline-check">
              <input type="checkbox" checked={form.hideObsolete} onChange={(e) => change({ ...form, hideObsolete: e.target.checked })} /> Leave obsolete parts out of the listings
            </label>
            <label>
              Category depth
              <input
                type="number"
                min={1}
                max={20}
                placeholder="every level"
                value={form.categoryDepth ?? ''}
                onChange={(e) => change({ ...form, categoryDepth: e.target.value === '' ? null : Number(e.target.value) })}
                aria-invalid={error('categoryDepth') ? true : undefined}
              />
              <span className="hint">Deeper categories are listed under their ancestor at this depth. Empty: every category as it is.</span>
              {error('categoryDepth') && <span className="field-error">{error('categoryDepth')}</span>}
            </label>
          </fieldset>
          {admin && (
            <div className="actions">
              <button type="submit" className="primary" disabled={save.isPending}>
                {save.isPending ? 'Saving…' : 'Save KiCad settings'}
              </button>
            </div>
          )}
          <ErrorBox error={save.error} title="Not saved" />
          {save.isSuccess && (
            <p role="status" className="ok">
              Saved. KiCad sees it once the timeouts in its .kicad_httplib file run out, or when the library is opened again.
            </p>
          )}
        </form>
        <KicadPreview kicad={form} />
      </div>
    </section>
  )
}

function RuleRows({ rules, setRule, onRemove, error }: { rules: Rule[]; setRule: (i: number, patch: Partial<Rule>) => void; onRemove: (i: number) => void; error: (path: string) => string | undefined }) {
  if (rules.length === 0) return <p className="muted">No parameter has a rule of its own.</p>
  return (
    <table className="simple">
      <thead>
        <tr>
          <th scope="col">Parameter</th>
          <th scope="col">Sent</th>
          <th scope="col">Name in KiCad</th>
          <th scope="col">Shown</th>
          <th scope="col">
            <span className="visually-hidden">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rules.map((r, i) => {
          const problem = error(`parameters.rules[${i}].name`) ?? error(`parameters.rules[${i}].type`)
          return (
            <tr key={`${r.type}-${i}`}>
              <th scope="row">{r.type}</th>
              <td>
                <input type="checkbox" aria-label={`Send ${r.type}`} checked={r.include} onChange={(e) => setRule(i, { include: e.target.checked })} />
              </td>
              <td>
                <input aria-label={`${r.type} field name`} placeholder={r.type} value={r.name ?? ''} onChange={(e) => setRule(i, { name: e.target.value.trim() === '' ? null : e.target.value })} aria-invalid={problem ? true : undefined} />
                {problem && <span className="field-error">{problem}</span>}
              </td>
              <td>
                <input type="checkbox" aria-label={`Show ${r.type}`} checked={r.visible} onChange={(e) => setRule(i, { visible: e.target.checked })} />
              </td>
              <td>
                <button type="button" onClick={() => onRemove(i)} aria-label={`Remove the rule for ${r.type}`}>
                  Remove
                </button>
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

/** A rule for a parameter type: the types the server knows, less those that have one. */
function NewRule({ taken, onAdd }: { taken: string[]; onAdd: (type: string) => void }) {
  const types = useQuery(templateQueries.parameterTypes())
  const [type, setType] = useState('')
  const free = (types.data ?? []).filter((t) => !taken.includes(t.name.toLowerCase()))
  return (
    <div className="inline-form">
      <label>
        Add a rule for
        <select value={type} onChange={(e) => setType(e.target.value)}>
          <option value="">— parameter —</option>
          {free.map((t) => (
            <option key={t.id} value={t.name}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        disabled={!type}
        onClick={() => {
          onAdd(type)
          setType('')
        }}
      >
        Add rule
      </button>
      <ErrorBox error={types.error} title="The parameter types could not be read" />
    </div>
  )
}
