import * as z from 'zod'
import { idSchema } from '../ids'
import { ComponentStatus } from '../status'
import { Component } from './component'
import { Name, Timestamp, recordFields } from './common'

/**
 * A part's lifecycle as a supplier states it, in the words every source maps
 * its own onto (decision 1600): `preview` is announced or not yet in
 * production, `unknown` when the supplier says nothing usable.
 */
export const SOURCE_LIFECYCLES = ['active', 'nrnd', 'obsolete', 'preview', 'unknown'] as const
export const SourceLifecycle = z.enum(SOURCE_LIFECYCLES).meta({ id: 'SourceLifecycle' })
export type SourceLifecycle = z.infer<typeof SourceLifecycle>

/** One quantity and its unit price, in the offer's currency. */
export const PriceBreak = z
  .object({
    quantity: z.int().min(1),
    price: z.number().nonnegative(),
  })
  .meta({ id: 'PriceBreak' })
export type PriceBreak = z.infer<typeof PriceBreak>

/** What one supplier sells a part at, and how many it holds, when it was asked. */
export const SupplierOffer = z
  .object({
    supplier: z.string().min(1).max(200).meta({ example: 'Mouser' }),
    sku: z.string().max(200).nullable().meta({ description: "The supplier's own part number", example: '595-LM358DR' }),
    url: z.string().max(2000).nullable(),
    stock: z.int().min(0).nullable(),
    minimumQuantity: z.int().min(1).nullable(),
    multiple: z.int().min(1).nullable(),
    packaging: z.string().max(200).nullable(),
    currency: z.string().length(3).nullable().meta({ example: 'USD' }),
    priceBreaks: z.array(PriceBreak).max(50),
    fetchedAt: Timestamp,
  })
  .meta({ id: 'SupplierOffer' })
export type SupplierOffer = z.infer<typeof SupplierOffer>

/** A parameter in the supplier's words; the server maps `name` onto the library's parameter types. */
export const SourceParameter = z
  .object({
    name: z.string().min(1).max(100),
    value: z.string().max(500),
    unit: z.string().max(32).nullable(),
  })
  .meta({ id: 'SourceParameter' })
export type SourceParameter = z.infer<typeof SourceParameter>

/** A string naming one part at one source (what `search` gives and `fetch` takes). */
export const SourceRef = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .regex(/^[^\u0000-\u001f]+$/, { error: 'a ref has no control characters' })
  .meta({ example: '595-LM358DR' })

/** One part as a source normalises it (decision 1600). */
export const SourcePart = z
  .object({
    ref: SourceRef,
    manufacturer: z.string().min(1).max(200).nullable(),
    mpn: z.string().min(1).max(200),
    name: z.string().max(200).nullable(),
    description: z.string().max(10_000).nullable(),
    categoryHints: z.array(z.string().max(200)).max(10).meta({ description: "The supplier's category, broadest first" }),
    parameters: z.array(SourceParameter).max(200),
    datasheetUrl: z.string().max(2000).nullable(),
    imageUrl: z.string().max(2000).nullable(),
    productUrl: z.string().max(2000).nullable(),
    lifecycle: SourceLifecycle,
    supplierStatus: z.string().max(200).nullable().meta({ description: "The lifecycle in the supplier's own words" }),
    package: z.string().max(200).nullable(),
    rohs: z.boolean().nullable(),
    offers: z.array(SupplierOffer).max(50),
  })
  .meta({ id: 'SourcePart' })
export type SourcePart = z.infer<typeof SourcePart>

/** One answer of a search: enough to choose, and the `ref` to fetch the whole part by. */
export const SourceCandidate = z
  .object({
    ref: SourceRef,
    manufacturer: z.string().max(200).nullable(),
    mpn: z.string().min(1).max(200),
    description: z.string().max(10_000).nullable(),
    imageUrl: z.string().max(2000).nullable(),
    productUrl: z.string().max(2000).nullable(),
    lifecycle: SourceLifecycle,
    stock: z.int().min(0).nullable().meta({ description: 'What the source holds, over its offers' }),
  })
  .meta({ id: 'SourceCandidate' })
export type SourceCandidate = z.infer<typeof SourceCandidate>

