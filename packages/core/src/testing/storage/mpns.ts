import type { Storage } from '../../storage/types'

/** Placeholder: the mpns part of the shared storage suite. */
export function mpnsSuite(_storage: () => Storage): void {}
