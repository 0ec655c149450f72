import type { ComplibClient } from '@complib/client-sdk'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { api, downloadFile } from '../api'
import { ErrorBox } from '../ui/error-box'
import { count } from '../ui/format'

type ImportSession = Awaited<ReturnType<ComplibClient['imports']['create']>>

type Target = ImportSession['mapping'][string]
/** What a column can become (core's ImportTarget), in the order a person looks for them. */
const TARGETS: Target[] = [
  'name', 'ipn', 'description', 'status', 'category', 'tags', 'manufacturer', 'partNumber', 'mpns', 'parameter', 'parameterUnit', 'parameters',
  'symbols', 'footprints', 'stock', 'location', 'quantity', 'datasheet', 'attachments', 'ignore',
]

/**
 * Import a CSV or JSON file: the server detects the format and maps the
 * columns; change the mapping and see every row's outcome before committing.
 * Exports and the backup download are here too.
 */
export default function ImportScreen() {
  const queryClient = useQueryClient()
  const [session, setSession] = useState<ImportSession>()
  const [format, setFormat] = useState<'' | 'csv' | 'json'>('')
  const [upsertKey, setUpsertKey] = useState<ImportSession['upsertKey']>('ipn')
  const [downloadError, setDownloadError] = useState<unknown>()
  const fileId = useId()
  const upload = useMutation({
    mutationFn: async (file: File) => api().imports.create(file, { name: file.name, upsertKey, ...(format ? { format } : {}) }),
    onSuccess: setSession,
  })
  const remap = useMutation({
    mutationFn: (body: { mapping?: Record<string, Target>; upsertKey?: ImportSession['upsertKey'] }) => api().imports.patch(session!.id, body, { ifMatch: session!.version }),
    onSuccess: setSession,
  })
  const commit = useMutation({
    mutationFn: () => api().imports.commit(session!.id),
    onSuccess: (s) => {
      setSession(s)
      void queryClient.invalidateQueries({ queryKey: ['components'] })
    },
  })
  const rows = session ? _rowOutcomes(session) : []

  return (
    <section>
      <div className="screen-head">
        <h1>Import &amp; export</h1>
      </div>
      <section className="panel" aria-labelledby="import-h">
        <h2 id="import-h">Import a file</h2>
        <form className="inline" onSubmit={(e) => e.preventDefault()}>
          <label>
            Format
            <select value={format} onChange={(e) => setFormat(e.target.value as '' | 'csv' | 'json')}>
              <option value="">Detect from the file</option>
              <option value="csv">CSV</option>
              <option value="json">JSON</option>
            </select>
          </label>
          <label>
            Update existing components found by
            <select value={upsertKey} onChange={(e) => setUpsertKey(e.target.value as ImportSession['upsertKey'])}>
              <option value="ipn">IPN</option>
              <option value="mpn">manufacturer part number</option>
              <option value="name">name</option>
            </select>
          </label>
          <label htmlFor={fileId}>
            File (CSV or JSON)
            <input
              id={fileId}
              type="file"
              accept=".csv,.json,text/csv,application/json"
              onChange={(e) => {
                const file = e.target.files?.[0]
                if (file) {
                  commit.reset()
                  upload.mutate(file)
                }
                e.target.value = ''
              }}
            />
          </label>
        </form>
        <ErrorBox error={upload.error ?? remap.error ?? commit.error} />
        {session && (
          <>
            <p aria-live="polite">
              <strong>{session.fileName ?? 'Upload'}</strong>: detected <strong>{session.format.toUpperCase()}</strong>, {count(session.rowCount)} rows. Committing would create{' '}
              <strong>{count(session.summary.create)}</strong>, update <strong>{count(session.summary.update)}</strong>
              {session.summary.invalid > 0 ? (
                <>
                  ; <strong>{count(session.summary.invalid)}</strong> {session.summary.invalid === 1 ? 'row is' : 'rows are'} invalid: fix the file or the mapping to commit.
                </>
              ) : (
                '.'
              )}
            </p>
            <fieldset>
              <legend>Column mapping</legend>
              <div className="grid2">
                {session.columns.map((col) => (
                  <label key={col}>
                    Column “{col}”
                    <select
                      value={session.mapping[col] ?? 'ignore'}
                      disabled={session.status === 'committed' || remap.isPending}
                      onChange={(e) => remap.mutate({ mapping: { ...session.mapping, [col]: e.target.value as Target } })}
                    >
                      {TARGETS.map((t) => (
                        <option key={t} value={t}>
                          {t === 'parameter' ? `parameter “${col}”` : t}
                        </option>
                      ))}
                    </select>
                  </label>
                ))}
              </div>
            </fieldset>
            <table className="simple">
              <caption className="visually-hidden">Outcome of every row</caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.row} className={r.outcome === 'invalid' ? 'invalid' : undefined}>
                    <td>{r.row}</td>
                    <td>{r.outcome}</td>
                    <td>{r.details}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="actions">
              {session.status === 'committed' ? (
                <p role="status" className="ok">
                  Imported: {count(session.result?.created ?? 0)} created, {count(session.result?.updated ?? 0)} updated.
                </p>
              ) : (
                <button type="button" className="primary" onClick={() => commit.mutate()} disabled={commit.isPending || session.summary.invalid > 0 || session.summary.create + session.summary.update === 0}>
                  Commit the import
                </button>
              )}
            </div>
          </>
        )}
      </section>
      <section className="panel" aria-labelledby="export-h">
        <h2 id="export-h">Export and backup</h2>
        <ErrorBox error={downloadError} />
        <div className="actions">
          <button type="button" onClick={() => downloadFile('/api/exports/components?format=csv', 'components.csv').catch(setDownloadError)}>
            Download components (CSV)
          </button>
          <button type="button" onClick={() => downloadFile('/api/exports/components?format=json', 'components.json').catch(setDownloadError)}>
            Download components (JSON)
          </button>
          <button type="button" onClick={() => downloadFile('/api/exports/backup', `complib-backup-${new Date().toISOString().slice(0, 10)}.db`).catch(setDownloadError)}>
            Download a full backup
          </button>
        </div>
        <p className="hint">The backup is an online copy of the whole database; restoring it is described in packages/core's README.</p>
      </section>
    </section>
  )
}

/** Every row: created, updated or invalid, with what it becomes or why it fails. */
function _rowOutcomes(s: ImportSession): Array<{ row: number; outcome: string; details: string }> {
  const byRow = new Map<number, { outcome: string; details: string }>()
  for (const p of s.preview) byRow.set(p.row, { outcome: p.action, details: String(p.input.name ?? p.input.ipn ?? '') })
  for (const e of s.errors) {
    const prior = byRow.get(e.row)
    byRow.set(e.row, { outcome: 'invalid', details: `${prior?.outcome === 'invalid' ? `${prior.details}; ` : ''}${e.path}: ${e.message}` })
  }
  return [...byRow.entries()].sort((a, b) => a[0] - b[0]).map(([row, r]) => ({ row, ...r }))
}
