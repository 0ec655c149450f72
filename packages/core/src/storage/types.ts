import type { Attachment, AttachmentKind } from '../schemas/attachment'
import type { Category, CategoryTemplate } from '../schemas/category'
import type { Component, ComponentChange, ComponentCreateParsed, ComponentExtra, ComponentHistoryEntry, ComponentListQuery, ComponentPatchParsed } from '../schemas/component'
import type { Footprint, LibraryItemCreate, LibraryItemPatch, Symbol } from '../schemas/library-item'
import type { Location, LocationTreeNode, StockEntry } from '../schemas/location'
import type { Manufacturer } from '../schemas/manufacturer'
import type { Mpn, MpnResolveResult } from '../schemas/mpn'
import type { Parameter, ParameterKind, ParameterReport, ParameterType, ParametricCondition } from '../schemas/parameter'
import type { BatchStatus, RunBatch, RunDetail, Run } from '../schemas/run'
import type { Tag } from '../schemas/tag'
import type { Actor, ApiToken, Channel, Role, TokenScope, User } from '../schemas/account'
import type { AuditEntry, AuditQuery, AuditVerification } from '../schemas/audit'
import type { Settings, SettingsPatch } from '../schemas/settings'
import type { SavedView, SavedViewCreate, SavedViewPatch } from '../schemas/saved-view'
import type { ComponentOffer, FieldProvenance, SourceRefresh, SupplierOffer } from '../schemas/source'
import type { SuggestEntity, Suggestion } from '../schemas/search'
import type { LibraryStats } from '../schemas/system'
import type { FieldError } from '../errors'

// Shapes the API answers with are defined once, by their schemas.
export type { LibraryStats, SuggestEntity, Suggestion }

/**
 * The storage contract of complib. Every route group reads and writes through
 * it, so the two implementations, the embedded SQLite one and PostgreSQL (for
 * servers that share a library), replace each other without changing a caller
 * (decision 0100).
 *
 * Rules every implementation keeps (the shared suite `testStorage` checks them):
 * - Every method is async. Errors are `ComplibError`s: NOT_FOUND for an unknown
 *   id, CONFLICT for uniqueness, INVALID_TRANSITION, PRECONDITION_FAILED for a
 *   stale `ifVersion`. A failed call changes nothing.
 * - A write resolves only once it is durable (it survives `kill -9`).
 * - `transaction(fn)` runs `fn` atomically: all its writes land or none.
 *   Do no slow I/O inside `fn`: other callers wait for it.
 * - Lists page by an opaque cursor, in a stable order, and report the total.
 */
export interface Storage extends StorageSession {
  /** Name of the implementation, e.g. `sqlite`. */
  readonly name: string
  /** Runs `fn` in one atomic transaction; resolves after its writes are durable. */
  transaction<T>(fn: (tx: StorageSession) => Promise<T>): Promise<T>
  /**
   * A consistent copy of the whole library in the implementation's own format
   * (for the embedded storage, a SQLite file made with SQLite's online backup
   * while writes go on), without connector signing secrets: those never leave
   * the server, so a restored library needs them set again. The body streams.
   */
  backup(): Promise<StorageBackup>
  /**
   * Only where several servers share the storage (PostgreSQL): claims a run
   * for this server to execute. Null while another live server holds it; a
   * server that dies loses its claims, so another can take its runs over.
   * `lost` fires when this server's claim ends without `release`.
   */
  claimRun?(runId: string): Promise<{ readonly lost: AbortSignal; release(): Promise<void> } | null>
  /**
   * Why writes are refused, if they are: the embedded storage stops writing
   * for good once flushing its write-ahead log failed, until a restart
   * (decision 0207). Absent or null: writes go on.
   */
  writesStopped?(): string | null
  /** Flushes and releases the storage. Further calls fail. */
  close(): Promise<void>
}

/** A backup file, read as a stream (a large library's copy is not held in memory). */
export interface StorageBackup {
  fileName: string
  contentType: string
  size: number
  body: ReadableStream<Uint8Array>
}

