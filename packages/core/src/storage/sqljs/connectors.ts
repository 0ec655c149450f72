// Placeholder: implemented in its own change.
import type { ConnectorStore } from '../types'
import type { SyncRepo } from './repo'

export const connectors = {} as unknown as SyncRepo<ConnectorStore>
