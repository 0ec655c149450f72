import type { AuditEntry } from '@complib/client-sdk'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { api } from '../api'
import { auditQueries, EMPTY_AUDIT_FILTERS, type AuditFilters } from '../queries/audit'
import { ErrorBox } from '../ui/error-box'
import { dateTime } from '../ui/format'

/**
 * The audit trail (admins): who did what, to which record, how and why,
 * newest first, a page at a time; and a check that its hash chain is intact.
 */
export default function AuditScreen() {
  const [form, setForm] = useState<AuditFilters>(EMPTY_AUDIT_FILTERS)
  const [filters, setFilters] = useState<AuditFilters>(EMPTY_AUDIT_FILTERS)
  // The cursors of the pages before this one: Previous pops one.
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined])
  const cursor = cursors.at(-1)
  const page = useQuery(auditQueries.page(filters, cursor))
  const verify = useMutation({ mutationFn: () => api().audit.verify() })

  const apply = (e: FormEvent) => {
    e.preventDefault()
    // datetime-local has no zone: read as local time, sent as an instant.
    setFilters({ ...form, since: _instant(form.since), until: _instant(form.until) })
    setCursors([undefined])
  }
  const set = (patch: Partial<AuditFilters>) => setForm((f) => ({ ...f, ...patch }))

  return (
    <section className="audit">
      <div className="screen-head">
        <h1>Audit</h1>
        <p className="muted">Every change and sign-in, with who, how and the comment sent. Entries are chained by hashes: a change to one breaks the chain.</p>
        <div className="actions">
          <button type="button" onClick={() => verify.mutate()} disabled={verify.isPending}>
            {verify.isPending ? 'Verifying…' : 'Verify chain'}
          </button>
        </div>
      </div>
      {verify.data && (
        <p role="status" className={verify.data.intact ? 'ok' : 'error-box'}>
          {verify.data.intact
            ? `Intact: ${verify.data.checked} entries checked${verify.data.firstSeq !== null && verify.data.firstSeq > 1 ? ` (from #${verify.data.firstSeq}; older ones were pruned)` : ''}.`
            : `Broken at entry #${verify.data.brokenAt}: its hash does not follow the one before (${verify.data.checked} checked).`}
        </p>
      )}
      <ErrorBox error={verify.error} title="Not verified" />
      <form className="inline-form panel" onSubmit={apply} aria-label="Filters">
        <label>
          Actor
          <input value={form.actor} onChange={(e) => set({ actor: e.target.value })} placeholder="user name or id" />
        </label>
        <label>
          Action
          <input value={form.action} onChange={(e) => set({ action: e.target.value })} placeholder="patchComponent, or auth." />
        </label>
        <label>
          Target id
          <input value={form.targetId} onChange={(e) => set({ targetId: e.target.value })} placeholder="cmp_…" />
        </label>
        <label>
          Since
          <input type="datetime-local" value={form.since} onChange={(e) => set({ since: e.target.value })} />
        </label>
        <label>
          Until
          <input type="datetime-local" value={form.until} onChange={(e) => set({ until: e.target.value })} />
        </label>
        <button type="submit" className="primary">
          Filter
        </button>
        <button
          type="button"
          onClick={() => {
            setForm(EMPTY_AUDIT_FILTERS)
            setFilters(EMPTY_AUDIT_FILTERS)
            setCursors([undefined])
          }}
        >
          Clear
        </button>
      </form>
      <ErrorBox error={page.error} />
      <table className="simple">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Time</th>
            <th scope="col">Actor</th>
            <th scope="col">Channel</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Comment</th>
          </tr>
        </thead>
        <tbody>
          {page.data?.items.length === 0 && (
            <tr>
              <td colSpan={7} className="muted">
                No entries match.
              </td>
            </tr>
          )}
          {page.data?.items.map((a) => (
            <tr key={a.seq}>
              <td>{a.seq}</td>
              <td>{dateTime(a.at)}</td>
              <td>
                {a.actor.name} <span className="muted">({a.actor.kind})</span>
              </td>
              <td>{a.channel}</td>
              <td>
                <code>{a.action}</code>
              </td>
              <td>{_target(a)}</td>
              <td>{a.comment ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="actions pager">
        <button type="button" disabled={cursors.length < 2 || page.isFetching} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Newer
        </button>
        <span className="muted">Page {cursors.length}</span>
        <button type="button" disabled={!page.data?.nextCursor || page.isFetching} onClick={() => setCursors((c) => [...c, page.data!.nextCursor!])}>
          Older
        </button>
      </div>
    </section>
  )
}

function _target(a: AuditEntry) {
  if (!a.target) return ''
  if (a.target.type === 'component') return <a href={`#/components/${encodeURIComponent(a.target.id)}`}>{a.target.id}</a>
  return (
    <>
      {a.target.type} <code>{a.target.id}</code>
    </>
  )
}

function _instant(local: string): string {
  return local ? new Date(local).toISOString() : ''
}
