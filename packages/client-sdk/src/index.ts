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
export type { BulkResource, JobsResource } from './resources/bulk'
export type { ComponentsResource } from './resources/components'
export type { ConnectorsResource, RunsResource } from './resources/connectors'
export type { ExportsResource, ImportsResource } from './resources/imports'
export type { FootprintsResource, SymbolsResource } from './resources/library-items'
export type { LocationsResource, StockResource } from './resources/locations'
export type { ManufacturersResource } from './resources/manufacturers'
export type { MpnsResource } from './resources/mpns'
export type { ParameterTypesResource, ParametersResource } from './resources/parameters'
export type { TagsResource } from './resources/tags'
export type { CategoriesResource } from './resources/categories'

// the API's records, so a script needs only this package
export type {
  Attachment,
  BulkResult,
  Component,
  ComponentCreate,
  ComponentPatch,
  ComponentStatus,
  Connector,
  ErrorCode,
  FieldError,
  Footprint,
  Health,
  ImportRowOutcome,
  ImportSession,
  Location,
  Manufacturer,
  Mpn,
  Page,
  Parameter,
  ParameterType,
  Problem,
  Run,
  RunBatch,
  RunDetail,
  StockEntry,
  Suggestion,
  Symbol,
  Tag,
} from './records'
