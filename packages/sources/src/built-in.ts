import type { AnySourceDefinition } from '@complib/core'
import { digikeySource } from './digikey'
import { inventreeSource } from './inventree'
import { mouserSource } from './mouser'
import { nexarSource } from './nexar'
import { partdbSource } from './partdb'
import { tmeSource } from './tme'

/** The source types every server has (decision 1601), each coded against its provider's published documentation. */
export const BUILT_IN_SOURCE_TYPES: readonly AnySourceDefinition[] = [digikeySource, mouserSource, nexarSource, tmeSource, inventreeSource, partdbSource] as unknown as AnySourceDefinition[]
