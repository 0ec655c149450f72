import type { BulkResult, Component, ComponentPatch } from '@complib/client-sdk'
import { href } from '../../router'
import { count, plural } from '../../ui/format'

/** Rows of the dry run's table; the count of the rest is said under it. */
const SHOWN = 200

/** What the dry run found: every change, component by component; nothing saved yet. */
export function DryRunPreview({ results, items }: { results: BulkResult[]; items: Array<{ c: Component; patch: ComponentPatch }> }) {
  return (
    <section className="panel" aria-labelledby="preview-h">
      <h2 id="preview-h">Dry run: {plural(results.reduce((n, r) => n + r.count, 0), 'component')} would change, nothing is saved yet</h2>
      <table className="simple">
        <thead>
          <tr>
            <th scope="col">Component</th>
            <th scope="col">Changes</th>
          </tr>
        </thead>
        <tbody>
          {items.slice(0, SHOWN).map(({ c, patch }) => (
            <tr key={c.id}>
              <td>
                <a href={href(`/components/${c.id}`)}>{c.name}</a>
              </td>
              <td>
                {Object.entries(patch)
                  .map(([k, v]) => `${k}: ${_text((c as Record<string, unknown>)[k])} → ${_text(v)}`)
                  .join('; ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {items.length > SHOWN && <p className="muted">…and {count(items.length - SHOWN)} more.</p>}
    </section>
  )
}

function _text(v: unknown): string {
  if (v === null || v === undefined || v === '') return '(empty)'
  return Array.isArray(v) ? v.join(', ') || '(none)' : String(v)
}