/** What a caller can do, in or out of a transaction. */
export interface StorageSession {
  readonly components: ComponentStore
  readonly symbols: LibraryItemStore<Symbol>
  readonly footprints: LibraryItemStore<Footprint>
  readonly attachments: AttachmentStore
  readonly manufacturers: ManufacturerStore
  readonly mpns: MpnStore
  readonly parameterTypes: ParameterTypeStore
  readonly parameters: ParameterStore
  readonly tags: TagStore
  readonly categories: CategoryStore
  readonly locations: LocationStore
  readonly search: SearchStore
  readonly connectors: ConnectorStore
  readonly runs: RunStore
  readonly jobs: DocumentStore<JobRecord>
  readonly imports: DocumentStore<ImportRecord>
  /** The rows of import sessions, one record each (decision 0615). */
  readonly importRows: ImportRowStore
  readonly users: UserStore
  readonly authSessions: AuthSessionStore
  readonly tokens: TokenStore
  readonly audit: AuditStore
  readonly settings: SettingsStore
  /** Saved views of the library table, per owner (decision 1508). */
  readonly savedViews: SavedViewStore
  /** The peers' keys of imported parts and companies (decision 0640). */
  readonly externalRefs: ExternalRefStore
  /** Configured inbound sources, secrets included (decision 1600). */
  readonly sources: SourceStore
  /** Supplier offers kept per component and source. */
  readonly offers: OfferStore
  /** Where each field of a component was filled from (decision 1603). */
  readonly provenance: ProvenanceStore
  /** Counts for `GET /api/stats`. */
  stats(): Promise<LibraryStats>
}

/** A page of a list. `nextCursor` is null on the last page. */
export interface Page<T> {
  items: T[]
  /** Items matching over all pages; with `totalBounded`, a lower bound: more than this many match. */
  total: number
  /** True when the count stopped at `total` and more match (a filtered component list, decision 0209). */
  totalBounded?: boolean
  nextCursor: string | null
}

export interface PageOptions {
  limit: number
  cursor?: string | undefined
}

/** Optimistic concurrency: the write fails with PRECONDITION_FAILED unless the record is at this version. */
export interface WriteOptions {
  ifVersion?: number | undefined
}

/** Components read for a delivery: the JSON array of their texts, in UTF-8 bytes, and how many it holds. */
export interface DeliveryRead {
  json: Uint8Array
  count: number
}

export interface ComponentStore {
  list(query: ComponentListQuery): Promise<Page<Component>>
  /**
   * The same page as `list` (same filters, order, cursor and total), ids only:
   * lets the API stream a 100,000-item listing in chunks while knowing its
   * Link header up front.
   */
  listIds(query: ComponentListQuery): Promise<Page<string>>
  /** The same page as `list` as one JSON array (`JSON.stringify` of its items), in UTF-8 bytes: for responses. */
  listJson(query: ComponentListQuery): Promise<{ json: Uint8Array; total: number; totalBounded?: boolean; nextCursor: string | null }>
  /**
   * Per component among `ids` (deleted ones too; unknown ones left out): its
   * total stock and its image (decision 0445), what the library table shows
   * beside the stored views a page is made of.
   */
  extras(ids: readonly string[]): Promise<Record<string, ComponentExtra>>
  /** NOT_FOUND when unknown, or deleted unless `includeDeleted`. */
  get(id: string, options?: { includeDeleted?: boolean }): Promise<Component>
  /** The same record as get, as its JSON text (`JSON.stringify` of it) in UTF-8 bytes, with its version: for responses. */
  getJson(id: string, options?: { includeDeleted?: boolean }): Promise<{ json: Uint8Array; version: number }>
  getByIpn(ipn: string): Promise<Component>
  /** The components among `ids`, in the order of `ids`; unknown ids, and deleted ones unless `includeDeleted`, are skipped. */
  getMany(ids: readonly string[], options?: { includeDeleted?: boolean }): Promise<Component[]>
  /** The same components as getMany, each as its JSON text (`JSON.stringify` of the record): for listings and deliveries. */
  getManyJson(ids: readonly string[], options?: { includeDeleted?: boolean }): Promise<string[]>
  /**
   * The live components among `ids`, in the order of `ids`, for a delivery:
   * their JSON texts joined into one JSON array (`json`, UTF-8 bytes, what
   * `JSON.stringify` of getMany gives) and how many (`count`), with a mark of
   * the library's history position at that read.
   */
  readForDelivery(ids: readonly string[]): Promise<DeliveryRead & { mark: number }>
  /**
   * What readForDelivery gave at `mark`: the same records in the same order,
   * whatever changed since (a component purged since is left out).
   */
  rereadForDelivery(ids: readonly string[], mark: number): Promise<DeliveryRead>
  create(input: ComponentCreateParsed): Promise<Component>
  update(id: string, patch: ComponentPatchParsed, options?: WriteOptions): Promise<Component>
  /** Soft delete: sets `deletedAt`, frees the ipn. */
  delete(id: string, options?: WriteOptions): Promise<Component>
  /** CONFLICT when its ipn was taken meanwhile. */
  restore(id: string): Promise<Component>
  /** Removes a component and its history for good. */
  purge(id: string): Promise<void>
  /** A copy with a new id and ipn, named `<name> (copy)` unless given. */
  duplicate(id: string, overrides?: { name?: string | undefined; ipn?: string | undefined }): Promise<Component>
  /** The next free ipn `<prefix><number>` (prefix default `CMP-`, 5 digits at least). */
  nextIpn(prefix?: string): Promise<string>
  /** Newest first. */
  history(id: string, page: PageOptions): Promise<Page<ComponentHistoryEntry>>
  /**
   * Makes the component's fields (not its attachments or stock) what they were
   * at `version`, as a new version whose history entry has `revertedTo`.
   * NOT_FOUND for an unknown version; CONFLICT naming the field when that
   * state cannot be made again now (its ipn taken since, a symbol or footprint
   * deleted since); INVALID_TRANSITION for a status the lifecycle forbids.
   * A version equal to the current fields still makes a new version.
   */
  revert(id: string, version: number, options?: WriteOptions): Promise<Component>
  /** The change feed: entries with `seq > since`, oldest first. */
  changes(since: number, limit: number): Promise<{ items: ComponentChange[]; lastSeq: number }>
  /** Categories of non-deleted components with how many each holds, by name. */
  categories(): Promise<Array<{ name: string; count: number }>>
  /** Ids of non-deleted components, in id order (the first `limit` of them when given). */
  liveIds(limit?: number): Promise<string[]>
}

