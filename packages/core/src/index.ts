// ids
export { createId, idSchema, isId, ID_PREFIXES, type IdKind, type IdPrefix } from './ids'

// errors
export {
  ComplibError,
  ERROR_STATUS,
  Problem,
  fromZodError,
  isComplibError,
  toComplibError,
  toFieldPath,
  type ComplibErrorOptions,
  type ErrorCode,
  type FieldError,
} from './errors'

// component lifecycle
export { COMPONENT_STATUSES, ComponentStatus, STATUS_TRANSITIONS, assertTransition, canTransition } from './status'

// values
export { parseSiNumber } from './si-number'
export { mergePatch } from './merge-patch'

// identifiers (ipn, unique names): how they compare
export { findRefusedCharacter, foldKey } from './identifiers'

// schemas (one per resource: validation, types and OpenAPI from one source)
export * from './schemas'

// storage
export { defineStorage, isStorage } from './storage/define'

// connector plugin contract
export {
  createConnectorBatch,
  defineConnector,
  isConnectorDefinition,
  type AnyConnectorDefinition,
  type ConnectorAttempt,
  type ConnectorBatch,
  type ConnectorContext,
  type ConnectorDefinition,
  type ConnectorRunContext,
  type ConnectorRunResult,
} from './connectors'
export { default as createSqliteStorage, NAME as SQLITE_STORAGE_NAME, type SqliteStorage, type SqliteStorageOptions } from './storage/sqlite/storage'
export { createPostgresStorage, POSTGRES as POSTGRES_STORAGE_NAME, type DatabaseBlobs, type PostgresStorage, type PostgresStorageOptions } from './storage/postgres/storage'
export { copyLibrary, type CopyReport } from './storage/copy'
export type { SqliteDatabase } from './storage/sqlite/engine/database'
export type * from './storage/types'
