import type { Storage } from '../../storage/types'

/** Placeholder: the components part of the shared storage suite. */
export function componentsSuite(_storage: () => Storage): void {}
