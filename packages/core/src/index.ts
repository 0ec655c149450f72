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
export { checkParameterValue, parameterTypeProblems, missingRequired } from './parameter-value'
export type { ParameterRule, ValueCheck } from './parameter-value'
export { mergePatch } from './merge-patch'

// identifiers (ipn, unique names): how they compare
export { findRefusedCharacter, foldKey } from './identifiers'

// schemas (one per resource: validation, types and OpenAPI from one source; a schema and its
// inferred type share a name)
export {
  AttachmentKind, FileName, Attachment, AttachmentUploadMeta, AttachmentFromUrl, AttachmentPatch, AttachmentListQuery,
} from './schemas/attachment'
export { BULK_MAX_ITEMS, BULK_MAX_CHILDREN, BULK_BODY_LIMIT, BulkCreate, BulkPatch, BulkIds, BulkRestore, BulkResult, Job } from './schemas/bulk'
export {
  CategoryName, Category, CategoryCreate, CategoryPatch, CategoryTemplate, CategoryTemplateInput, CategoryTemplatesReplace, CATEGORY_MAX_TEMPLATES,
} from './schemas/category'
export { identifierSchema, Timestamp, recordFields, LinkSummary, Name, Description, QueryBoolean, PageQuery } from './schemas/common'
export {
  ComponentParameter, ComponentMpn, Ipn, TagName, Component, COMPONENT_COUNT_BOUND, COMPONENT_LIMITS, ComponentCreate, ComponentPatch, ComponentSort, ComponentListQuery,
  COMPONENT_SORT_FIELDS, PARAMETER_SORT, ComponentParameterFilter, DeletedFilter, ComponentFilters,
  ComponentIdsQuery, ComponentIds, ID_LIST_MAX, ComponentExtrasQuery, ComponentImage, ComponentExtra, ComponentExtras,
  ComponentExportQuery, EXPORT_IDS_MAX, ComponentExportRequest,
  ComponentHistoryEntry, ComponentChange, ComponentGetQuery, NextIpnQuery, NextIpn, ComponentChangesQuery, ComponentChanges, ComponentDuplicate, ComponentRevert,
} from './schemas/component'
export type { ComponentCreateParsed, ComponentPatchParsed } from './schemas/component'
export { SAVED_VIEW_STATE_MAX_BYTES, SAVED_VIEWS_PER_OWNER, SavedViewState, SavedView, SavedViewCreate, SavedViewPatch } from './schemas/saved-view'
export { ConnectorCode, ConnectorCodeUpdate, ConnectorTypeInfo, DryRunResult } from './schemas/connector-code'
export { SigningSecret, WebhookConfig, Connector, ConnectorCreate, ConnectorPatch, SecretRotate } from './schemas/connector'
export {
  ImportTarget, UpsertKey, ImportCreateQuery, ImportField, ImportOutcome, ImportFieldCounts, ImportFieldSummary, ImportRowsQuery, ImportRowOutcome,
  ImportSession, ImportPatch, ExportQuery, ImportStatus, ImportProgress, ImportWarning,
} from './schemas/import'
export { Symbol, SymbolCreate, SymbolPatch, Footprint, FootprintCreate, FootprintPatch, LibraryItemListQuery } from './schemas/library-item'
export type { LibraryItem, LibraryItemCreate, LibraryItemPatch } from './schemas/library-item'
export {
  Location, LocationTreeNode, LocationCreate, LocationPatch, StockEntry, StockSet, StockAdjust, StockMove, LocationListQuery, StockMoveResult,
} from './schemas/location'
export { Manufacturer, ManufacturerCreate, ManufacturerPatch, ManufacturerMerge, ManufacturerListQuery } from './schemas/manufacturer'
export { Mpn, MpnCreate, MpnPatch, MpnResolveRequest, MpnResolveResult, MpnListQuery } from './schemas/mpn'
export {
  ParameterKind, PARAMETER_MAX_CHOICES, ParameterType, ParameterTypeCreate, ParameterTypePatch, Parameter, ParameterCreate, ParameterPatch, ParametricCondition, ParameterTypeListQuery,
  ParameterReportQuery, NonConformingParameter, MissingRequiredParameter, ParameterReport,
} from './schemas/parameter'
export { RUN_DETAIL_BATCHES, RUN_STATUSES, RunStatus, BatchStatus, DeliveryAttempt, RunBatch, Run, RunBatchesQuery, RunDetail } from './schemas/run'
export {
  SUGGEST_ENTITIES, SuggestEntity, Suggestion, SuggestQuery, SearchQuery, SearchResults, ParametricSearch, ComponentPage,
} from './schemas/search'
export { Health, Version, LibraryStats } from './schemas/system'
export { Tag, TagCreate, TagPatch, TagMerge, TagListQuery } from './schemas/tag'
export {
  ROLES, Role, Username, Password, User, UserCreate, UserPatch, UserListQuery, PasswordChange, LoginRequest, ACTOR_KINDS, ActorKind, CHANNELS, Channel, Actor, Me,
  TokenScope, ApiToken, TokenCreate, TokenCreated, TokenListQuery,
} from './schemas/account'
export { AuditEntry, AuditQuery, AuditVerification, AuditPrune } from './schemas/audit'
export { OutboundPolicy, Settings, SettingsPatch, DEFAULT_SETTINGS, KicadSettings, KicadFieldSetting, KicadParameterRule } from './schemas/settings'

