import type { Connector, Run } from '@complib/client-sdk'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { api, describeError } from '../../api'
import { invalidateRuns } from '../../queries/connectors'
import { count } from '../../ui/format'

interface Live {
  run: Run
  /** Components per second since the run started, from the events. */
  rate: number
  lastBatch?: string | undefined
}

/**
 * Push now, then the run as it goes, from its server-sent events
 * (`client.runs.follow`): batches done and failed, components sent, rate,
 * until it ends. Cancel while it runs.
 */
export function PushPanel({ connector }: { connector: Connector }) {
  const queryClient = useQueryClient()
  const [live, setLive] = useState<Live>()
  const [error, setError] = useState<string>()
  const abort = useRef<AbortController | undefined>(undefined)
  const panel = useRef<HTMLElement>(null)
  useEffect(() => () => abort.current?.abort(), [])
  // A push started: the panel with its progress comes into view, else the progress
  // grows below the fold, under the button that started it (decision 1418).
  const runId = live?.run.id
  useEffect(() => {
    if (runId) panel.current?.scrollIntoView({ block: 'nearest', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' })
  }, [runId])

  async function follow(run: Run) {
    abort.current?.abort()
    const controller = new AbortController()
    abort.current = controller
    const started = Date.now()
    setLive({ run, rate: 0 })
    try {
      for await (const event of api().runs.follow(run.id, { signal: controller.signal })) {
        if (event.type === 'progress' || event.type === 'end') {
          const seconds = (Date.now() - started) / 1000
          setLive((l) => ({ ...l, run: event.run, rate: seconds > 0.2 ? event.run.entitiesSent / seconds : (l?.rate ?? 0) }))
        } else if (event.type === 'batch') {
          const b = event.batch
          setLive((l) => l && { ...l, lastBatch: `batch ${b.index + 1} ${b.status}${b.lastStatus ? ` (HTTP ${b.lastStatus})` : ''}${b.error ? `: ${b.error}` : ''}` })
        } else if (event.type === 'error') setError(event.detail)
      }
    } catch (err) {
      if (!controller.signal.aborted) setError(describeError(err).message)
    }
    void invalidateRuns(queryClient, connector.id)
  }

  async function push() {
    setError(undefined)
    try {
      await follow(await api().connectors.push(connector.id))
    } catch (err) {
      setError(describeError(err).message)
    }
  }

  async function cancel() {
    if (!live) return
    try {
      await api().runs.cancel(live.run.id)
    } catch (err) {
      setError(describeError(err).message)
    }
  }

  const run = live?.run
  const running = run && (run.status === 'queued' || run.status === 'running')
  const done = run ? run.batchesSucceeded + run.batchesFailed : 0
  return (
    <section className="panel" aria-labelledby="push-h" ref={panel}>
      <h2 id="push-h">Push</h2>
      <div className="actions">
        <button type="button" className="primary" onClick={() => void push()} disabled={!!running}>
          Push now
        </button>
        {running && (
          <button type="button" className="danger" onClick={() => void cancel()}>
            Cancel the run
          </button>
        )}
      </div>
      {error && (
        <p role="alert" className="error-box">
          {error}
        </p>
      )}
      {run && (
        <div className="live" aria-live="polite" aria-busy={running}>
          <p>
            Run <code>{run.id}</code>: <strong className={`run-${run.status}`}>{run.status}</strong>
            {run.error ? ` (${run.error})` : ''}
          </p>
          <progress max={Math.max(1, run.batchesTotal)} value={done} aria-label="Batches done" />
          <dl className="stats">
            <div>
              <dt>Batches done</dt>
              <dd data-testid="batches-done">
                {count(done)} / {count(run.batchesTotal)}
              </dd>
            </div>
            <div>
              <dt>Failed</dt>
              <dd>{count(run.batchesFailed)}</dd>
            </div>
            <div>
              <dt>Components sent</dt>
              <dd data-testid="entities-sent">
                {count(run.entitiesSent)} / {count(run.total)}
              </dd>
            </div>
            <div>
              <dt>Rate</dt>
              <dd>{live.rate.toFixed(live.rate < 10 ? 1 : 0)} /s</dd>
            </div>
          </dl>
          {live.lastBatch && <p className="muted">Last: {live.lastBatch}</p>}
        </div>
      )}
    </section>
  )
}
