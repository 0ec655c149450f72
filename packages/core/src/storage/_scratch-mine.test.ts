import { afterEach, beforeEach, describe, vi } from 'vitest'
import type { Storage } from './types'
import createSqlJsStorage from './sqljs'
import { tagsSuite } from '../testing/storage/tags'
import { parametersSuite } from '../testing/storage/parameters'
import { mpnsSuite } from '../testing/storage/mpns'
import { catalogSuite } from '../testing/storage/catalog-suite'
import { searchSuite } from '../testing/storage/search-suite'
import { componentsSuite } from '../testing/storage/components-suite'

const MINE = process.env.SCRATCH_MINE === '1'
vi.mock('./sqljs/tag-store', async (orig) => (process.env.SCRATCH_MINE === '1' ? await import('./sqljs/tags') : await orig()))
vi.mock('./sqljs/parameter-store', async (orig) => (process.env.SCRATCH_MINE === '1' ? await import('./sqljs/parameters') : await orig()))
vi.mock('./sqljs/mpn-store', async (orig) => (process.env.SCRATCH_MINE === '1' ? await import('./sqljs/mpns') : await orig()))
vi.mock('./sqljs/manufacturer-store', async (orig) => (process.env.SCRATCH_MINE === '1' ? await import('./sqljs/manufacturers') : await orig()))

describe(`scratch (${MINE ? 'mine' : 'existing'})`, () => {
  let storage: Storage | undefined
  beforeEach(async () => { storage = await createSqlJsStorage() })
  afterEach(async () => { await storage?.close() })
  const get = () => storage!
  tagsSuite(get)
  parametersSuite(get)
  mpnsSuite(get)
  catalogSuite(get)
  searchSuite(get)
  componentsSuite(get)
})
