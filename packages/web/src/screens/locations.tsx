import type { ComplibClient } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api } from '../api'
import { useCan } from '../queries/auth'
import { invalidateLocations, locationQueries } from '../queries/locations'
import { href } from '../router'
import { ErrorBox } from '../ui/error-box'
import { count, plural } from '../ui/format'

type Node = Awaited<ReturnType<ComplibClient['locations']['tree']>>[number]

/** The stock locations as a tree; choose one to see what it holds and how many. */
export default function LocationsScreen() {
  const queryClient = useQueryClient()
  const tree = useQuery(locationQueries.tree())
  const [selected, setSelected] = useState<Node>()
  const [name, setName] = useState('')
  const [parentId, setParentId] = useState('')
  const create = useMutation({
    mutationFn: () => api().locations.create({ name: name.trim(), ...(parentId ? { parentId } : {}) }),
    onSuccess: () => {
      setName('')
      void invalidateLocations(queryClient)
    },
  })
  const remove = useMutation({
    mutationFn: (id: string) => api().locations.delete(id),
    onSuccess: () => {
      setSelected(undefined)
      void invalidateLocations(queryClient)
    },
  })
  const flat = _flatten(tree.data ?? [])
  const writer = useCan('library:write')

  return (
    <section>
      <div className="screen-head">
        <h1>Locations &amp; stock</h1>
      </div>
      <ErrorBox error={tree.error ?? create.error ?? remove.error} />
      <div className="grid2">
        <div className="panel tree">
          <h2>Locations</h2>
          {tree.data?.length === 0 && <p className="muted">No locations yet{writer ? ': add the first below' : ''}.</p>}
          <TreeList nodes={tree.data ?? []} selected={selected?.id} onSelect={setSelected} />
          {writer && (
            <form
              className="inline"
              onSubmit={(e) => {
                e.preventDefault()
                create.mutate()
              }}
            >
              <label>
                New location
                <input value={name} onChange={(e) => setName(e.target.value)} required placeholder="Drawer A1" />
              </label>
              <label>
                Inside
                <select value={parentId} onChange={(e) => setParentId(e.target.value)}>
                  <option value="">(top level)</option>
                  {flat.map((l) => (
                    <option key={l.id} value={l.id}>
                      {l.path}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" disabled={!name.trim() || create.isPending}>
                Add location
              </button>
            </form>
          )}
        </div>
        <div className="panel">{selected ? <LocationStock node={selected} onDelete={writer ? () => remove.mutate(selected.id) : undefined} /> : <p className="muted">Choose a location to see its stock.</p>}</div>
      </div>
    </section>
  )
}

function TreeList({ nodes, selected, onSelect }: { nodes: Node[]; selected: string | undefined; onSelect: (n: Node) => void }) {
  if (nodes.length === 0) return null
  return (
    <ul>
      {nodes.map((n) => (
        <li key={n.id}>
          <button type="button" className="link" aria-pressed={selected === n.id} onClick={() => onSelect(n)}>
            {n.name}
          </button>
          <TreeList nodes={n.children} selected={selected} onSelect={onSelect} />
        </li>
      ))}
    </ul>
  )
}

function LocationStock({ node, onDelete }: { node: Node; onDelete: (() => void) | undefined }) {
  const stock = useQuery(locationQueries.stockAt(node.id))
  const sum = stock.data?.rows.reduce((n, r) => n + (r.entry?.quantity ?? 0), 0) ?? 0
  return (
    <>
      <h2>{node.path}</h2>
      <ErrorBox error={stock.error} />
      <p>
        {plural(stock.data?.total ?? 0, 'component')}, {plural(sum, 'piece')}{node.children.length ? ` (not counting the ${plural(node.children.length, 'location')} inside)` : ''}.
      </p>
      <table className="simple">
        <thead>
          <tr>
            <th scope="col">Component</th>
            <th scope="col">Quantity</th>
          </tr>
        </thead>
        <tbody>
          {stock.data?.rows.map(({ c, entry }) => (
            <tr key={c.id}>
              <td>
                <a href={href(`/components/${c.id}`)}>{c.name}</a> <code>{c.ipn}</code>
              </td>
              <td>{count(entry?.quantity ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {onDelete && (
        <div className="actions">
          <button type="button" className="danger" onClick={() => confirm(`Delete the location ${node.path}? Only an empty one can be deleted.`) && onDelete()}>
            Delete this location
          </button>
        </div>
      )}
    </>
  )
}

function _flatten(nodes: Node[]): Node[] {
  return nodes.flatMap((n) => [n, ..._flatten(n.children)])
}
