// client
export { createClient, type ComplibClient, type RequestOptions } from './client'
export type { ClientOptions } from './options'

// bulk edits
export type { PatchManyItem, PatchManyOptions, PatchManyProgress, PatchManyResult } from './patch-many'

// errors
export { ComplibApiError, ComplibNetworkError, ConflictError, NotFoundError, PreconditionFailedError, ValidationError, isComplibApiError } from './errors'

// types shared by the resources
export type { IfMatchOptions, IterateQueryOf, QueryOf } from './_internal/types'
export type { RawResult } from './_internal/transport'
export type { AttachmentUpload } from './resources/attachments'
export type { RunEvent, WaitOptions } from './resources/connectors'
export type { AttachmentsResource } from './resources/attachments'
export type { AuditPruneResult, AuditResource } from './resources/audit'
export type { AuthResource } from './resources/auth'
export type { BulkResource, JobsResource } from './resources/bulk'
export type { ComponentsResource } from './resources/components'
export type { ConnectorsResource, RunsResource } from './resources/connectors'
export type { SourcesResource } from './resources/sources'
export type { ExportsResource, ImportsResource, ImportWaitOptions } from './resources/imports'
export type { FootprintsResource, SymbolsResource } from './resources/library-items'
export type { LocationsResource, StockResource } from './resources/locations'
export type { ManufacturersResource } from './resources/manufacturers'
export type { MpnsResource } from './resources/mpns'
export type { ParameterTypesResource, ParametersResource } from './resources/parameters'
export type { KicadPartView, SettingsResource } from './resources/settings'
export type { TagsResource } from './resources/tags'
export type { TokensResource } from './resources/tokens'
export type { UsersResource } from './resources/users'
export type { ViewsResource } from './resources/views'
export type { CategoriesResource } from './resources/categories'

// the API's records, so a script needs only this package
export type {
  Actor,
  ApiToken,
  Attachment,
  AuditEntry,
  AuditVerification,
  BulkResult,
  Component,
  ComponentCreate,
  ComponentPatch,
  ComponentStatus,
  Connector,
  ComponentOffer,
  EnrichChange,
  EnrichResult,
  FieldProvenance,
  Source,
  SourceCandidate,
  SourcePart,
  SourceTypeInfo,
  SupplierOffer,
  ErrorCode,
  FieldError,
  Footprint,
  Health,
  ImportRowOutcome,
  ImportSession,
  Location,
  Manufacturer,
  Me,
  Mpn,
  Page,
  Parameter,
  ParameterType,
  Problem,
  Role,
  Run,
  RunBatch,
  RunDetail,
  Settings,
  KicadSettings,
  ExternalReference,
  StockEntry,
  Suggestion,
  Symbol,
  Tag,
  TokenCreated,
  TokenScope,
  User,
} from './records'
