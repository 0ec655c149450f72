// Placeholder: implemented in its own change.
import type { DocumentRecord, DocumentStore } from '../types'
import type { SyncRepo } from './repo'

export function documents(_collection: 'jobs' | 'imports'): SyncRepo<DocumentStore<DocumentRecord>> {
  return {} as unknown as SyncRepo<DocumentStore<DocumentRecord>>
}
