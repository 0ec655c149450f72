// Placeholder: implemented in its own change.
import type { AttachmentStore } from '../types'
import type { SyncRepo } from './repo'

export const attachments = {} as unknown as SyncRepo<AttachmentStore>
