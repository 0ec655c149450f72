import type { Storage } from '../../storage/types'

/** Placeholder: the runs part of the shared storage suite. */
export function runsSuite(_storage: () => Storage): void {}
