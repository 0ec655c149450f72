import type { Storage } from '../../storage/types'

/** Placeholder: the tags part of the shared storage suite. */
export function tagsSuite(_storage: () => Storage): void {}
