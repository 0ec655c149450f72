// Placeholder: implemented in its own change.
import type { MpnStore } from '../types'
import type { SyncRepo } from './repo'

export const mpns = {} as unknown as SyncRepo<MpnStore>
