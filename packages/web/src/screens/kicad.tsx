import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { getApiKey } from '../api'
import { kicadQueries } from '../queries/kicad'
import { serverQueries } from '../queries/server'
import { href } from '../router'
import { ErrorBox } from '../ui/error-box'
import { count, plural } from '../ui/format'
import { KicadSettingsPanel } from './kicad/settings'

/**
 * The `.kicad_httplib` file that adds this server to KiCad as an HTTP
 * library (KiCad 8+), with the categories KiCad will show.
 */
export default function KicadScreen() {
  const [name, setName] = useState('complib')
  const [withKey, setWithKey] = useState(false)
  const categories = useQuery(serverQueries.kicadCategories())
  const key = getApiKey()
  const file = JSON.stringify(
    {
      meta: { version: 1.0 },
      name,
      description: `${name} parts from ${location.host}`,
      source: { type: 'REST_API', api_version: 'v1', root_url: `${location.origin}/api/kicad`, token: withKey && key ? key : '' },
    },
    null,
    2,
  )
  const id = useId()
  const download = () => {
    const url = URL.createObjectURL(new Blob([file], { type: 'application/json' }))
    const a = document.createElement('a')
    a.href = url
    a.download = `${name.replace(/[^\w.-]+/g, '_') || 'complib'}.kicad_httplib`
    document.body.append(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(url), 10_000)
  }
  return (
    <section>
      <div className="screen-head">
        <h1>KiCad</h1>
        <p className="muted">Use this library from KiCad's symbol chooser, live.</p>
      </div>
      <div className="grid2">
        <div className="panel">
          <h2>1. Download the library file</h2>
          <label htmlFor={id}>Library name in KiCad</label>
          <input id={id} value={name} onChange={(e) => setName(e.target.value)} />
          {key && (
            <label className="check-label">
              <input type="checkbox" checked={withKey} onChange={(e) => setWithKey(e.target.checked)} /> Put this tab's API key in the file (KiCad sends it as its token)
            </label>
          )}
          <pre className="code" tabIndex={0} aria-label="The .kicad_httplib file">
            {file}
          </pre>
          <button type="button" className="primary" onClick={download}>
            Download {name || 'complib'}.kicad_httplib
          </button>
          <h2>2. Add it to KiCad</h2>
          <ol>
            <li>KiCad → Preferences → Manage Symbol Libraries → Global Libraries.</li>
            <li>Add a row: Library Path = the downloaded file, Library Format = HTTP.</li>
            <li>The categories below appear as sub-libraries; components need a category to show.</li>
          </ol>
        </div>
        <div className="panel">
          <h2>What KiCad will see</h2>
          <ErrorBox error={categories.error} />
          {categories.data?.length === 0 && <p className="muted">No categories yet: give components a category to list them in KiCad.</p>}
          <ul>
            {categories.data?.map((c) => (
              <li key={c.id}>
                {c.name}
                {c.description ? <span className="muted"> · {c.description}</span> : null}
              </li>
            ))}
          </ul>
          {categories.data && <p className="muted">{plural(categories.data.length, 'category', 'categories')}.</p>}
          <WithoutSymbol />
        </div>
      </div>
      <KicadSettingsPanel />
    </section>
  )
}

/** Parts shown in KiCad's chooser that it cannot place: they have no symbol. Named, with a link to give each one. */
function WithoutSymbol() {
  const found = useQuery(kicadQueries.withoutSymbol())
  const SHOWN = 20
  if (found.error) return <ErrorBox error={found.error} title="Parts without a symbol could not be read" />
  if (!found.data) return null
  const { parts, checked, total } = found.data
  return (
    <section aria-labelledby="no-symbol-h">
      <h3 id="no-symbol-h">Without a symbol</h3>
      {parts.length === 0 ? (
        <p className="muted">Every part KiCad lists has a symbol.</p>
      ) : (
        <>
          <p>
            KiCad lists {plural(parts.length, 'part')} that it cannot place: {parts.length === 1 ? 'it has' : 'they have'} no symbol. Link one on the part's page.
          </p>
          <ul>
            {parts.slice(0, SHOWN).map((p) => (
              <li key={p.id}>
                <a href={href(`/components/${p.id}`)}>{p.ipn}</a> {p.name} <span className="muted">· {p.category}</span>
              </li>
            ))}
          </ul>
          {parts.length > SHOWN && <p className="muted">…and {count(parts.length - SHOWN)} more.</p>}
        </>
      )}
      {checked < total && <p className="muted">Checked the first {count(checked)} of {plural(total, 'component')}.</p>}
    </section>
  )
}
