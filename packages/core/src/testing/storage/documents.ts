import type { Storage } from '../../storage/types'

/** Placeholder: the documents part of the shared storage suite. */
export function documentsSuite(_storage: () => Storage): void {}
