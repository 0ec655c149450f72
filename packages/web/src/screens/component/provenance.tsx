import type { Component } from '@complib/client-sdk'
import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { offerQueries, type FieldProvenance } from '../../queries/offers'
import { ErrorBox } from '../../ui/error-box'
import { dateTime, relativeTime } from '../../ui/format'
import { fieldName } from './enrich-values'
import '../../ui/sources.css'

/**
 * Which fields a source filled, and when, under the source and part they
 * came from: a component made from one part has all its fields from it, so
 * the source is said once per group, not on every row. A field typed here is
 * not listed.
 */
export function Provenance({ component }: { component: Component }) {
  const provenance = useQuery(offerQueries.provenance(component.id))
  const id = useId()
  const groups = groupBySource(provenance.data ?? [])
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Provenance</h2>
      <ErrorBox error={provenance.error} />
      {provenance.data?.length === 0 ? (
        <p className="muted">No field came from a source: each was typed here or imported.</p>
      ) : (
        <table className="simple provenance">
          <caption className="visually-hidden">Where the fields of {component.name} came from</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          {groups.map((g) => (
            <tbody key={g.key}>
              <tr className="group">
                <th scope="rowgroup" colSpan={2}>
                  From {g.sourceName}
                  {g.deleted && ' (deleted)'} <span className="muted">as</span> <code>{g.ref}</code>
                </th>
              </tr>
              {g.rows.map((p) => (
                <tr key={p.field}>
                  <td>{fieldName(p.field)}</td>
                  <td title={dateTime(p.at)}>{relativeTime(p.at)}</td>
                </tr>
              ))}
            </tbody>
          ))}
        </table>
      )}
    </section>
  )
}

interface Group {
  key: string
  sourceName: string
  deleted: boolean
  ref: string
  rows: FieldProvenance[]
}

/** The fields by the source and part they came from, in the order the server lists them. */
function groupBySource(rows: readonly FieldProvenance[]): Group[] {
  const groups = new Map<string, Group>()
  for (const p of rows) {
    const key = JSON.stringify([p.sourceId ?? p.sourceName, p.ref])
    const group = groups.get(key) ?? { key, sourceName: p.sourceName, deleted: p.sourceId === null, ref: p.ref, rows: [] }
    group.rows.push(p)
    groups.set(key, group)
  }
  return [...groups.values()]
}
