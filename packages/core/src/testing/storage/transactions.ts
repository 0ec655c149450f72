import type { Storage } from '../../storage/types'

/** Placeholder: transactions part of the shared storage suite. */
export function transactionsSuite(_storage: () => Storage): void {}
