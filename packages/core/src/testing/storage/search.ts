import type { Storage } from '../../storage/types'

/** Placeholder: the search part of the shared storage suite. */
export function searchSuite(_storage: () => Storage): void {}
