// Placeholder: implemented in its own change.
import type { TagStore } from '../types'
import type { SyncRepo } from './repo'

export const tags = {} as unknown as SyncRepo<TagStore>
