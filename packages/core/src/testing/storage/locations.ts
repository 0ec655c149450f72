import type { Storage } from '../../storage/types'

/** Placeholder: the locations part of the shared storage suite. */
export function locationsSuite(_storage: () => Storage): void {}