export interface LibraryItemQuery extends PageOptions {
  q?: string | undefined
  library?: string | undefined
}

/** Symbols and footprints. */
export interface LibraryItemStore<T> {
  list(query: LibraryItemQuery): Promise<Page<T>>
  get(id: string): Promise<T>
  create(input: LibraryItemCreate): Promise<T>
  update(id: string, patch: LibraryItemPatch, options?: WriteOptions): Promise<T>
  /** CONFLICT while components link to it, unless `force` (then the links go too). */
  delete(id: string, options?: WriteOptions & { force?: boolean }): Promise<void>
  /** NOT_FOUND when the item has no file. */
  getFile(id: string): Promise<{ fileName: string; content: string }>
  /** Non-deleted components linking to the item. */
  components(id: string, page: PageOptions): Promise<Page<Component>>
  /** Idempotent. */
  link(componentId: string, itemId: string): Promise<Component>
  /** NOT_FOUND when not linked. */
  unlink(componentId: string, itemId: string): Promise<Component>
}

export interface AttachmentInput {
  componentId: string | null
  name: string
  kind: AttachmentKind
  contentType: string
  size: number | null
  sha256: string | null
  url: string | null
}

export interface AttachmentStore {
  list(query: PageOptions & { componentId?: string | undefined; kind?: AttachmentKind | undefined }): Promise<Page<Attachment>>
  listForComponent(componentId: string): Promise<Attachment[]>
  get(id: string): Promise<Attachment>
  create(input: AttachmentInput): Promise<Attachment>
  update(id: string, patch: Partial<Pick<AttachmentInput, 'name' | 'kind' | 'componentId'>>, options?: WriteOptions): Promise<Attachment>
  /** Returns the deleted record, so the caller can drop its bytes when no other attachment shares them. */
  delete(id: string): Promise<Attachment>
  /** How many attachments point at stored bytes with this digest. */
  countBySha256(sha256: string): Promise<number>
}

export interface ManufacturerStore {
  list(query: PageOptions & { q?: string | undefined }): Promise<Page<Manufacturer>>
  get(id: string): Promise<Manufacturer>
  create(input: { name: string; website?: string | null | undefined; aliases?: string[] | undefined }): Promise<Manufacturer>
  update(id: string, patch: { name?: string; website?: string | null; aliases?: string[] }, options?: WriteOptions): Promise<Manufacturer>
  /** CONFLICT while MPNs refer to it. */
  delete(id: string): Promise<void>
  /** Moves the MPNs of `sourceIds` to `targetId`, keeps their names as aliases, deletes the sources. */
  merge(targetId: string, sourceIds: readonly string[]): Promise<Manufacturer>
}

export interface MpnStore {
  list(query: PageOptions & { q?: string | undefined; manufacturerId?: string | undefined }): Promise<Page<Mpn>>
  listForComponent(componentId: string): Promise<Mpn[]>
  get(id: string): Promise<Mpn>
  /** Creates the manufacturer by name when it does not exist. CONFLICT on a duplicate of the same component. */
  create(componentId: string, input: { manufacturer: string; partNumber: string }): Promise<Mpn>
  update(id: string, patch: { manufacturer?: string; partNumber?: string }, options?: WriteOptions): Promise<Mpn>
  delete(id: string): Promise<void>
  /** Looks up part numbers (case-insensitive, optionally by manufacturer) among non-deleted components, in input order. */
  resolve(items: ReadonlyArray<{ partNumber: string; manufacturer?: string | undefined }>): Promise<MpnResolveResult[]>
}

