/** A save refused for a newer version (412): nothing was overwritten; reload, or keep the edits to copy them first. */
export function ConflictNotice({ changed, onReload, onKeep }: { changed: string[]; onReload: () => void; onKeep: () => void }) {
  return (
    <div role="alert" className="conflict">
      <h2>Someone saved a newer version</h2>
      <p>
        This component changed since you opened it, so your save was refused and nothing was overwritten. Reload to see the latest version; your unsaved edits
        {changed.length ? ` (${changed.join(', ')})` : ''} will be discarded, so copy what you need first.
      </p>
      <div className="actions">
        <button type="button" className="primary" onClick={onReload}>
          Reload the latest version
        </button>
        <button type="button" onClick={onKeep}>
          Keep my edits for now
        </button>
      </div>
    </div>
  )
}
