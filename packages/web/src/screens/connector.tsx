import { PreconditionFailedError } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState, type FormEvent } from 'react'
import { api } from '../api'
import { useCan } from '../queries/auth'
import { connectorQueries, connectorSaved, setConnector } from '../queries/connectors'
import { navigate } from '../router'
import { ErrorBox } from '../ui/error-box'
import { dateTime, relativeTime } from '../ui/format'
import { ConnectorCode } from './connector/code'
import { PushPanel } from './connector/push'
import { RunHistory } from './connector/runs'
import { SecretFields } from './connector/secret-fields'
import { NEW_SETTINGS, toConfig, toSettings, type Settings } from './connector/settings'
import { SettingsFields } from './connector/settings-fields'

/**
 * One webhook connector: settings, signing secret, code with a dry run, Push
 * now with live progress, runs. Settings, secret and code are changed by
 * admins; pushing (and a dry run) by editors too; viewers see it all.
 */
export default function ConnectorScreen({ id }: { id: string | undefined }) {
  const queryClient = useQueryClient()
  const connector = useQuery(connectorQueries.detail(id))
  const [form, setForm] = useState<Settings>(NEW_SETTINGS)
  const [secret, setSecret] = useState('')
  const [notice, setNotice] = useState<string>()
  const admin = useCan('connectors:admin')
  const pusher = useCan('connectors:push')
  useEffect(() => {
    const c = connector.data
    if (c) setForm(toSettings(c))
  }, [connector.data])

  const save = useMutation({
    mutationFn: async () => {
      const config = toConfig(form)
      if (!id) return api().connectors.create({ name: form.name.trim(), enabled: form.enabled, config, ...(secret.trim() ? { secret: secret.trim() } : {}) })
      return api().connectors.patch(id, { name: form.name.trim(), enabled: form.enabled, config }, { ifMatch: connector.data!.version })
    },
    onSuccess: (c) => {
      setNotice('Saved.')
      setSecret('')
      void connectorSaved(queryClient, c)
      if (!id) navigate(`/connectors/${c.id}`)
    },
  })
  const rotate = useMutation({
    mutationFn: () => api().connectors.rotateSecret(id!, secret.trim() ? { secret: secret.trim() } : {}),
    onSuccess: (c) => {
      setSecret('')
      setNotice(`New signing secret in use (ends ${c.secretHint}); the previous one also signs until ${dateTime(c.previousSecretExpiresAt)}.`)
      setConnector(queryClient, c)
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
      {admin ? (
        <form className="form" onSubmit={submit}>
          <h2>Settings</h2>
          <SettingsFields form={form} connector={c} error={error} onChange={set} />
          <SecretFields connector={c} secret={secret} error={error} rotating={rotate.isPending} onSecret={setSecret} onRotate={() => rotate.mutate()} />
          <div className="actions">
            <button type="submit" className="primary" disabled={save.isPending}>
              {c ? 'Save settings' : 'Create connector'}
            </button>
          </div>
        </form>
      ) : (
        c && <SettingsSummary form={form} />
      )}
      {c && (
        <>
          {pusher && <PushPanel connector={c} />}
          <ConnectorCode connector={c} editable={admin} canDryRun={pusher} />
          <RunHistory connector={c} canAct={pusher} />
        </>
      )}
    </section>
  )
}

/** The settings as read, for those who may not change them. */
function SettingsSummary({ form }: { form: Settings }) {
  return (
    <section className="panel" aria-labelledby="settings-h">
      <h2 id="settings-h">Settings</h2>
      <dl className="summary">
        <dt>Sends to</dt>
        <dd>
          <code>{form.url}</code>
        </dd>
        <dt>Schedule</dt>
        <dd>{form.cron ? <code>{form.cron}</code> : 'manual only'}</dd>
        <dt>Enabled</dt>
        <dd>{form.enabled ? 'yes' : 'no'}</dd>
      </dl>
    </section>
  )
}
