import type { Component } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { api, downloadFile } from '../api'
import { ErrorBox } from '../ui/error-box'
import { count, dateTime, relativeTime } from '../ui/format'

/** What hangs off a saved component: attachments, stock per location, history. */
export function ComponentExtras({ component }: { component: Component }) {
  return (
    <div className="extras">
      <Attachments component={component} />
      <Stock component={component} />
      <History component={component} />
    </div>
  )
}

function Attachments({ component }: { component: Component }) {
  const queryClient = useQueryClient()
  const list = useQuery({ queryKey: ['attachments', component.id], queryFn: () => api().attachments.forComponent(component.id) })
  const [downloadError, setDownloadError] = useState<unknown>()
  const upload = useMutation({
    mutationFn: (file: File) => api().attachments.upload(file, { name: file.name.replace(/[\\/]/g, '_'), contentType: file.type || 'application/octet-stream', componentId: component.id }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['attachments', component.id] })
      void queryClient.invalidateQueries({ queryKey: ['component', component.id] })
    },
  })
  const remove = useMutation({
    mutationFn: (id: string) => api().attachments.delete(id),
    // Removing a file is a change of the component (a new version), as adding one is.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['attachments', component.id] })
      void queryClient.invalidateQueries({ queryKey: ['component', component.id] })
    },
  })
  const inputId = useId()
  return (
    <section aria-labelledby={`${inputId}-h`}>
      <h2 id={`${inputId}-h`}>Attachments</h2>
      <ErrorBox error={list.error ?? upload.error ?? remove.error ?? downloadError} />
      <ul className="plain">
        {list.data?.length === 0 && <li className="muted">No files yet.</li>}
        {list.data?.map((a) => (
          <li key={a.id}>
            {a.url ? (
              <a href={a.url} rel="noreferrer noopener" target="_blank">
                {a.name}
              </a>
            ) : (
              <button type="button" className="link" onClick={() => downloadFile(`/api/attachments/${a.id}/content`, a.name).catch(setDownloadError)}>
                Download {a.name}
              </button>
            )}{' '}
            <span className="muted">
              {a.kind} · {a.size !== null ? `${count(a.size)} bytes` : 'link'}
            </span>{' '}
            <button type="button" onClick={() => confirm(`Delete the file ${a.name}?`) && remove.mutate(a.id)} aria-label={`Delete ${a.name}`}>
              Delete
            </button>
          </li>
        ))}
      </ul>
      <label htmlFor={inputId}>Upload a file (datasheet, image, CAD)</label>
      <input
        id={inputId}
        type="file"
        onChange={(e) => {
          const file = e.target.files?.[0]
          if (file) upload.mutate(file)
          e.target.value = ''
        }}
      />
      {upload.isPending && <p role="status">Uploading…</p>}
    </section>
  )
}

function Stock({ component }: { component: Component }) {
  const queryClient = useQueryClient()
  const stock = useQuery({ queryKey: ['stock', component.id], queryFn: () => api().stock.forComponent(component.id) })
  const locations = useQuery({ queryKey: ['locations', 'all'], queryFn: () => api().locations.list({ limit: 1000 }) })
  const [locationId, setLocationId] = useState('')
  const [quantity, setQuantity] = useState('0')
  const set = useMutation({
    mutationFn: ({ loc, qty }: { loc: string; qty: number }) => api().stock.set(component.id, loc, qty),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['stock', component.id] })
      void queryClient.invalidateQueries({ queryKey: ['locations'] })
    },
  })
  const id = useId()
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Stock</h2>
      <ErrorBox error={stock.error ?? set.error} />
      <table className="simple">
        <thead>
          <tr>
            <th scope="col">Location</th>
            <th scope="col">Quantity</th>
          </tr>
        </thead>
        <tbody>
          {stock.data?.length === 0 && (
            <tr>
              <td colSpan={2} className="muted">
                Not stocked anywhere.
              </td>
            </tr>
          )}
          {stock.data?.map((s) => (
            <tr key={s.locationId}>
              <td>{s.path}</td>
              <td>{count(s.quantity)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault()
          if (locationId) set.mutate({ loc: locationId, qty: Number(quantity) })
        }}
      >
        <label>
          Location
          <select value={locationId} onChange={(e) => setLocationId(e.target.value)}>
            <option value="">Choose…</option>
            {locations.data?.items.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Quantity
          <input type="number" min={0} value={quantity} onChange={(e) => setQuantity(e.target.value)} />
        </label>
        <button type="submit" disabled={!locationId || set.isPending}>
          Set stock
        </button>
      </form>
    </section>
  )
}

function History({ component }: { component: Component }) {
  const history = useQuery({ queryKey: ['history', component.id, component.version], queryFn: () => api().components.history(component.id, { limit: 100 }) })
  const id = useId()
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>History</h2>
      <ErrorBox error={history.error} />
      <ol className="history" reversed>
        {history.data?.items.map((h) => (
          <li key={h.seq}>
            <strong>
              Version {h.version}: {h.op}
            </strong>{' '}
            <span className="muted" title={dateTime(h.at)}>
              {relativeTime(h.at)}
            </span>
            {h.op === 'update' && h.changes.length > 0 && (
              <ul>
                {h.changes.map((field) => (
                  <li key={field}>
                    <code>{field}</code> → {_show((h.snapshot as Record<string, unknown>)[field])}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </section>
  )
}

function _show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)'
  if (Array.isArray(value))
    return (
      value
        .map((v) => (typeof v === 'object' && v ? Object.values(v as Record<string, unknown>).filter((x) => x !== null).join(' ') : String(v)))
        .join(', ') || '(none)'
    )
  return String(value)
}
