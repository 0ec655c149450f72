import type { Storage } from '../../storage/types'

/** Placeholder: the attachments part of the shared storage suite. */
export function attachmentsSuite(_storage: () => Storage): void {}