/** What a source type can do, for clients to offer only that. */
export const SourceCapabilities = z
  .object({
    search: z.boolean().meta({ description: 'Finds parts by MPN or keyword' }),
    offers: z.boolean().meta({ description: 'Gives stock and prices' }),
    lifecycle: z.boolean().meta({ description: "Gives a part's lifecycle" }),
    pull: z.boolean().optional().meta({ description: "Reads a peer's whole library, to import it and sync it again later (decision 1609)" }),
  })
  .meta({ id: 'SourceCapabilities' })
export type SourceCapabilities = z.infer<typeof SourceCapabilities>

/** The provider's documented limits a source type keeps to (a limiter per configured source). */
export const SourceLimits = z
  .object({
    requestsPerMinute: z.number().positive().nullable(),
    requestsPerDay: z.int().positive().nullable(),
  })
  .meta({ id: 'SourceLimits' })
export type SourceLimits = z.infer<typeof SourceLimits>

/** `GET /api/sources/types`: each type with its config's JSON Schema and which fields are secrets. */
export const SourceTypeInfo = z
  .object({
    type: z.string(),
    title: z.string(),
    description: z.string(),
    documentation: z.string().nullable().meta({ description: "The provider's API documentation" }),
    configSchema: z.record(z.string(), z.unknown()),
    secretFields: z.array(z.string()).meta({ description: 'Config fields that are write-only: answered as hints' }),
    capabilities: SourceCapabilities,
    limits: SourceLimits,
  })
  .meta({ id: 'SourceTypeInfo' })
export type SourceTypeInfo = z.infer<typeof SourceTypeInfo>

/**
 * A source's scheduled refresh (decision 1608): offers and lifecycle of the
 * components the filter selects (every live one when it is empty), on a cron
 * schedule. A part gone NRND or obsolete at the source is tagged
 * `nrnd-at-source` / `obsolete-at-source`, its status left alone, unless
 * `autoStatus`.
 */
export const SourceRefresh = z
  .strictObject({
    cron: z.string().trim().min(1).max(200).meta({ example: '0 3 * * 1' }),
    filter: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}).meta({ description: 'The filters of `GET /api/components` (`category`, `tag`, `status`, `q`, …); empty: every component' }),
    autoStatus: z.boolean().default(false).meta({ description: "Change a component's status when its lifecycle changed at the source, instead of tagging it" }),
  })
  .meta({ id: 'SourceRefresh' })
export type SourceRefresh = z.output<typeof SourceRefresh>

/** A configured source as the API shows it: secret fields only as hints of their last characters. */
export const Source = z
  .object({
    id: idSchema('source'),
    type: z.string().meta({ example: 'mouser' }),
    name: z.string(),
    config: z.record(z.string(), z.unknown()).meta({ description: "Validated by the type's config schema, without its secret fields" }),
    secretHints: z.record(z.string(), z.string()).meta({ description: 'Each secret field set, as `…` and its last 4 characters', example: { apiKey: '…9f3a' } }),
    refresh: SourceRefresh.nullable(),
    nextRefreshAt: Timestamp.nullable(),
    ...recordFields,
  })
  .meta({ id: 'Source' })
export type Source = z.infer<typeof Source>

export const SourceCreate = z
  .strictObject({
    type: z.string().trim().min(1).max(40),
    name: Name,
    config: z.record(z.string(), z.unknown()).meta({ description: 'The type\'s config, secrets included (e.g. Mouser: `{"apiKey": "…"}`)' }),
    refresh: SourceRefresh.nullable().default(null),
  })
  .meta({ id: 'SourceCreate' })
export type SourceCreate = z.input<typeof SourceCreate>

export const SourcePatch = z
  .strictObject({
    name: Name,
    config: z.record(z.string(), z.unknown()).meta({ description: 'Merged into the current config (RFC 7396); a secret field left out keeps its value' }),
    refresh: SourceRefresh.nullable().meta({ description: 'Replaces the schedule; null ends it' }),
  })
  .partial()
  .meta({ id: 'SourcePatch' })
export type SourcePatch = z.input<typeof SourcePatch>

export const SourceSearchQuery = z.object({
  q: z.string().trim().min(1).max(200).meta({ description: 'An MPN or keywords', example: 'LM358' }),
  limit: z.coerce.number().int().min(1).max(50).default(10),
})

export const SourceSearchResult = z
  .object({
    sourceId: idSchema('source'),
    candidates: z.array(SourceCandidate),
    cached: z.boolean().meta({ description: 'Answered from the cache, without asking the provider' }),
  })
  .meta({ id: 'SourceSearchResult' })
