import type { Connector, Run, RunBatch } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api } from '../../api'
import { connectorQueries, invalidateRuns, isRunActive } from '../../queries/connectors'
import { ErrorBox } from '../../ui/error-box'
import { count, dateTime, plural, relativeTime } from '../../ui/format'

/** The connector's runs, newest first; open one for its batches, attempts and errors; resume or cancel one (`canAct`). */
export function RunHistory({ connector, canAct }: { connector: Connector; canAct: boolean }) {
  const runs = useQuery(connectorQueries.runs(connector.id))
  return (
    <section className="panel" aria-labelledby="runs-h">
      <h2 id="runs-h">Runs</h2>
      <ErrorBox error={runs.error} />
      {runs.data?.items.length === 0 && <p className="muted">No runs yet.</p>}
      <ul className="plain runs">
        {runs.data?.items.map((r) => (
          <RunItem key={r.id} run={r} connectorId={connector.id} canAct={canAct} />
        ))}
      </ul>
    </section>
  )
}

function RunItem({ run, connectorId, canAct }: { run: Run; connectorId: string; canAct: boolean }) {
  const [open, setOpen] = useState(false)
  const queryClient = useQueryClient()
  const detail = useQuery(connectorQueries.run(run.id, run.status, open))
  // The details carry the first batches; the rest come a page at a time (a push of a million parts has 4,000).
  const [later, setLater] = useState<{ runStatus: string; batches: RunBatch[]; cursor: string | null } | null>(null)
  const shownLater = later?.runStatus === run.status ? later : null
  const nextCursor = shownLater ? shownLater.cursor : (detail.data?.batchesNextCursor ?? null)
  const more = useMutation({
    mutationFn: async (cursor: string) => await api().runs.batches(run.id, { cursor, limit: 500 }),
    onSuccess: (page) => setLater({ runStatus: run.status, batches: [...(shownLater?.batches ?? []), ...page.items], cursor: page.nextCursor }),
  })
  const batches = detail.data ? [...detail.data.batches, ...(shownLater?.batches ?? [])] : []
  const act = useMutation({
    mutationFn: (kind: 'resume' | 'cancel') => (kind === 'resume' ? api().runs.resume(run.id) : api().runs.cancel(run.id)),
    onSuccess: () => void invalidateRuns(queryClient, connectorId),
  })
  const active = isRunActive(run) && canAct
  return (
    <li>
      <details onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
        <summary>
          <strong className={`run-${run.status}`}>{run.status}</strong> · {run.trigger} · {relativeTime(run.createdAt)} · {count(run.batchesSucceeded)}/{plural(run.batchesTotal, 'batch', 'batches')}, {plural(run.entitiesSent, 'component')} sent{run.batchesFailed ? `, ${count(run.batchesFailed)} failed` : ''}
        </summary>
        <div className="run-detail">
          <p className="muted">
            <code>{run.id}</code> · started {dateTime(run.startedAt)} · finished {dateTime(run.finishedAt)}
            {run.resumedAt ? ` · resumed ${dateTime(run.resumedAt)}` : ''}
          </p>
          {run.error && <p className="error-box">{run.error}</p>}
          <div className="actions">
            {active && (
              <>
                <button type="button" className="danger" onClick={() => act.mutate('cancel')} disabled={act.isPending}>
                  Cancel
                </button>
                <button type="button" onClick={() => act.mutate('resume')} disabled={act.isPending} aria-describedby={`${run.id}-resume`}>
                  Resume
                </button>
              </>
            )}
          </div>
          {/* The server resumes only a run no runner is executing; an ended run (failed, cancelled) is pushed again instead. */}
          {active && (
            <p className="hint" id={`${run.id}-resume`}>
              Resume carries on a run a stopped server left unfinished, without resending the batches the receiver acknowledged.
            </p>
          )}
          <ErrorBox error={act.error ?? detail.error} />
          {detail.data && (
            <table className="simple">
              <caption className="visually-hidden">Batches of run {run.id}</caption>
              <thead>
                <tr>
                  <th scope="col">Batch</th>
                  <th scope="col">Status</th>
                  <th scope="col">Components</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {batches.map((b) => (
                  <tr key={b.index}>
                    <td>{b.index + 1}</td>
                    <td>{b.status}</td>
                    <td>
                      {count(b.entitiesSent)} / {count(b.size)}
                    </td>
                    <td>
                      {b.attempts.map((a, i) => (
                        <span key={i} className="attempt" title={`${dateTime(a.at)}${a.error ? `: ${a.error}` : ''}`}>
                          {a.status ?? 'no answer'} in {Math.round(a.durationMs)} ms{i < b.attempts.length - 1 ? ', ' : ''}
                        </span>
                      ))}
                    </td>
                    <td>{b.error ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {detail.data && nextCursor && (
            <p>
              <button type="button" onClick={() => more.mutate(nextCursor)} disabled={more.isPending}>
                {more.isPending ? 'Loading…' : `Show more batches (${count(batches.length)} of ${count(run.batchesTotal)} shown)`}
              </button>
            </p>
          )}
          <ErrorBox error={more.error} title="More batches could not be read" />
          {detail.data && detail.data.logs.length > 0 && (
            <pre className="code" tabIndex={0} aria-label="Run logs">
              {detail.data.logs.join('\n')}
            </pre>
          )}
        </div>
      </details>
    </li>
  )
}
