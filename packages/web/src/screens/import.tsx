import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { api } from '../api'
import { useCan } from '../queries/auth'
import { invalidateComponents } from '../queries/components'
import { ErrorBox } from '../ui/error-box'
import { ExportPanel } from './import/export-panel'
import { ColumnMapping } from './import/mapping'
import { RowOutcomes } from './import/outcomes'
import { PullForm } from './import/pull-form'
import type { ImportSession, Target } from './import/session'
import { ImportSummary, isPull, pullFailed } from './import/summary'
import './import/import.css'

/**
 * Import a CSV or JSON file: the server detects the format and maps the
 * columns; change the mapping and see every row's outcome before committing.
 * Or pull a peer's whole library (InvenTree, Part-DB), previewed and
 * committed the same way. Exports and the backup download are here too.
 */
export default function ImportScreen() {
  const queryClient = useQueryClient()
  const [session, setSession] = useState<ImportSession>()
  const [format, setFormat] = useState<'' | 'csv' | 'json'>('')
  const [upsertKey, setUpsertKey] = useState<ImportSession['upsertKey']>('ipn')
  const fileId = useId()
  const writer = useCan('library:write')
  /** A file of more than 1,000 rows answers with its job running: shown at once, then polled to its end with its progress. */
  const settle = async (s: ImportSession): Promise<ImportSession> => {
    if (s.status !== 'planning' && s.status !== 'committing') return s
    setSession(s)
    return api().imports.waitFor(s.id, { intervalMs: 500, onProgress: (progress) => setSession((cur) => (cur && cur.id === s.id ? { ...cur, progress } : cur)) })
  }
  const upload = useMutation({
    mutationFn: async (file: File) => settle(await api().imports.create(file, { name: file.name, upsertKey, ...(format ? { format } : {}) })),
    onSuccess: setSession,
  })
  const pull = useMutation({
    mutationFn: async (sourceId: string) => settle(await api().sources.pull(sourceId, { upsertKey })),
    onSuccess: setSession,
  })
  const remap = useMutation({
    mutationFn: async (body: { mapping?: Record<string, Target>; upsertKey?: ImportSession['upsertKey'] }) => settle(await api().imports.patch(session!.id, body, { ifMatch: session!.version })),
    onSuccess: setSession,
  })
  const commit = useMutation({
    mutationFn: async () => settle(await api().imports.commit(session!.id)),
    onSuccess: (s) => {
      setSession(s)
      void invalidateComponents(queryClient)
    },
  })

  return (
    <section>
      <div className="screen-head">
        <h1>{writer ? 'Import & export' : 'Export'}</h1>
      </div>
      {writer && (
        <section className="panel" aria-labelledby="import-h">
          <h2 id="import-h">Import a file or pull a library</h2>
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
          <PullForm
            busy={pull.isPending}
            onPull={(sourceId) => {
              commit.reset()
              pull.mutate(sourceId)
            }}
          />
          <ErrorBox error={upload.error ?? pull.error ?? remap.error ?? commit.error} />
          {session && (
            <>
              {/* The result, a job's progress or a failure at the top: a long table of rows follows. */}
              <ImportSummary session={session} />
              {session.status !== 'committed' && !pullFailed(session) && (
                <div className="actions">
                  <button
                    type="button"
                    className="primary"
                    onClick={() => commit.mutate()}
                    disabled={commit.isPending || remap.isPending || session.status === 'planning' || session.status === 'committing' || session.summary.invalid > 0 || session.summary.create + session.summary.update === 0}
                  >
                    {session.status === 'failed' ? 'Commit the import again' : 'Commit the import'}
                  </button>
                </div>
              )}
              {isPull(session) ? (
                !pullFailed(session) && <PullOrigin session={session} />
              ) : (
                <ColumnMapping session={session} busy={remap.isPending} onChange={(mapping) => remap.mutate({ mapping })} />
              )}
              {session.status !== 'planning' && !pullFailed(session) && <RowOutcomes key={session.id} session={session} />}
            </>
          )}
        </section>
      )}
      <ExportPanel />
    </section>
  )
}

/**
 * Where a pull's parts come from, in place of the column mapping: a pull's
 * columns are fixed (the `pull` preset), so there is nothing to map.
 */
function PullOrigin({ session }: { session: ImportSession }) {
  return (
    <p className="hint pull-origin">
      The parts come from <strong>{session.fileName ?? 'the peer'}</strong>, each with all its fields as the peer keeps them: there is no column mapping to choose.
      Each component made from a part remembers it, so pulling again later updates those components with only what changed at the peer.
    </p>
  )
}
