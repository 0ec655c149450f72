// Shared test suites that every implementation of a plugin contract must pass.
export { testStorage, type StorageFactory } from './storage'
