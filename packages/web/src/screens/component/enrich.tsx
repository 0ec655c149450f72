import type { Component } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useState } from 'react'
import { api } from '../../api'
import { useCan } from '../../queries/auth'
import { enriched, type EnrichField, type EnrichResult } from '../../queries/offers'
import { sourceQueries } from '../../queries/sources'
import { href } from '../../router'
import { ErrorBox } from '../../ui/error-box'
import { EnrichDiff } from './enrich-diff'
import { fieldName } from './enrich-values'
import '../../ui/sources.css'

/**
 * Enrich from source: Compare runs a dry run (nothing written) and shows the
 * differences field by field; Apply selected writes only the fields ticked,
 * at the part the comparison found, then the component is read again.
 */
export function Enrich({ component }: { component: Component }) {
  const queryClient = useQueryClient()
  const sources = useQuery(sourceQueries.list())
  const admin = useCan('sources:admin')
  const [picked, setPicked] = useState('')
  const [ref, setRef] = useState('')
  const [result, setResult] = useState<EnrichResult>()
  const [selected, setSelected] = useState<ReadonlySet<EnrichField>>(new Set())
  const [notice, setNotice] = useState<string>()
  const sourceId = picked || sources.data?.[0]?.id || ''
  const nameOf = (id: string) => sources.data?.find((s) => s.id === id)?.name ?? 'the source'
  const id = useId()

  const compare = useMutation({
    mutationFn: () => api().components.enrich(component.id, { sourceId, ...(ref.trim() ? { ref: ref.trim() } : {}), dryRun: true }),
    onMutate: () => setNotice(undefined),
    onSuccess: (r) => {
      setResult(r)
      setSelected(new Set(r.changes.filter((c) => !c.note).map((c) => c.field)))
    },
  })
  const apply = useMutation({
    // The ref the comparison found: the same part, even when it was looked up by MPN.
    mutationFn: (r: EnrichResult) => api().components.enrich(component.id, { sourceId: r.sourceId, ref: r.ref, fields: [...selected], dryRun: false }),
    onSuccess: (r) => {
      const applied = r.changes.filter((c) => c.applied).map((c) => fieldName(c.field).toLowerCase())
      setNotice(applied.length ? `Applied from ${nameOf(r.sourceId)}: ${applied.join(', ')}.` : 'Nothing was applied: the fields chosen no longer differ.')
      setResult(undefined)
      void enriched(queryClient, r.component)
    },
  })
  // A comparison is of one version: once the component changes (saved, enriched), it is stale.
  useEffect(() => setResult((r) => (r && r.component.version !== component.version ? undefined : r)), [component.version])

  const toggle = (field: EnrichField, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s)
      if (on) next.add(field)
      else next.delete(field)
      return next
    })
  const mpn = component.mpns[0]?.partNumber

  return (
    <section aria-labelledby={`${id}-h`} className="enrich">
      <h2 id={`${id}-h`}>Enrich from source</h2>
      <ErrorBox error={sources.error} />
      {sources.data?.length === 0 ? (
        <p className="muted">
          No sources are configured. {admin ? <a href={href('/sources')}>Add one</a> : 'An admin configures them.'}
        </p>
      ) : (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault()
            compare.mutate()
          }}
        >
          <label>
            Source
            <select value={sourceId} onChange={(e) => (setPicked(e.target.value), setResult(undefined))}>
              {sources.data?.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <label className="grow">
            Part at the source (optional)
            <input value={ref} onChange={(e) => setRef(e.target.value)} placeholder={mpn ? `empty: looked up by ${mpn}` : 'the supplier’s part number'} maxLength={300} spellCheck={false} />
          </label>
          <button type="submit" disabled={!sourceId || compare.isPending}>
            {compare.isPending ? 'Comparing…' : 'Compare'}
          </button>
        </form>
      )}
      <ErrorBox error={compare.error} title="Not compared" />
      <ErrorBox error={apply.error} title="Not applied" />
      {notice && (
        <p role="status" className="ok">
          {notice}
        </p>
      )}
      {result && (
        <div className="enrich-result" aria-live="polite">
          {result.changes.length === 0 ? (
            <p className="muted">
              Nothing differs: the component already says what {nameOf(result.sourceId)} says about <code>{result.ref}</code>.
            </p>
          ) : (
            <>
              <p className="muted">
                Compared with <code>{result.ref}</code> at {nameOf(result.sourceId)}; nothing is written until you apply.
              </p>
              <EnrichDiff changes={result.changes} sourceName={nameOf(result.sourceId)} selected={selected} onToggle={toggle} />
              <div className="actions">
                <button type="button" className="primary" disabled={selected.size === 0 || apply.isPending} onClick={() => apply.mutate(result)}>
                  {apply.isPending ? 'Applying…' : `Apply selected (${selected.size})`}
                </button>
                <button type="button" onClick={() => setResult(undefined)}>
                  Dismiss
                </button>
              </div>
            </>
          )}
        </div>
      )}
    </section>
  )
}