// who makes the current writes (set by the API server per request, recorded by the stores)
export { withChange, currentChange, type ChangeContext } from './change-context'

// storage
export { defineStorage, isStorage } from './storage/define'

// inbound source contract (decision 1600)
export { defineSource, isSourceDefinition, type AnySourceDefinition, type SourceContext, type SourceDefinition } from './sources/define-source'
export { SourceError, isSourceError, sourceProblem, type SourceErrorKind } from './sources/source-error'
export { createSourceHttp, statusError, type SourceAnswer, type SourceHttp, type SourceHttpOptions, type SourceRequestInit } from './sources/http'
export {
  SOURCE_LIFECYCLES, SourceLifecycle, PriceBreak, SupplierOffer, SourceParameter, SourceRef, SourcePart, SourceCandidate, SourceCapabilities, SourceLimits,
  SourceTypeInfo, SourceRefresh, Source, SourceCreate, SourcePatch, SourceSearchQuery, SourceSearchResult, SourcePartResult, FromSource, ENRICH_FIELDS, ENRICH_JOB_MAX, EnrichJobCreate, EnrichField, Enrich,
  EnrichChange, EnrichResult, ComponentOffer, FieldProvenance, statusFromLifecycle,
} from './schemas/source'
export { PeerPart, SourcePullCreate } from './schemas/peer-part'

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

// storage: the contract. Its engines are entry points of their own, so that an
// application loads only the driver it uses: @complib/core/sqlite (better-sqlite3)
// and @complib/core/postgres (pg), both optional peer dependencies (decision 0108).
export { copyLibrary, type CopyReport } from './storage/copy'
export type {
  AttachmentInput, AttachmentStore, CategoryStore, ComponentStore, ConnectorStore, DeliveryRead, DocumentRecord, DocumentStore, ImportRecord,
  ImportRowStore, StoredImportRow, StoredImportOutcome,
  JobRecord, LibraryItemQuery, LibraryItemStore, LocationStore, ManufacturerStore, MpnStore, Page, PageOptions, ParameterInput, ParameterStore,
  ParameterTypeStore, RunBatchPatch, RunCreate, RunPatch, RunStore, RunTotals, SearchStore, Storage, StorageBackup, StorageSession, StoredConnector, StoredSource, SourceStore, OfferStore, ProvenanceStore, TagStore,
  WriteOptions, UserStore, UserCredentials, AuthSession, AuthSessionStore, TokenStore, TokenCreateInput, AuditStore, AuditInput, SettingsStore, SavedViewStore,
  ExternalRef, ExternalRefKind, ExternalRefStore,
} from './storage/types'

// imports: planning an import over a StorageSession. The engine-neutral part of
// `POST /api/imports` and its commit (decisions 0600–0613): rows in, planned creates
// and updates out, applied in the caller's transaction; reading an upload (CSV,
// encodings, size limits) stays with the server. createYielder and lastSegmentOf
// serve the server's bulk and attachment routes as well.
export { applyImport, importLookups, planImport, type ImportLookups, type ImportPlan, type ImportResult, type ImportRowError, type ImportUndo, type PlanOptions, type PlannedExtras, type PlannedRow } from './imports/plan'
export { undoImport } from './imports/undo'
export { placeholderManufacturer, sourceLabel, type PlannedRef, type RefUndo } from './imports/external-refs'
export { ExternalReference } from './imports/references'
export { mappingWarnings, type MappingWarning } from './imports/warnings'
export type { FieldChange } from './imports/changes'
export { decodeRowCursor, emptyFieldSummary, encodeRowCursor, pageRowOutcomes, rowOutcomes, toPlanView, type PartView, type PlanView } from './imports/outcomes'
export { detectPreset, presetSource, proposeMapping, unknownColumns, type PresetId } from './imports/presets'
export { cellOf, rawCellOf, type ImportCell, type ImportRow } from './imports/row'
export { formatStockItem, joinList } from './imports/codec'
export { toLocationPaths } from './imports/location-paths'
export { createYielder } from './yielder'
export { lastSegmentOf } from './url-name'
