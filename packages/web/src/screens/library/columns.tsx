import type { Component } from '@complib/client-sdk'
import type { ReactNode } from 'react'
import { href } from '../../router'
import { dateTime } from '../../ui/format'
import type { SortKey } from '../../queries/library'

export interface Column {
  id: string
  label: string
  /** Sorted by the server when set. */
  sort?: SortKey
  width: string
  render(c: Component): ReactNode
}

export const COLUMNS: Column[] = [
  { id: 'ipn', label: 'IPN', sort: 'ipn', width: '9rem', render: (c) => <code>{c.ipn}</code> },
  { id: 'name', label: 'Name', sort: 'name', width: 'minmax(12rem, 2fr)', render: (c) => <a href={href(`/components/${c.id}`)}>{c.name}</a> },
  { id: 'status', label: 'Status', width: '6.5rem', render: (c) => <span className={`status status-${c.status}`}>{c.status}</span> },
  { id: 'category', label: 'Category', width: 'minmax(7rem, 1fr)', render: (c) => c.category ?? '' },
  { id: 'mpn', label: 'Manufacturer part', width: 'minmax(10rem, 1.5fr)', render: (c) => c.mpns.map((m) => `${m.manufacturer} ${m.partNumber}`).join(', ') },
  { id: 'tags', label: 'Tags', width: 'minmax(6rem, 1fr)', render: (c) => c.tags.join(', ') },
  { id: 'parameters', label: 'Parameters', width: 'minmax(8rem, 1.5fr)', render: (c) => c.parameters.map((p) => `${p.value}${p.unit ?? ''}`).join(' · ') },
  { id: 'description', label: 'Description', width: 'minmax(10rem, 2fr)', render: (c) => c.description ?? '' },
  { id: 'updatedAt', label: 'Updated', sort: 'updatedAt', width: '10rem', render: (c) => dateTime(c.updatedAt) },
]

export const DEFAULT_COLUMNS = ['ipn', 'name', 'status', 'category', 'mpn', 'parameters', 'updatedAt']
const STORE = 'complib.columns'

export function loadColumns(): string[] {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) ?? 'null') as unknown
    if (Array.isArray(saved) && saved.every((s) => typeof s === 'string') && saved.length > 0) return saved
  } catch {
    // a hand-edited value: back to the defaults
  }
  return DEFAULT_COLUMNS
}

export function saveColumns(ids: string[]): void {
  localStorage.setItem(STORE, JSON.stringify(ids))
}
