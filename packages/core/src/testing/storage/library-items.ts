import type { Storage } from '../../storage/types'

/** Placeholder: the library-items part of the shared storage suite. */
export function libraryItemsSuite(_storage: () => Storage): void {}