export type SourceSearchResult = z.infer<typeof SourceSearchResult>

/** `GET /api/sources/:id/parts/:ref`: one part as the source gives it, before it is made a component. */
export const SourcePartResult = z
  .object({ sourceId: idSchema('source'), part: SourcePart, cached: z.boolean() })
  .meta({ id: 'SourcePartResult' })
export type SourcePartResult = z.infer<typeof SourcePartResult>

/** Body of `POST /api/components/from-source`. */
export const FromSource = z
  .strictObject({
    sourceId: idSchema('source'),
    ref: SourceRef,
    category: z.string().trim().min(1).max(200).nullable().optional().meta({ description: "The component's category; left out, the library category whose last name is the deepest of the source's category hints, else none" }),
    ipn: z.string().trim().min(1).max(64).optional(),
  })
  .meta({ id: 'FromSource' })
export type FromSource = z.input<typeof FromSource>

/** The fields enrichment can fill (decision 1602). */
export const ENRICH_FIELDS = ['description', 'mpns', 'parameters', 'status', 'datasheet', 'offers'] as const
export const EnrichField = z.enum(ENRICH_FIELDS)
export type EnrichField = z.infer<typeof EnrichField>

export const Enrich = z
  .strictObject({
    sourceId: idSchema('source'),
    ref: SourceRef.optional().meta({ description: "Which part at the source; left out, the component's first MPN is looked up" }),
    fields: z.array(EnrichField).min(1).optional().meta({ description: 'Which fields to apply; left out, every field that differs' }),
    dryRun: z.boolean().default(false),
  })
  .meta({ id: 'Enrich' })
export type Enrich = z.input<typeof Enrich>

/** Components one enrichment job takes at most. */
export const ENRICH_JOB_MAX = 10_000

/** Body of `POST /api/sources/{id}/enrich-jobs`: the components by id, or by the library list's filters. */
export const EnrichJobCreate = z
  .strictObject({
    componentIds: z.array(idSchema('component')).min(1).max(ENRICH_JOB_MAX).optional(),
    filter: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional().meta({ description: 'The filters of `GET /api/components` (`category`, `tag`, `status`, `q`, …)' }),
    fields: z.array(EnrichField).min(1).optional(),
    dryRun: z.boolean().default(true).meta({ description: 'True by default: see what would change first' }),
  })
  .meta({ id: 'EnrichJobCreate' })

export type EnrichJobCreate = z.input<typeof EnrichJobCreate>

/** One field of an enrichment: what the library holds and what the source gives. */
export const EnrichChange = z
  .object({
    field: EnrichField,
    current: z.unknown(),
    proposed: z.unknown(),
    applied: z.boolean(),
    note: z.string().nullable().meta({ description: 'Why it cannot be applied (a status change the library\'s lifecycle does not allow), or null' }),
  })
  .meta({ id: 'EnrichChange' })
export type EnrichChange = z.infer<typeof EnrichChange>

export const EnrichResult = z
  .object({
    sourceId: idSchema('source'),
    ref: SourceRef,
    dryRun: z.boolean(),
    changes: z.array(EnrichChange).meta({ description: 'The fields that differ; `applied` says which were written' }),
    component: Component,
  })
  .meta({ id: 'EnrichResult' })
export type EnrichResult = z.infer<typeof EnrichResult>

/** An offer kept for a component, with the source it came from. */
export const ComponentOffer = SupplierOffer.extend({
  sourceId: idSchema('source').nullable().meta({ description: 'The configured source it came from (null once that source is deleted)' }),
  ref: z.string(),
}).meta({ id: 'ComponentOffer' })
export type ComponentOffer = z.infer<typeof ComponentOffer>

/** Where a component's field was filled from, and when (decision 1603). */
export const FieldProvenance = z
  .object({
    field: z.string(),
    sourceId: idSchema('source').nullable(),
    sourceType: z.string(),
    sourceName: z.string(),
    ref: z.string(),
    at: Timestamp,
  })
  .meta({ id: 'FieldProvenance' })
export type FieldProvenance = z.infer<typeof FieldProvenance>

/** The library status a new component from a source starts in (decision 1600). */
export function statusFromLifecycle(lifecycle: SourceLifecycle): ComponentStatus {
  return lifecycle === 'preview' ? 'draft' : lifecycle === 'unknown' ? 'active' : lifecycle
}
