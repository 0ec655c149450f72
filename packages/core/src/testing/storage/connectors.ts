import type { Storage } from '../../storage/types'

/** Placeholder: the connectors part of the shared storage suite. */
export function connectorsSuite(_storage: () => Storage): void {}
