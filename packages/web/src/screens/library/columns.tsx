import type { Component } from '@complib/client-sdk'
import type { ReactNode } from 'react'
import type { RowExtras, SortKey } from '../../queries/library'
import { href } from '../../router'
import { count, dateTime } from '../../ui/format'
import { Thumbnail } from './thumbnail'

export interface Column {
  id: string
  label: string
  /** Sorted by the server when set (decision 1411). */
  sort?: SortKey
  /** A grid track: wide enough for its longest usual value and its header with the sort arrow. */
  width: string
  align?: 'end'
  /** `extras` is undefined while the row's stock and image are still on their way. */
  render(c: Component, extras: RowExtras | undefined): ReactNode
}

/** What a cell shows until its row's stock and image arrive. */
const pending = <span className="pending" aria-hidden="true" />

/** The prefix of a column showing one parameter (`param:Resistance`), sorted by `parameter:Resistance`. */
export const PARAM_PREFIX = 'param:'

export const COLUMNS: Column[] = [
  { id: 'image', label: 'Image', width: '4.5rem', render: (c, x) => (x ? <Thumbnail name={c.name} image={x.image} /> : pending) },
  { id: 'ipn', label: 'IPN', sort: 'ipn', width: '9.5rem', render: (c) => <code>{c.ipn}</code> },
  { id: 'name', label: 'Name', sort: 'name', width: 'minmax(12rem, 2fr)', render: (c) => <a href={href(`/components/${c.id}`)}>{c.name}</a> },
  { id: 'status', label: 'Status', sort: 'status', width: '7.5rem', render: (c) => <span className={`status status-${c.status}`}>{c.status}</span> },
  { id: 'category', label: 'Category', sort: 'category', width: 'minmax(8rem, 1fr)', render: (c) => c.category ?? '' },
  { id: 'mpn', label: 'Manufacturer part', sort: 'manufacturer', width: 'minmax(12.5rem, 1.5fr)', render: (c) => c.mpns.map((m) => `${m.manufacturer} ${m.partNumber}`).join(', ') },
  { id: 'stock', label: 'Stock', sort: 'stock', width: '6.5rem', align: 'end', render: (_c, x) => (!x ? pending : x.stock === undefined ? '—' : count(x.stock)) },
  { id: 'tags', label: 'Tags', width: 'minmax(6rem, 1fr)', render: (c) => c.tags.join(', ') },
  { id: 'parameters', label: 'Parameters', width: 'minmax(8rem, 1.5fr)', render: (c) => c.parameters.map((p) => `${p.value}${p.unit ?? ''}`).join(' · ') },
  { id: 'description', label: 'Description', width: 'minmax(10rem, 2fr)', render: (c) => c.description ?? '' },
  { id: 'createdAt', label: 'Created', sort: 'createdAt', width: '11rem', render: (c) => dateTime(c.createdAt) },
  { id: 'updatedAt', label: 'Updated', sort: 'updatedAt', width: '11rem', render: (c) => dateTime(c.updatedAt) },
]

/** A column of one parameter's value, sortable by the server. */
export function parameterColumn(name: string): Column {
  return {
    id: `${PARAM_PREFIX}${name}`,
    label: name,
    sort: `parameter:${name}`,
    width: 'minmax(7rem, 1fr)',
    render: (c) => {
      const p = c.parameters.find((x) => x.type === name)
      return p ? `${p.value}${p.unit ?? ''}` : ''
    },
  }
}

/** The columns for ids, in the given order; unknown ids are left out. */
export function columnsFor(ids: readonly string[]): Column[] {
  return ids.flatMap((id) => {
    if (id.startsWith(PARAM_PREFIX) && id.length > PARAM_PREFIX.length) return [parameterColumn(id.slice(PARAM_PREFIX.length))]
    const c = COLUMNS.find((x) => x.id === id)
    return c ? [c] : []
  })
}

export const DEFAULT_COLUMNS = ['ipn', 'name', 'status', 'category', 'mpn', 'stock', 'parameters', 'updatedAt']

/** Whether `ids` is a list of column ids (a value read from storage may be anything). */
export function isColumnList(ids: unknown): ids is string[] {
  return Array.isArray(ids) && ids.length > 0 && ids.every((s) => typeof s === 'string') && columnsFor(ids).length > 0
}
