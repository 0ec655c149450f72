import type { AnySourceDefinition } from '@complib/core'
import { mouserSource } from './mouser'

export const BUILT_IN_SOURCE_TYPES: readonly AnySourceDefinition[] = [mouserSource] as unknown as AnySourceDefinition[]