export interface ParameterTypeStore {
  list(query: PageOptions & { q?: string | undefined }): Promise<Page<ParameterType>>
  get(id: string): Promise<ParameterType>
  create(input: {
    name: string
    unit?: string | null | undefined
    kind: ParameterKind
    choices?: string[] | null | undefined
    min?: number | null | undefined
    max?: number | null | undefined
    description?: string | null | undefined
  }): Promise<ParameterType>
  update(
    id: string,
    patch: Partial<{ name: string; unit: string | null; kind: ParameterKind; choices: string[] | null; min: number | null; max: number | null; description: string | null }>,
    options?: WriteOptions,
  ): Promise<ParameterType>
  /** CONFLICT while a category's template uses it, naming the categories. */
  delete(id: string): Promise<void>
  /**
   * The value check of every parameter write (decision 0441), without writing: the problems of `parameters`
   * against their types (`parameters[i].value`) and, with `category`, the required types they lack (`parameters`).
   * A value identical to one in `held` (what the component holds) passes as it is.
   */
  check(parameters: readonly ParameterInput[], options?: { category?: string | null | undefined; held?: readonly ParameterInput[] | undefined }): Promise<FieldError[]>
  /** Values that do not conform to their type and components lacking a required parameter (decision 0442). */
  report(query: { limit: number }): Promise<ParameterReport>
}

export interface ParameterInput {
  type: string
  value: string
  unit?: string | null | undefined
}

export interface ParameterStore {
  listForComponent(componentId: string): Promise<Parameter[]>
  add(componentId: string, input: ParameterInput): Promise<Parameter>
  /** Replaces all parameters of a component. */
  replace(componentId: string, inputs: readonly ParameterInput[]): Promise<Parameter[]>
  get(id: string): Promise<Parameter>
  update(id: string, patch: Partial<ParameterInput>, options?: WriteOptions): Promise<Parameter>
  delete(id: string): Promise<void>
}

export interface TagStore {
  /** With `count` of non-deleted components per tag; by name. */
  list(query: PageOptions & { q?: string | undefined }): Promise<Page<Tag>>
  get(id: string): Promise<Tag>
  create(input: { name: string; color?: string | null | undefined; description?: string | null | undefined }): Promise<Tag>
  update(id: string, patch: Partial<{ name: string; color: string | null; description: string | null }>, options?: WriteOptions): Promise<Tag>
  /** Removes the tag from every component too. */
  delete(id: string): Promise<void>
  merge(targetId: string, sourceIds: readonly string[]): Promise<Tag>
  /** Replaces a component's tags by names; unknown names become tags. */
  setForComponent(componentId: string, names: readonly string[]): Promise<Component>
  removeFromComponent(componentId: string, tagId: string): Promise<Component>
}

/** The category tree (stores/category-store.ts): records with ids; components name theirs by path. */
export interface CategoryStore {
  /** Every category with its path and count of non-deleted components (its own and its descendants'), by path. */
  list(): Promise<Category[]>
  get(id: string): Promise<Category>
  /** CONFLICT when a sibling has the name (compared as identifiers are); NOT_FOUND for an unknown parent. */
  create(input: { name: string; parentId?: string | null | undefined }): Promise<Category>
  /** A rename keeps the id; every component in the category or below it takes the new path (a new version each). */
  update(id: string, patch: { name?: string | undefined }, options?: WriteOptions): Promise<Category>
  /** CONFLICT while it has sub-categories or non-deleted components. Its own templates go with it. */
  delete(id: string): Promise<void>
  /** Its effective parameter templates: its ancestors' then its own, by position; a nearer entry for the same type wins (decision 0440). */
  templates(id: string): Promise<CategoryTemplate[]>
  /**
   * Replaces its own templates (types by name or id, in order); answers the effective ones.
   * VALIDATION_FAILED naming `body.templates[i].parameterType` for an unknown or repeated type, `body.templates[i].isValue` for a second value.
   */
  setTemplates(id: string, inputs: ReadonlyArray<{ parameterType: string; required?: boolean | undefined; isValue?: boolean | undefined }>): Promise<CategoryTemplate[]>
  /** The effective templates for a component's category path (compared as identifiers are); [] for none. Names not made yet inherit from those that exist. */
  templatesForPath(path: string | null | undefined): Promise<CategoryTemplate[]>
}

