import { afterEach, beforeEach, describe } from 'vitest'
import type { Storage } from '../storage/types'
import { attachmentsSuite } from './storage/attachments'
import { catalogSuite } from './storage/catalog-suite'
import { categoriesSuite } from './storage/categories'
import { componentsSuite } from './storage/components-suite'
import { connectorsSuite } from './storage/connectors'
import { documentsSuite } from './storage/documents'
import { identifiersSuite } from './storage/identifiers'
import { libraryItemsSuite } from './storage/library-items'
import { librarySuite } from './storage/library-suite'
import { locationsSuite } from './storage/locations'
import { operationsSuite } from './storage/operations-suite'
import { runsSuite } from './storage/runs'
import { searchSuite as searchContractSuite } from './storage/search'
import { searchSuite } from './storage/search-suite'
import { mpnsSuite } from './storage/mpns'
import { parametersSuite } from './storage/parameters'
import { tagsSuite } from './storage/tags'
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
