// Placeholder: implemented in its own change.
import type { Footprint, Symbol } from '../../schemas'
import type { LibraryItemStore } from '../types'
import type { SyncRepo } from './repo'

export function libraryItems(_kind: 'symbol' | 'footprint'): SyncRepo<LibraryItemStore<Symbol | Footprint>> {
  return {} as unknown as SyncRepo<LibraryItemStore<Symbol | Footprint>>
}
