import type { ComplibClient } from '@complib/client-sdk'

export type ImportSession = Awaited<ReturnType<ComplibClient['imports']['create']>>

export type Target = ImportSession['mapping'][string]
/** What a column can become (core's ImportTarget), in the order a person looks for them; a target core adds is a type error here until listed. */
const _TARGET_ORDER: Record<Target, null> = {
  name: null, ipn: null, description: null, status: null, category: null, tags: null, manufacturer: null, partNumber: null, mpns: null, parameter: null, parameterUnit: null,
  parameters: null, symbols: null, footprints: null, kicadValue: null, excludeFromBom: null, excludeFromBoard: null, excludeFromSim: null, stock: null, location: null, quantity: null,
  datasheet: null, attachments: null, offers: null, sourceKey: null, partKey: null, manufacturerKey: null, ignore: null,
}
export const TARGETS = Object.keys(_TARGET_ORDER) as Target[]