export interface LocationStore {
  list(query: PageOptions & { q?: string | undefined; parentId?: string | null | undefined }): Promise<Page<Location>>
  tree(): Promise<LocationTreeNode[]>
  get(id: string): Promise<Location>
  create(input: { name: string; parentId?: string | null | undefined; description?: string | null | undefined }): Promise<Location>
  /** CONFLICT when the new parent would make a cycle. */
  update(id: string, patch: Partial<{ name: string; parentId: string | null; description: string | null }>, options?: WriteOptions): Promise<Location>
  /** CONFLICT while it has children or stock. */
  delete(id: string): Promise<void>
  stockForComponent(componentId: string): Promise<StockEntry[]>
  /** Sets the quantity of a component in a location (0 removes the entry). */
  setStock(componentId: string, locationId: string, quantity: number): Promise<StockEntry>
  /** CONFLICT when stock would go below zero. */
  adjust(input: { componentId: string; locationId: string; delta: number; reason?: string | undefined }): Promise<StockEntry>
  move(input: { componentId: string; fromLocationId: string; toLocationId: string; quantity: number }): Promise<{ from: StockEntry; to: StockEntry }>
}

/**
 * Saved views of the library table (decision 1508). Every method takes the
 * owner (an account id, or a fixed id for a caller without one): another
 * owner's view is NOT_FOUND. A name is unique per owner, compared as
 * identifiers are (CONFLICT).
 */
export interface SavedViewStore {
  /** The owner's views, by name. */
  list(ownerId: string): Promise<SavedView[]>
  get(ownerId: string, id: string): Promise<SavedView>
  /** CONFLICT when the name is taken, or the owner keeps SAVED_VIEWS_PER_OWNER already. */
  create(ownerId: string, input: SavedViewCreate): Promise<SavedView>
  update(ownerId: string, id: string, patch: SavedViewPatch, options?: WriteOptions): Promise<SavedView>
  delete(ownerId: string, id: string): Promise<void>
}

export interface SearchStore {
  /** Best match first: whole-field prefix, then word prefix, then substring; case-insensitive. */
  suggest(entity: SuggestEntity, q: string, limit: number): Promise<Suggestion[]>
  /** Full-text search across components, symbols, footprints, manufacturers, tags, locations. */
  search(q: string, limitPerGroup: number): Promise<Record<SuggestEntity, Suggestion[]>>
  /** Components whose parameters meet every condition (numbers compare with SI prefixes: `10k`). */
  parametric(conditions: readonly ParametricCondition[], page: PageOptions): Promise<Page<Component>>
}

/** A configured source as stored, its secret fields apart from its config (decision 1604). Never sent over the API as is. */
export interface StoredSource {
  id: string
  type: string
  name: string
  /** The config without its secret fields. */
  config: Record<string, unknown>
  /** The secret fields, by name. */
  secrets: Record<string, string>
  /** The scheduled refresh, or null (decision 1608). */
  refresh: SourceRefresh | null
  createdAt: string
  updatedAt: string
  version: number
}

export interface SourceStore {
  list(page: PageOptions): Promise<Page<StoredSource>>
  get(id: string): Promise<StoredSource>
  create(input: { type: string; name: string; config: Record<string, unknown>; secrets: Record<string, string>; refresh?: SourceRefresh | null | undefined }): Promise<StoredSource>
  update(id: string, patch: Partial<{ name: string; config: Record<string, unknown>; secrets: Record<string, string>; refresh: SourceRefresh | null }>, options?: WriteOptions): Promise<StoredSource>
  /** Deletes the source; the offers and provenance it wrote stay, naming it by id and name. */
  delete(id: string): Promise<void>
}

export interface OfferStore {
  /** A component's offers, by supplier then SKU; `sourceId` null where that source was deleted since. */
  list(componentId: string): Promise<ComponentOffer[]>
  /** Replaces what one source offered for a component (its last answer wins whole). */
  replace(componentId: string, sourceId: string, ref: string, offers: readonly SupplierOffer[]): Promise<void>
}

export interface ProvenanceStore {
  /** Where each of a component's fields was last filled from, by field. */
  list(componentId: string): Promise<FieldProvenance[]>
  /** Records (replacing) the provenance of some fields of a component. */
  record(componentId: string, entries: ReadonlyArray<FieldProvenance & { sourceId: string }>): Promise<void>
}

