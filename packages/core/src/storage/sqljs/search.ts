// Placeholder: implemented in its own change.
import type { SearchStore } from '../types'
import type { SyncRepo } from './repo'

export const search = {} as unknown as SyncRepo<SearchStore>
