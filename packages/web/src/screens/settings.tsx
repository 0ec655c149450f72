import type { Settings } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState, type FormEvent } from 'react'
import { api } from '../api'
import { settingsQueries, settingsSaved } from '../queries/settings'
import { ErrorBox, fieldError } from '../ui/error-box'
import { dateTime } from '../ui/format'

interface Form {
  retention: string
  blockMetadata: boolean
  allowedHosts: string
}

function _toForm(s: Settings): Form {
  return { retention: s.auditRetentionDays === null ? '' : String(s.auditRetentionDays), blockMetadata: s.outbound.blockMetadata, allowedHosts: s.outbound.allowedHosts.join('\n') }
}

/** Server settings (admins): how long the audit trail is kept, and where connector pushes may go. */
export default function SettingsScreen() {
  const settings = useQuery(settingsQueries.settings())
  const queryClient = useQueryClient()
  const [form, setForm] = useState<Form>()
  useEffect(() => {
    if (settings.data) setForm(_toForm(settings.data))
  }, [settings.data])
  const save = useMutation({
    mutationFn: (f: Form) =>
      api().settings.patch({
        auditRetentionDays: f.retention.trim() ? Number(f.retention) : null,
        outbound: {
          blockMetadata: f.blockMetadata,
          allowedHosts: f.allowedHosts
            .split(/[\n,]/)
            .map((h) => h.trim())
            .filter(Boolean),
        },
      }),
    onSuccess: (s) => settingsSaved(queryClient, s),
  })

  if (settings.isPending) return <p className="muted">Loading…</p>
  if (settings.error || !form) return <ErrorBox error={settings.error} title="The settings could not be loaded" />
  const set = (patch: Partial<Form>) => {
    save.reset()
    setForm({ ...form, ...patch })
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.mutate(form)
  }
  const retentionError = fieldError(save.error, 'body.auditRetentionDays')
  return (
    <section>
      <div className="screen-head">
        <h1>Settings</h1>
        <p className="muted">Every server sharing this database reads the same settings. Last changed {dateTime(settings.data.updatedAt)}.</p>
      </div>
      <form className="form narrow-wide" onSubmit={submit}>
        <h2>Audit trail</h2>
        <label>
          Keep entries for (days)
          <input type="number" min={1} max={36500} value={form.retention} onChange={(e) => set({ retention: e.target.value })} placeholder="forever" aria-invalid={retentionError ? true : undefined} />
          <span className="hint">Older entries are pruned daily, and the pruning is itself an entry. Empty: keep everything.</span>
          {retentionError && <span className="field-error">{retentionError}</span>}
        </label>
        <h2>Where connector pushes may go</h2>
        <label className="inline-check">
          <input type="checkbox" checked={form.blockMetadata} onChange={(e) => set({ blockMetadata: e.target.checked })} /> Refuse link-local and cloud metadata addresses
        </label>
        <label>
          Allowed hosts
          <textarea rows={5} value={form.allowedHosts} onChange={(e) => set({ allowedHosts: e.target.value })} placeholder={'hooks.example.com\n*.example.com\n10.0.0.0/8'} spellCheck={false} />
          <span className="hint">One per line: host names (`*.` for subdomains), addresses or networks. Empty: any host but the refused ones.</span>
          {fieldError(save.error, 'body.outbound') && <span className="field-error">{fieldError(save.error, 'body.outbound')}</span>}
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save settings'}
          </button>
        </div>
      </form>
      <ErrorBox error={save.error} title="Not saved" />
      {save.isSuccess && (
        <p role="status" className="ok">
          Saved.
        </p>
      )}
    </section>
  )
}