/** A connector as stored, secrets included. Never sent over the API as is. */
export interface StoredConnector {
  id: string
  type: string
  name: string
  enabled: boolean
  config: Record<string, unknown>
  secret: string | null
  previousSecret: string | null
  previousSecretExpiresAt: string | null
  code: string | null
  createdAt: string
  updatedAt: string
  version: number
}

export interface ConnectorStore {
  list(page: PageOptions): Promise<Page<StoredConnector>>
  get(id: string): Promise<StoredConnector>
  create(input: { type: string; name: string; enabled: boolean; config: Record<string, unknown>; secret: string | null; code: string | null }): Promise<StoredConnector>
  update(id: string, patch: Partial<{ name: string; enabled: boolean; config: Record<string, unknown>; code: string | null }>, options?: WriteOptions): Promise<StoredConnector>
  /**
   * Deletes the connector and its runs; CONFLICT while it has a queued or
   * running run, checked atomically with the delete, as runs.create checks
   * the connector: a delete and a run's creation never both succeed.
   */
  delete(id: string): Promise<void>
  rotateSecret(id: string, secret: string, previousExpiresAt: string): Promise<StoredConnector>
}

export interface RunCreate {
  connectorId: string
  trigger: Run['trigger']
  /**
   * What the run sends: ids frozen now, already split into batches; or every
   * component live now, planned as it goes (decision 0320): the run records
   * the live count and the highest id, plans its first `first` batches of
   * `batchSize` in the same transaction, and `planMore` plans the rest.
   */
  batches: ReadonlyArray<{ webhookId: string; ids: readonly string[] }> | { live: { batchSize: number; first: number } }
  /**
   * Refuse (CONFLICT) while the connector has a queued or running run, checked
   * atomically with the insert: one active run per connector, however many
   * servers share the database.
   */
  exclusive?: boolean | undefined
  /**
   * The cron tick (ISO time) this run is for. Its id is derived from the
   * connector and the tick, so a second run for the same tick is a CONFLICT:
   * servers sharing a database start one run per tick.
   */
  scheduledFor?: string | undefined
  /** Who started it (the cron scheduler is the actor `system`/`cron`; null or left out: unknown). */
  startedBy?: Actor | null | undefined
}

export type RunPatch = Partial<Pick<Run, 'status' | 'error' | 'startedAt' | 'finishedAt' | 'resumedAt' | 'batchesSucceeded' | 'batchesFailed' | 'entitiesSent' | 'entitiesSkipped'>> & {
  /** Appended to the run's logs (the store keeps the last 1,000 lines). */
  appendLogs?: readonly string[]
}

export type RunBatchPatch = Partial<Pick<RunBatch, 'status' | 'lastStatus' | 'error' | 'entitiesSent' | 'entitiesSkipped'>> & {
  appendAttempt?: RunBatch['attempts'][number]
  /** Several attempts at once (in order). */
  appendAttempts?: ReadonlyArray<RunBatch['attempts'][number]>
  /** The exact bytes sent (kept until the batch is acknowledged, so a resend is identical); null clears. */
  body?: Uint8Array | null
  /**
   * Instead of the bytes, when the batch went out exactly as read: the history
   * position of that read (readForDelivery), from which rereadForDelivery gives
   * the same records back.
   */
  mark?: number | null
}

export interface RunStore {
  create(input: RunCreate): Promise<RunDetail>
  /** The run with every batch, or with the first `options.batches` and the cursor of the rest (`batchesNextCursor`). */
  get(id: string, options?: { batches?: number }): Promise<RunDetail>
  /**
   * A page of the run's batches by index, `status` keeping those in one of the
   * given statuses, `indexes` those of the given indexes (a watcher looking
   * again at the batches it saw in flight; `total` is then how many it found).
   */
  listBatches(runId: string, page: PageOptions & { status?: readonly BatchStatus[] | undefined; indexes?: readonly number[] | undefined }): Promise<Page<RunBatch>>
  list(connectorId: string, page: PageOptions): Promise<Page<Run>>
  /** Runs in `queued` or `running`, oldest first: what a restart resumes. */
  listActive(): Promise<Run[]>
  update(id: string, patch: RunPatch): Promise<Run>
  updateBatch(runId: string, index: number, patch: RunBatchPatch): Promise<RunBatch>
  /**
   * Plans up to `count` more batches of a run created from the live
   * components, in one transaction: the next ids after those planned, up to
   * the highest id at the start, of components live at the start and not
   * purged since (one deleted meanwhile is planned, and skipped when read).
   * The batches planned, none once the plan is complete; then the run's
   * `total` and `batchesTotal` are what was planned.
   */
  planMore(runId: string, count: number): Promise<RunBatch[]>
  /** The batch's frozen ids and, when it was sent before, its exact body or the mark of the read it sent. */
  getBatchPayload(runId: string, index: number): Promise<{ ids: string[]; body: Uint8Array | null; mark: number | null }>
  /**
   * What the run's batches add up to, as a finished run records it, counted
   * by the database (a push of a million parts has 4,000 batches; reading
   * each to add them up held the server's thread for tens of milliseconds).
   */
  totals(runId: string): Promise<RunTotals>
}

