import { useState } from 'react'
import { downloadFile } from '../../api'
import { useCan } from '../../queries/auth'
import { ErrorBox } from '../../ui/error-box'

/** Downloads of every component (CSV, JSON) and of a full backup. */
export function ExportPanel() {
  const [downloadError, setDownloadError] = useState<unknown>()
  const backup = useCan('backup:read')
  return (
    <section className="panel" aria-labelledby="export-h">
      <h2 id="export-h">{backup ? 'Export and backup' : 'Export'}</h2>
      <ErrorBox error={downloadError} />
      <div className="actions">
        <button type="button" onClick={() => downloadFile('/api/exports/components?format=csv', 'components.csv').catch(setDownloadError)}>
          Download components (CSV)
        </button>
        <button type="button" onClick={() => downloadFile('/api/exports/components?format=json', 'components.json').catch(setDownloadError)}>
          Download components (JSON)
        </button>
        {backup && (
          <button type="button" onClick={() => downloadFile('/api/exports/backup', `complib-backup-${new Date().toISOString().slice(0, 10)}.db`).catch(setDownloadError)}>
            Download a full backup
          </button>
        )}
      </div>
      {backup && <p className="hint">The backup is an online copy of the whole database; restoring it is described in packages/core's README.</p>}
    </section>
  )
}
