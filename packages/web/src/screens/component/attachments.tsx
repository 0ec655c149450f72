import type { Component } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { api, downloadFile } from '../../api'
import { attachmentQueries, attachmentsChanged } from '../../queries/attachments'
import { useCan } from '../../queries/auth'
import { ErrorBox } from '../../ui/error-box'
import { plural } from '../../ui/format'

/** The component's files: download (through fetch, with the key), upload, delete. */
export function Attachments({ component }: { component: Component }) {
  const queryClient = useQueryClient()
  const list = useQuery(attachmentQueries.forComponent(component.id))
  const [downloadError, setDownloadError] = useState<unknown>()
  const upload = useMutation({
    mutationFn: (file: File) => api().attachments.upload(file, { name: file.name.replace(/[\\/]/g, '_'), contentType: file.type || 'application/octet-stream', componentId: component.id }),
    onSuccess: () => void attachmentsChanged(queryClient, component.id),
  })
  const remove = useMutation({
    mutationFn: (id: string) => api().attachments.delete(id),
    // Removing a file is a change of the component (a new version), as adding one is.
    onSuccess: () => void attachmentsChanged(queryClient, component.id),
  })
  const inputId = useId()
  const writer = useCan('library:write')
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
              {a.kind} · {a.size !== null ? plural(a.size, 'byte') : 'link'}
            </span>{' '}
            {writer && (
              <button type="button" onClick={() => confirm(`Delete the file ${a.name}?`) && remove.mutate(a.id)} aria-label={`Delete ${a.name}`}>
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
      {writer && (
        <>
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
        </>
      )}
      {upload.isPending && <p role="status">Uploading…</p>}
    </section>
  )
}