/** The sums of a run's batches (RunStore.totals). */
export interface RunTotals {
  batchesSucceeded: number
  batchesFailed: number
  /** Entities sent by the succeeded batches. */
  entitiesSent: number
  entitiesSkipped: number
  /** The error of the failed batch with the lowest index, if any. */
  firstError: string | null
}

/** A JSON document with an id and a kind, for jobs and import sessions. */
export interface DocumentRecord<TData = Record<string, unknown>> {
  id: string
  kind: string
  status: string
  data: TData
  createdAt: string
  updatedAt: string
  version: number
}
export type JobRecord = DocumentRecord
export type ImportRecord = DocumentRecord

export interface DocumentStore<T extends DocumentRecord> {
  create(input: { kind: string; status: string; data: T['data'] }): Promise<T>
  get(id: string): Promise<T>
  update(id: string, patch: { status?: string; data?: T['data'] }, options?: WriteOptions): Promise<T>
  delete(id: string): Promise<void>
}

/** One row of an import's file as stored: its cells, and what committing does with it once planned. */
export interface StoredImportRow {
  /** Row number as a spreadsheet shows it (the first after the header is 2). */
  rowNo: number
  cells: Record<string, unknown>
}

/** A row's planned (or committed) outcome: `kind` is what lists filter by, `outcome` the whole record. */
export interface StoredImportOutcome {
  rowNo: number
  kind: string
  outcome: Record<string, unknown>
}

/**
 * The rows of import sessions, one record per row (decision 0615), so that a
 * file of 100,000 rows is written, planned and listed a chunk at a time and
 * the session's own document stays small.
 */
export interface ImportRowStore {
  /** Adds rows to an import (CONFLICT for a row number it has). */
  append(importId: string, rows: readonly StoredImportRow[]): Promise<void>
  /** Up to `limit` rows after row number `after`, in row order. */
  read(importId: string, options: { after: number; limit: number }): Promise<StoredImportRow[]>
  /** Sets the outcome of rows the import has (others are ignored). */
  setOutcomes(importId: string, outcomes: readonly StoredImportOutcome[]): Promise<void>
  /** Outcomes after row number `after`, in row order, only of `kind` when given; `total` counts every match. Rows without an outcome are left out. */
  listOutcomes(importId: string, options: { after: number; limit: number; kind?: string | undefined }): Promise<{ items: StoredImportOutcome[]; total: number }>
  /** How many rows the import has. */
  count(importId: string): Promise<number>
  /** Removes every row of the import. */
  deleteAll(importId: string): Promise<void>
  /** Ids of import sessions whose status is one of `statuses` (what a restart finds unfinished), oldest first. */
  sessionsIn(statuses: readonly string[]): Promise<string[]>
}

/** An account with what signing in checks: never sent over the API. */
export interface UserCredentials {
  user: User
  passwordHash: string
}

export interface UserStore {
  /** By user name. */
  list(query: PageOptions & { q?: string | undefined }): Promise<Page<User>>
  get(id: string): Promise<User>
  /** Null for an unknown name. A disabled account is returned as it is: the caller says why it refuses. */
  findCredentials(username: string): Promise<UserCredentials | null>
  /** The stored hash of a user's password (NOT_FOUND for an unknown id). */
  passwordHash(id: string): Promise<string>
  /** CONFLICT (field `username`) when the name is taken. */
  create(input: { username: string; displayName: string; role: Role; passwordHash: string }): Promise<User>
  /** A new password hash also ends every session of the user (authSessions) in the same transaction. */
  update(id: string, patch: { displayName?: string; role?: Role; disabled?: boolean; passwordHash?: string }, options?: WriteOptions): Promise<User>
  /** Sets lastLoginAt (no new version). */
  recordLogin(id: string, at: string): Promise<void>
  /** How many accounts exist, disabled ones included: the server asks for credentials once there is one. */
  count(): Promise<number>
}

/** A sign-in session as stored: its id is kept only as a hash. */
export interface AuthSession {
  idHash: string
  userId: string
  createdAt: string
  lastSeenAt: string
  expiresAt: string
}

