import type { ComplibClient } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { api, downloadFile } from '../api'
import { ErrorBox } from '../ui/error-box'
import { count } from '../ui/format'

type ImportSession = Awaited<ReturnType<ComplibClient['imports']['create']>>

type Target = ImportSession['mapping'][string]
/** What a column can become (core's ImportTarget), in the order a person looks for them; a target core adds is a type error here until listed. */
const _TARGET_ORDER: Record<Target, null> = {
  name: null, ipn: null, description: null, status: null, category: null, tags: null, manufacturer: null, partNumber: null, mpns: null, parameter: null, parameterUnit: null,
  parameters: null, symbols: null, footprints: null, kicadValue: null, excludeFromBom: null, excludeFromBoard: null, excludeFromSim: null, stock: null, location: null, quantity: null,
  datasheet: null, attachments: null, ignore: null,
}
const TARGETS = Object.keys(_TARGET_ORDER) as Target[]
/** Rows of the outcome table (the server pages every row: GET /api/imports/:id/rows). */
const ROWS_SHOWN = 500

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
  // Every row's outcome as the server reads it (the session's preview holds only the first rows).
  const outcomes = useQuery({
    queryKey: ['import-rows', session?.id, session?.version],
    queryFn: () => api().imports.rows(session!.id, { limit: ROWS_SHOWN }),
    enabled: session !== undefined,
  })
  const rows = outcomes.data?.items ?? []

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
                    <td>{r.errors.length ? r.errors.map((e) => `${e.field}: ${e.message}`).join('; ') : (r.name ?? r.ipn ?? '')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <ErrorBox error={outcomes.error} />
            {outcomes.data && outcomes.data.total > rows.length && (
              <p className="hint">
                The first {count(rows.length)} of {count(outcomes.data.total)} rows; every row's outcome is at GET /api/imports/{session.id}/rows.
              </p>
            )}
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
