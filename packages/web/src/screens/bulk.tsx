import type { BulkResult } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api } from '../api'
import { componentQueries, invalidateComponents } from '../queries/components'
import { href } from '../router'
import { useSelection } from '../selection'
import { ErrorBox } from '../ui/error-box'
import { count, plural } from '../ui/format'
import { PlanFields } from './bulk/plan-form'
import { EMPTY_PLAN, patchFor, type Plan } from './bulk/plan'
import { DryRunPreview } from './bulk/preview'

/** At most this many items per request: the API's bulk limit (BULK_MAX_ITEMS). */
const CHUNK = 1000

/**
 * Bulk edit of the rows selected in the library: set or clear a field,
 * add or remove tags, change status. A dry run shows every change first;
 * applying sends them atomically per 1,000 with If-Match versions, with progress.
 */
export default function BulkScreen() {
  const selection = useSelection()
  const queryClient = useQueryClient()
  const ids = [...selection.ids]
  const [plan, setPlan] = useState<Plan>(EMPTY_PLAN)
  const [progress, setProgress] = useState<string>()
  const components = useQuery(componentQueries.selection(ids))
  const items = (components.data ?? []).map((c) => ({ c, patch: patchFor(c, plan) })).filter((x) => Object.keys(x.patch).length > 0)
  const send = async (dryRun: boolean): Promise<BulkResult[]> => {
    const results: BulkResult[] = []
    for (let i = 0; i < items.length; i += CHUNK) {
      const chunk = items.slice(i, i + CHUNK)
      results.push(await api().bulk.patch({ dryRun, items: chunk.map(({ c, patch }) => ({ id: c.id, patch, ifVersion: c.version })) }))
      if (!dryRun) setProgress(`${count(Math.min(i + CHUNK, items.length))} of ${count(items.length)} applied`)
    }
    return results
  }
  const preview = useMutation({ mutationFn: () => send(true) })
  const apply = useMutation({
    mutationFn: () => send(false),
    onSuccess: () => {
      void invalidateComponents(queryClient)
      preview.reset()
    },
  })
  const change = (patch: Partial<Plan>) => {
    preview.reset()
    apply.reset()
    setProgress(undefined)
    setPlan((p) => ({ ...p, ...patch }))
  }

  if (ids.length === 0)
    return (
      <section>
        <h1>Bulk edit</h1>
        <p>
          No rows selected. Select components in the <a href={href('/')}>library</a> first.
        </p>
      </section>
    )

  return (
    <section>
      <div className="screen-head">
        <h1>Bulk edit</h1>
        <p className="muted">{plural(ids.length, 'component')} selected</p>
      </div>
      <ErrorBox error={components.error} />
      <form className="form" onSubmit={(e) => (e.preventDefault(), preview.mutate())}>
        <PlanFields plan={plan} onChange={change} />
        <div className="actions">
          <button type="submit" disabled={items.length === 0 || preview.isPending}>
            Preview (dry run)
          </button>
          <button type="button" className="primary" disabled={!preview.data || apply.isPending} onClick={() => apply.mutate()}>
            Apply to {plural(items.length, 'component')}
          </button>
          <span className="muted">{items.length ? `${count(items.length)} would change` : 'Nothing to change yet'}</span>
        </div>
      </form>
      <ErrorBox error={preview.error ?? apply.error} title={apply.error ? 'Nothing applied' : 'The dry run refused the edit'} />
      {progress && (
        <p role="status" className={apply.isSuccess ? 'ok' : undefined}>
          {apply.isSuccess ? `Done: ${progress}.` : progress}
        </p>
      )}
      {preview.data && <DryRunPreview results={preview.data} items={items} />}
    </section>
  )
}