export interface AuthSessionStore {
  create(input: { idHash: string; userId: string; createdAt: string; expiresAt: string }): Promise<AuthSession>
  /**
   * The session and its user, or null when there is none, it is past
   * `expiresAt`, or it was last seen before `idleSince`. One statement: every
   * request signed in through the web interface reads it.
   */
  resolve(idHash: string, now: string, idleSince: string): Promise<{ session: AuthSession; user: User } | null>
  /** Sets lastSeenAt (callers do it at most about once a minute per session). */
  touch(idHash: string, at: string): Promise<void>
  delete(idHash: string): Promise<void>
  /** Ends every session of a user (but `exceptIdHash`): on a password change, a reset, a disable. */
  deleteForUser(userId: string, exceptIdHash?: string | undefined): Promise<number>
  /** Removes sessions past their end or idle since `idleSince`; returns how many. */
  prune(now: string, idleSince: string): Promise<number>
}

/** A token as stored: the hash of its secret, never the secret. */
export interface TokenCreateInput {
  name: string
  scope: TokenScope
  ownerId: string
  /** SHA-256 (hex) of the whole token. */
  hash: string
  prefix: string
  expiresAt: string | null
}

export interface TokenStore {
  create(input: TokenCreateInput): Promise<ApiToken>
  /** Newest first; one owner's, or everyone's when `ownerId` is undefined. */
  list(query: PageOptions & { ownerId?: string | undefined }): Promise<Page<ApiToken>>
  get(id: string): Promise<ApiToken>
  /**
   * The token with this hash and its owner, or null when there is none. Expiry
   * and a disabled owner are the caller's to judge (it says why it refuses).
   * One statement: every request with a token reads it.
   */
  resolve(hash: string): Promise<{ token: ApiToken; owner: User } | null>
  /** Sets lastUsedAt (callers do it at most about once a minute per token). */
  touch(id: string, at: string): Promise<void>
  /** Revokes: the token is gone. NOT_FOUND when unknown. */
  delete(id: string): Promise<void>
}

/** What a caller gives to append to the audit trail; seq, time and hashes are the store's. */
export interface AuditInput {
  actor: Actor
  channel: Channel
  requestId: string | null
  action: string
  target: { type: string; id: string } | null
  comment: string | null
  details: Record<string, unknown> | null
  /** Defaults to now. */
  at?: string | undefined
}

export interface AuditStore {
  /** Appends one entry, chained to the last by hash (under the write lock, so servers sharing the database make one chain). */
  append(entry: AuditInput): Promise<AuditEntry>
  /** Newest first, filtered. */
  list(query: AuditQuery): Promise<Page<AuditEntry>>
  /** Walks the chain from the oldest kept entry. */
  verify(): Promise<AuditVerification>
  /**
   * Removes the entries older than `before` and appends `entry` (the pruning,
   * with how many went in its details) in the same transaction; the oldest kept
   * entry's prevHash anchors the rest.
   */
  prune(before: string, entry: AuditInput): Promise<{ removed: number; entry: AuditEntry }>
}

export interface SettingsStore {
  /** The defaults (DEFAULT_SETTINGS) until an admin changes one. */
  get(): Promise<Settings>
  update(patch: SettingsPatch): Promise<Settings>
}

/** What one of a peer's keys means here (decision 0640): `part` → a component id; `company` → the manufacturer name the peer's company key stands for. */
export type ExternalRefKind = 'part' | 'company'

/** A peer's key kept beside what it names in complib, unique per (source, kind, key). */
export interface ExternalRef {
  /** Whose key it is: `inventree`, `partdb`, or the source an import was given. */
  source: string
  kind: ExternalRefKind
  key: string
  target: string
}

/** The peers' keys of imported records (decision 0640). */
export interface ExternalRefStore {
  /** The refs of `keys` that are held (others are left out), in no order. */
  lookup(source: string, kind: ExternalRefKind, keys: readonly string[]): Promise<ExternalRef[]>
  /** Sets each ref's target; answers what each pointed at before (null: it was not held), in the order given, so an undo can put it back. */
  upsert(refs: readonly ExternalRef[]): Promise<Array<string | null>>
  /** Removes the refs of these (source, kind, key); unknown ones are ignored. */
  remove(refs: ReadonlyArray<Pick<ExternalRef, 'source' | 'kind' | 'key'>>): Promise<void>
  /** The refs pointing at `target` (a component's, with kind `part`), by source then key. */
  listForTarget(kind: ExternalRefKind, target: string): Promise<ExternalRef[]>
}
