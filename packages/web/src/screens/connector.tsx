import { PreconditionFailedError, type Connector } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState, type FormEvent } from 'react'
import { api } from '../api'
import { navigate } from '../router'
import { cronInWords } from '../ui/cron-words'
import { ErrorBox, fieldError } from '../ui/error-box'
import { dateTime, relativeTime } from '../ui/format'
import { ConnectorCode } from './connector-code'
import { PushPanel } from './connector-push'
import { RunHistory } from './connector-runs'

interface Settings {
  name: string
  url: string
  enabled: boolean
  requestsPerSecond: string
  concurrency: string
  cron: string
}

const NEW: Settings = { name: '', url: '', enabled: true, requestsPerSecond: '10', concurrency: '4', cron: '' }

/** One webhook connector: settings, signing secret, code with a dry run, Push now with live progress, runs. */
export default function ConnectorScreen({ id }: { id: string | undefined }) {
  const queryClient = useQueryClient()
  const connector = useQuery({ queryKey: ['connector', id], queryFn: () => api().connectors.get(id!), enabled: !!id })
  const [form, setForm] = useState<Settings>(NEW)
  const [secret, setSecret] = useState('')
  const [notice, setNotice] = useState<string>()
  useEffect(() => {
    const c = connector.data
    if (c) setForm(_toSettings(c))
  }, [connector.data])

  const save = useMutation({
    mutationFn: async () => {
      const config = {
        url: form.url.trim(),
        requestsPerSecond: Number(form.requestsPerSecond),
        concurrency: Number(form.concurrency),
        cron: form.cron.trim() || null,
      }
      if (!id) return api().connectors.create({ name: form.name.trim(), enabled: form.enabled, config, ...(secret.trim() ? { secret: secret.trim() } : {}) })
      return api().connectors.patch(id, { name: form.name.trim(), enabled: form.enabled, config }, { ifMatch: connector.data!.version })
    },
    onSuccess: (c) => {
      setNotice('Saved.')
      setSecret('')
      queryClient.setQueryData(['connector', c.id], c)
      void queryClient.invalidateQueries({ queryKey: ['connectors'] })
      if (!id) navigate(`/connectors/${c.id}`)
    },
  })
  const rotate = useMutation({
    mutationFn: () => api().connectors.rotateSecret(id!, secret.trim() ? { secret: secret.trim() } : {}),
    onSuccess: (c) => {
      setSecret('')
      setNotice(`New signing secret in use (ends ${c.secretHint}); the previous one also signs until ${dateTime(c.previousSecretExpiresAt)}.`)
      queryClient.setQueryData(['connector', c.id], c)
    },
  })

  if (id && connector.isPending) return <p className="muted">Loading…</p>
  if (id && connector.error) return <ErrorBox error={connector.error} title="This connector could not be loaded" />
  const c = connector.data
  const set = (patch: Partial<Settings>) => {
    setNotice(undefined)
    setForm((f) => ({ ...f, ...patch }))
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.mutate()
  }
  const error = save.error ?? rotate.error

  return (
    <section className="connector">
      <div className="screen-head">
        <h1>{c ? c.name : 'New connector'}</h1>
        {c && (
          <p className="muted">
            <code>{c.id}</code> · version {c.version} · {c.config.cron ? `next run ${relativeTime(c.nextRunAt)}` : 'runs when you push'}
          </p>
        )}
      </div>
      {save.error instanceof PreconditionFailedError ? (
        <div role="alert" className="conflict">
          Someone changed this connector since you opened it; nothing was overwritten.{' '}
          <button type="button" onClick={() => void connector.refetch().then(() => save.reset())}>
            Reload it
          </button>
        </div>
      ) : (
        <ErrorBox error={error} title="Not saved" />
      )}
      {notice && (
        <p role="status" className="ok">
          {notice}
        </p>
      )}
      <form className="form" onSubmit={submit}>
        <h2>Settings</h2>
        <div className="grid2">
          <label>
            Name
            <input value={form.name} onChange={(e) => set({ name: e.target.value })} required aria-invalid={fieldError(error, 'body.name') ? true : undefined} />
          </label>
          <label>
            Receiver URL
            <input value={form.url} type="url" placeholder="http://127.0.0.1:8080/hooks/components" onChange={(e) => set({ url: e.target.value })} required />
            {fieldError(error, 'body.config.url') && <span className="field-error">{fieldError(error, 'body.config.url')}</span>}
          </label>
          <label>
            Requests per second
            <input type="number" min={0.1} max={1000} step="any" value={form.requestsPerSecond} onChange={(e) => set({ requestsPerSecond: e.target.value })} />
            <span className="hint">Throttle: at most this many batches sent per second.</span>
          </label>
          <label>
            Concurrency
            <input type="number" min={1} max={64} value={form.concurrency} onChange={(e) => set({ concurrency: e.target.value })} />
            <span className="hint">Batches in flight at once.</span>
          </label>
          <label>
            Schedule (cron, optional)
            <input value={form.cron} placeholder="0 */6 * * *" onChange={(e) => set({ cron: e.target.value })} aria-describedby="cron-words" />
            <span className="hint" id="cron-words">
              {form.cron.trim() ? cronInWords(form.cron) : 'Empty: only when you press Push now.'}
              {c?.nextRunAt && form.cron.trim() === String(c.config.cron ?? '') ? ` Next run ${relativeTime(c.nextRunAt)} (${dateTime(c.nextRunAt)}).` : ''}
            </span>
            {fieldError(error, 'body.config.cron') && <span className="field-error">{fieldError(error, 'body.config.cron')}</span>}
          </label>
          <label className="check-label">
            <input type="checkbox" checked={form.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> Enabled (scheduled runs happen)
          </label>
        </div>
        <fieldset>
          <legend>Signing secret</legend>
          <p>
            {c?.secretHint ? (
              <>
                In use: <code>{c.secretHint}</code> (never shown whole).
              </>
            ) : (
              'Leave empty and one is generated; set your own to give the same to the receiver.'
            )}
          </p>
          <label>
            {c ? 'New secret (empty: generate one)' : 'Secret (optional)'}
            <input value={secret} onChange={(e) => setSecret(e.target.value)} placeholder="whsec_…" autoComplete="off" spellCheck={false} />
            {fieldError(error, 'body.secret') && <span className="field-error">{fieldError(error, 'body.secret')}</span>}
          </label>
          <div className="actions">
            <button type="button" onClick={() => setSecret(_newSecret())}>
              Generate a secret here
            </button>
            {c && (
              <button type="button" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
                Rotate the secret
              </button>
            )}
          </div>
          <p className="hint">A secret generated here is shown until you save: copy it for the receiver first.</p>
        </fieldset>
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            {c ? 'Save settings' : 'Create connector'}
          </button>
        </div>
      </form>
      {c && (
        <>
          <PushPanel connector={c} />
          <ConnectorCode connector={c} />
          <RunHistory connector={c} />
        </>
      )}
    </section>
  )
}

function _toSettings(c: Connector): Settings {
  return {
    name: c.name,
    url: String(c.config.url ?? ''),
    enabled: c.enabled,
    requestsPerSecond: String(c.config.requestsPerSecond ?? 10),
    concurrency: String(c.config.concurrency ?? 4),
    cron: typeof c.config.cron === 'string' ? c.config.cron : '',
  }
}

/** `whsec_` + base64 of 32 random bytes, made in the browser. */
function _newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return `whsec_${btoa(String.fromCharCode(...bytes))}`
}
