// Placeholder: implemented in its own change.
import type { ParameterStore, ParameterTypeStore } from '../types'
import type { SyncRepo } from './repo'

export const parameters = {} as unknown as SyncRepo<ParameterStore>
export const parameterTypes = {} as unknown as SyncRepo<ParameterTypeStore>
