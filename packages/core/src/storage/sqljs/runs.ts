// Placeholder: implemented in its own change.
import type { RunStore } from '../types'
import type { SyncRepo } from './repo'

export const runs = {} as unknown as SyncRepo<RunStore>
