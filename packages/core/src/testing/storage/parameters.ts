import type { Storage } from '../../storage/types'

/** Placeholder: the parameters part of the shared storage suite. */
export function parametersSuite(_storage: () => Storage): void {}
