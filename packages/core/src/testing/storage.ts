import { afterEach, beforeEach, describe } from 'vitest'
import type { Storage } from '../storage/types'
import { attachmentStoreSuite } from './storage/attachment-store'
import { auditStoreSuite } from './storage/audit-store'
import { authSessionStoreSuite } from './storage/auth-session-store'
import { categoryStoreSuite } from './storage/category-store'
import { componentListSuite } from './storage/component-list'
import { componentStoreSuite } from './storage/component-store'
import { connectorStoreSuite } from './storage/connector-store'
import { documentStoreSuite } from './storage/document-store'
import { externalRefStoreSuite } from './storage/external-ref-store'
import { identifiersSuite } from './storage/identifiers'
import { importRowStoreSuite } from './storage/import-row-store'
import { libraryItemStoreSuite } from './storage/library-item-store'
import { locationStoreSuite } from './storage/location-store'
import { manufacturerStoreSuite } from './storage/manufacturer-store'
import { mpnStoreSuite } from './storage/mpn-store'
import { parameterStoreSuite } from './storage/parameter-store'
import { runStoreSuite } from './storage/run-store'
import { savedViewStoreSuite } from './storage/saved-view-store'
import { searchStoreSuite } from './storage/search-store'
import { sourceStoreSuite } from './storage/source-store'
import { settingsStoreSuite } from './storage/settings-store'
import { statsStoreSuite } from './storage/stats-store'
import { tagStoreSuite } from './storage/tag-store'
import { tokenStoreSuite } from './storage/token-store'
import { transactionsSuite } from './storage/transactions'
import { userStoreSuite } from './storage/user-store'

/** Makes a new, empty storage for one test. */
export type StorageFactory = () => Promise<Storage>

/**
 * The contract every Storage implementation passes: call it from the
 * implementation's own test file. Both engines run the same stores, so they
 * answer to one contract (decision 0100): a suite per store in `storage/`,
 * named like the store (decision 0109), beside the transactions and
 * identifiers suites that span several stores.
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
    componentStoreSuite(get)
    componentListSuite(get)
    tagStoreSuite(get)
    categoryStoreSuite(get)
    parameterStoreSuite(get)
    mpnStoreSuite(get)
    manufacturerStoreSuite(get)
    libraryItemStoreSuite(get)
    attachmentStoreSuite(get)
    locationStoreSuite(get)
    identifiersSuite(get)
    searchStoreSuite(get)
    connectorStoreSuite(get)
    runStoreSuite(get)
    documentStoreSuite(get)
    importRowStoreSuite(get)
    externalRefStoreSuite(get)
    statsStoreSuite(get)
    userStoreSuite(get)
    authSessionStoreSuite(get)
    tokenStoreSuite(get)
    settingsStoreSuite(get)
    savedViewStoreSuite(get)
    sourceStoreSuite(get)
    auditStoreSuite(get)
  })
}
