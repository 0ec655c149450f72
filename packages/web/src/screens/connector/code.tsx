import type { Connector } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useId, useState } from 'react'
import { api } from '../../api'
import { connectorCodeChanged, connectorQueries } from '../../queries/connectors'
import { ErrorBox } from '../../ui/error-box'
import { count } from '../../ui/format'

// CodeMirror is most of this screen's weight: loaded when the code is shown.
const CodeEditor = lazy(() => import('../../ui/code-editor'))

/**
 * The connector's code in an editor, saved with If-Match (`editable`: admins;
 * others read it); a dry run (`canDryRun`) shows what it would send and its logs.
 */
export function ConnectorCode({ connector, editable, canDryRun }: { connector: Connector; editable: boolean; canDryRun: boolean }) {
  const queryClient = useQueryClient()
  const code = useQuery(connectorQueries.code(connector.id))
  const [text, setText] = useState<string>()
  const [notice, setNotice] = useState<string>()
  useEffect(() => {
    if (code.data) setText(code.data.code)
  }, [code.data])
  const save = useMutation({
    mutationFn: (body: string | null) => api().connectors.putCode(connector.id, body, { ifMatch: connector.version }),
    onSuccess: async (saved) => {
      setNotice(saved.isDefault ? 'Back to the default code.' : 'Code saved.')
      await connectorCodeChanged(queryClient, connector.id)
    },
  })
  const dryRun = useMutation({ mutationFn: () => api().connectors.test(connector.id) })
  const id = useId()
  const dirty = code.data && text !== undefined && text !== code.data.code

  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Code</h2>
      <p className="muted">
        <code>push(entities, config, helpers)</code> runs sandboxed for each batch; <code>helpers.sendWebhook(url, entities)</code> sends it signed.{' '}
        {code.data?.isDefault ? 'This is the default code.' : 'This connector runs its own code.'}
      </p>
      <ErrorBox error={code.error ?? save.error} title={save.error ? 'Code not saved' : undefined} />
      {notice && !dirty && (
        <p role="status" className="ok">
          {notice}
        </p>
      )}
      {text !== undefined &&
        (editable ? (
          <Suspense fallback={<pre className="code">{text}</pre>}>
            <CodeEditor value={text} onChange={setText} label="Connector code" />
          </Suspense>
        ) : (
          <pre className="code">{text}</pre>
        ))}
      {editable && <p className="hint">In the editor, Tab indents; press Escape, then Tab, to move on.</p>}
      <div className="actions">
        {editable && (
          <>
            <button type="button" className="primary" disabled={!dirty || save.isPending} onClick={() => save.mutate(text ?? null)}>
              Save code
            </button>
            <button type="button" disabled={code.data?.isDefault || save.isPending} onClick={() => save.mutate(null)}>
              Back to the default code
            </button>
          </>
        )}
        {canDryRun && (
          <button type="button" onClick={() => dryRun.mutate()} disabled={dryRun.isPending}>
            {dryRun.isPending ? 'Running…' : 'Dry run'}
          </button>
        )}
        {dirty && <span className="muted">Unsaved: the dry run uses the saved code.</span>}
      </div>
      <ErrorBox error={dryRun.error} title="Dry run failed" />
      {dryRun.data && (
        <div className="dry-run" aria-live="polite">
          <h3>Dry run: what would be sent (nothing left this machine)</h3>
          {dryRun.data.error && (
            <p role="alert" className="error-box">
              The code failed: {dryRun.data.error}
            </p>
          )}
          <table className="simple">
            <thead>
              <tr>
                <th scope="col">To</th>
                <th scope="col">Components</th>
                <th scope="col">Bytes</th>
              </tr>
            </thead>
            <tbody>
              {dryRun.data.sent.length === 0 && (
                <tr>
                  <td colSpan={3} className="muted">
                    Nothing would be sent.
                  </td>
                </tr>
              )}
              {dryRun.data.sent.map((s, i) => (
                <tr key={i}>
                  <td>
                    <code>{s.url}</code>
                  </td>
                  <td>{count(s.entities)}</td>
                  <td>{count(s.bytes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>Logs</h3>
          <pre className="code" tabIndex={0} aria-label="Dry run logs">
            {dryRun.data.logs.length ? dryRun.data.logs.join('\n') : '(no log lines)'}
          </pre>
        </div>
      )}
    </section>
  )
}
