// Placeholder: implemented in its own change.
import type { ManufacturerStore } from '../types'
import type { SyncRepo } from './repo'

export const manufacturers = {} as unknown as SyncRepo<ManufacturerStore>
