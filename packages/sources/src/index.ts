// The built-in inbound sources (decision 1601): one file per provider, each a
// defineSource definition coded against the provider's published documentation,
// and the runtime the server calls them through (decision 1605).
export { createLimiter, type LimiterOptions } from './runtime/limiter'
export { createSourceService, type SourceAnswerOf, type SourceCallOptions, type SourceService, type SourceServiceOptions } from './runtime/source-service'
export {
  UNKNOWN_MANUFACTURER,
  componentFromPart,
  diffPart,
  mapParameters,
  mergeParameters,
  pickCategory,
  sameOffers,
  type FieldDiff,
  type Held,
  type LibraryShape,
} from './runtime/library-mapping'
export { BUILT_IN_SOURCE_TYPES } from './built-in'
export { mouserSource } from './mouser'
export { digikeySource } from './digikey'
export { tmeSource } from './tme'
export { nexarSource } from './nexar'
export { partdbSource } from './partdb'
export { inventreeSource } from './inventree'
