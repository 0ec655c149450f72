// Placeholder: implemented in its own change.
import type { ComponentStore } from '../types'
import type { SyncRepo } from './repo'

export const components = {} as unknown as SyncRepo<ComponentStore>
