import type { Storage } from './types'

/**
 * Marks a Storage implementation. It exists for type inference (a factory
 * returning `defineStorage({...})` is checked against the whole contract) and
 * for a brand that tools can test with `isStorage`; it adds no behaviour.
 */
export function defineStorage<T extends Storage>(storage: T): T {
  Object.defineProperty(storage, STORAGE_BRAND, { value: true })
  return storage
}

export function isStorage(value: unknown): value is Storage {
  return typeof value === 'object' && value !== null && STORAGE_BRAND in value
}

const STORAGE_BRAND = Symbol.for('complib.storage')
