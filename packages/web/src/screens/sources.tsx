import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Fragment, useState } from 'react'
import { api } from '../api'
import { useCan } from '../queries/auth'
import { sourceQueries, sourcesChanged, type SourceType, type SourceView } from '../queries/sources'
import { href } from '../router'
import { ErrorBox } from '../ui/error-box'
import { relativeTime } from '../ui/format'
import { fieldLabel } from './sources/config-fields'
import { SourceForm } from './sources/source-form'
import { TypeInfo } from './sources/type-info'
import '../ui/sources.css'

/**
 * The configured sources of parts (suppliers' catalogues): everyone who may
 * see them reads the list; admins add, edit and delete them. Credentials are
 * never shown, only the hint of their last characters.
 */
export default function SourcesScreen() {
  const queryClient = useQueryClient()
  const types = useQuery(sourceQueries.types())
  const list = useQuery(sourceQueries.list())
  const admin = useCan('sources:admin')
  const searcher = useCan('sources:search')
  const writer = useCan('library:write')
  /** The source in the form: 'new', one being edited, or none (the form closed). */
  const [editing, setEditing] = useState<'new' | SourceView>()
  const [notice, setNotice] = useState<string>()
  const remove = useMutation({
    mutationFn: (s: SourceView) => api().sources.delete(s.id),
    onSuccess: (_v, s) => {
      setNotice(`Deleted ${s.name}. The offers and provenance it wrote stay on their components.`)
      if (editing !== 'new' && editing?.id === s.id) setEditing(undefined)
      void sourcesChanged(queryClient)
    },
  })
  const typeOf = (name: string) => types.data?.find((t) => t.type === name)
  const open = (s: 'new' | SourceView) => {
    setNotice(undefined)
    setEditing(s)
  }

  return (
    <section className="sources">
      <div className="screen-head">
        <h1>Sources</h1>
        <p className="muted">Suppliers’ catalogues: search them for parts, and fill components’ fields, stock and prices from them.</p>
        <div className="actions">
          {searcher && writer && (list.data?.length ?? 0) > 0 && (
            <a className="button" href={href('/components/from-source')}>
              Add a part from a supplier
            </a>
          )}
          {admin && !editing && (
            <button type="button" className="primary" onClick={() => open('new')} disabled={!types.data?.length}>
              Add a source
            </button>
          )}
        </div>
      </div>
      <ErrorBox error={types.error ?? list.error} title="The sources could not be read" />
      <ErrorBox error={remove.error} title="Not deleted" />
      {notice && (
        <p role="status" className="ok">
          {notice}
        </p>
      )}
      {admin && editing && types.data && (
        <SourceForm
          key={editing === 'new' ? 'new' : `${editing.id}@${editing.version}`}
          types={types.data}
          editing={editing === 'new' ? undefined : editing}
          onSaved={(s) => {
            setNotice(`${editing === 'new' ? 'Created' : 'Saved'} ${s.name}.`)
            setEditing(undefined)
          }}
          onCancel={() => setEditing(undefined)}
        />
      )}
      <table className="simple">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Settings</th>
            <th scope="col">Changed</th>
            {admin && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {list.data?.length === 0 && (
            <tr>
              <td colSpan={admin ? 5 : 4} className="muted">
                No sources yet. {admin ? 'Add one to search a supplier’s catalogue for parts.' : 'An admin configures them.'}
              </td>
            </tr>
          )}
          {list.data?.map((s) => (
            <tr key={s.id}>
              <td>{s.name}</td>
              <td>
                <TypeCell type={typeOf(s.type)} name={s.type} />
              </td>
              <td>
                <Settings source={s} />
              </td>
              <td>{relativeTime(s.updatedAt)}</td>
              {admin && (
                <td className="row-actions">
                  <button type="button" className="small" onClick={() => open(s)} aria-label={`Edit ${s.name}`}>
                    Edit
                  </button>
                  <button
                    type="button"
                    className="small danger"
                    disabled={remove.isPending}
                    onClick={() => confirm(`Delete the source ${s.name}? Offers and provenance it wrote stay on their components.`) && remove.mutate(s)}
                    aria-label={`Delete ${s.name}`}
                  >
                    Delete
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {types.data && types.data.length > 0 && (
        <section aria-labelledby="source-types-h">
          <h2 id="source-types-h">Types this server can use</h2>
          <ul className="plain type-list">
            {types.data.map((t) => (
              <li key={t.type} className="panel">
                <h3>{t.title}</h3>
                <TypeInfo type={t} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  )
}

/** The type's title, linked to the provider's documentation when it has one. */
function TypeCell({ type, name }: { type: SourceType | undefined; name: string }) {
  if (!type?.documentation) return <>{type?.title ?? name}</>
  return (
    <a href={type.documentation} target="_blank" rel="noreferrer noopener" title={`${type.title} API documentation`}>
      {type.title}
    </a>
  )
}

/** A source's settings as kept: its config, and each credential as the hint of its last characters. */
function Settings({ source }: { source: SourceView }) {
  const entries = [...Object.entries(source.config).map(([k, v]) => [k, String(v)] as const), ...Object.entries(source.secretHints)]
  if (entries.length === 0) return <span className="muted">none</span>
  return (
    <dl className="summary settings">
      {entries.map(([k, v]) => (
        <Fragment key={k}>
          <dt>{fieldLabel(k)}</dt>
          <dd>
            <code>{v}</code>
          </dd>
        </Fragment>
      ))}
    </dl>
  )
}
