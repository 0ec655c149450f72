// Placeholder: implemented in its own change.
import type { LocationStore } from '../types'
import type { SyncRepo } from './repo'

export const locations = {} as unknown as SyncRepo<LocationStore>
