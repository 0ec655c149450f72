// Shared test suites that every implementation of a plugin contract must pass.
export { testStorage, type StorageFactory } from './storage'
export { sampleComponents, testConnector, TEST_CONNECTOR_SECRET, type ConnectorSuiteOptions } from './connector'
export { testSource, type SourceSuiteOptions } from './source'
