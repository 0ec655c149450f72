import { afterEach, beforeEach, describe } from 'vitest'
import type { Storage } from '../storage/types'
import { attachmentsSuite } from './storage/attachment-store'
import { catalogSuite } from './storage/catalog-suite'
import { categoriesSuite } from './storage/category-store'
import { componentsSuite } from './storage/component-store'
import { connectorsSuite } from './storage/connector-store'
import { documentsSuite } from './storage/document-store'
import { identifiersSuite } from './storage/identifiers'
import { libraryItemsSuite } from './storage/library-item-store'
import { librarySuite } from './storage/library-suite'
import { locationsSuite } from './storage/location-store'
import { operationsSuite } from './storage/operations-suite'
import { runsSuite } from './storage/run-store'
import { searchSuite as searchContractSuite } from './storage/search-store'
import { searchSuite } from './storage/search-suite'
import { mpnsSuite } from './storage/mpn-store'
import { parametersSuite } from './storage/parameter-store'
import { tagsSuite } from './storage/tag-store'
import { transactionsSuite } from './storage/transactions'

/** Makes a new, empty storage for one test. */
export type StorageFactory = () => Promise<Storage>

/**
 * The contract every Storage implementation passes: call it from the
 * implementation's own test file.
 *
 * @example
 * testStorage('sqlite', () => createSqliteStorage())
 */
export function testStorage(name: string, factory: StorageFactory): void {
  describe(`storage contract: ${name}`, () => {
    let storage: Storage | undefined
    beforeEach(async () => {
      storage = await factory()
    })
    afterEach(async () => {
      await storage?.close()
      storage = undefined
    })
    const get = (): Storage => {
      if (!storage) throw new Error('storage is not open')
      return storage
    }
    transactionsSuite(get)
    componentsSuite(get)
    catalogSuite(get)
    tagsSuite(get)
    categoriesSuite(get)
    identifiersSuite(get)
    parametersSuite(get)
    mpnsSuite(get)
    librarySuite(get)
    libraryItemsSuite(get)
    attachmentsSuite(get)
    locationsSuite(get)
    searchSuite(get)
    operationsSuite(get)
    searchContractSuite(get)
    connectorsSuite(get)
    runsSuite(get)
    documentsSuite(get)
  })
}
