import * as z from 'zod'
import { idSchema } from '../ids'
import { parseSiNumber } from '../si-number'
import { ComponentStatus } from '../status'
import { Actor, Channel } from './account'
import { Description, LinkSummary, Name, QueryBoolean, PageQuery, Timestamp, identifierSchema, recordFields } from './common'

/** A parameter as embedded in a component: `{ type, value, unit? }`. `value` is text (e.g. `10k`). */
export const ComponentParameter = z
  .object({
    type: z.string().trim().min(1).max(100),
    value: z.string().trim().max(500),
    unit: z.string().trim().max(32).nullable().optional(),
  })
  .meta({ id: 'ComponentParameter' })
export type ComponentParameter = z.infer<typeof ComponentParameter>

/** A manufacturer part number as embedded in a component. */
export const ComponentMpn = z
  .object({
    manufacturer: identifierSchema(200),
    partNumber: z.string().trim().min(1).max(200),
  })
  .meta({ id: 'ComponentMpn' })
export type ComponentMpn = z.infer<typeof ComponentMpn>

export const Ipn = identifierSchema(64)
  .regex(/^[^\s/?#]+$/, { error: 'an ipn has no spaces, slashes, ? or #' })
  .meta({ description: 'Internal part number, unique among non-deleted components', example: 'RES-00042' })

export const TagName = identifierSchema(64)

/** A link given by id, or by a `{ id }` object as returned in a component (so GET output can be sent back). */
const linkInput = (kind: 'symbol' | 'footprint') =>
  z.union([idSchema(kind), z.object({ id: idSchema(kind), name: z.string().optional() })]).transform((v) => (typeof v === 'string' ? v : v.id))

/** A component as the API and webhook deliveries show it. */
export const Component = z
  .object({
    id: idSchema('component'),
    name: z.string(),
    ipn: z.string(),
    description: z.string().nullable(),
    status: ComponentStatus,
    category: z.string().nullable().meta({ description: 'Category path, segments joined by `/`, e.g. `Passives/Resistors/Thick film`; filtering by a category takes in its descendants; used by the KiCad library' }),
    tags: z.array(z.string()),
    parameters: z.array(ComponentParameter),
    mpns: z.array(ComponentMpn),
    symbols: z.array(LinkSummary),
    footprints: z.array(LinkSummary),
    attachments: z.array(LinkSummary),
    kicadValue: z.string().nullable().meta({ description: 'The Value KiCad shows; null for the default rule (a `Value` parameter, a passive\'s resistance, capacitance, … with its unit, else the name)' }),
    excludeFromBom: z.boolean().meta({ description: 'KiCad leaves the part out of its bills of materials (`exclude_from_bom`)' }),
    excludeFromBoard: z.boolean().meta({ description: 'KiCad leaves the part off the board (`exclude_from_board`)' }),
    excludeFromSim: z.boolean().meta({ description: 'KiCad leaves the part out of simulation (`exclude_from_sim`)' }),
    ...recordFields,
    deletedAt: Timestamp.nullable(),
  })
  .meta({ id: 'Component' })
export type Component = z.infer<typeof Component>

/**
 * Most children one component takes. With BULK_MAX_CHILDREN they bound the
 * work of one write, which holds the storage while it runs (decision 1102;
 * the bench's fairness rows measure it).
 */
export const COMPONENT_LIMITS = { parameters: 50, tags: 20, mpns: 10, symbols: 20, footprints: 20 } as const

const writable = {
  name: Name,
  ipn: Ipn,
  description: Description,
  status: ComponentStatus,
  // A path: segments trimmed, empty ones (`a//b`, a trailing `/`) dropped.
  category: z
    .string()
    .trim()
    .max(200)
    .transform((s) => s.split('/').map((p) => p.trim()).filter(Boolean).join('/'))
    .pipe(z.string().min(1, { error: 'a category has at least one name' }))
    .nullable(),
  tags: z.array(TagName).max(COMPONENT_LIMITS.tags),
  parameters: z.array(ComponentParameter).max(COMPONENT_LIMITS.parameters),
  mpns: z.array(ComponentMpn).max(COMPONENT_LIMITS.mpns),
  symbols: z.array(linkInput('symbol')).max(COMPONENT_LIMITS.symbols),
  footprints: z.array(linkInput('footprint')).max(COMPONENT_LIMITS.footprints),
  // Null is the default rule (routes/kicad.ts, kicadValue); an empty text is refused rather than stored as "no value".
  kicadValue: z.string().trim().min(1, { error: 'a KiCad value has at least one character; null gives the default value' }).max(200).nullable(),
  excludeFromBom: z.boolean(),
  excludeFromBoard: z.boolean(),
  excludeFromSim: z.boolean(),
}

/** Body of `POST /api/components`. Only `name` is required; a missing `ipn` is generated. */
export const ComponentCreate = z
  .strictObject({
    ...writable,
    ipn: writable.ipn.optional(),
    description: writable.description.optional(),
    status: writable.status.optional(),
    category: writable.category.optional(),
    tags: writable.tags.optional(),
    parameters: writable.parameters.optional(),
    mpns: writable.mpns.optional(),
    symbols: writable.symbols.optional(),
    footprints: writable.footprints.optional(),
    kicadValue: writable.kicadValue.optional(),
    excludeFromBom: writable.excludeFromBom.optional(),
    excludeFromBoard: writable.excludeFromBoard.optional(),
    excludeFromSim: writable.excludeFromSim.optional(),
  })
  .meta({ id: 'ComponentCreate' })
export type ComponentCreate = z.input<typeof ComponentCreate>
export type ComponentCreateParsed = z.output<typeof ComponentCreate>

/** Body of `PATCH /api/components/:id`: JSON merge patch of the listed fields; arrays replace. */
export const ComponentPatch = z.strictObject(writable).partial().meta({ id: 'ComponentPatch' })
export type ComponentPatch = z.input<typeof ComponentPatch>
export type ComponentPatchParsed = z.output<typeof ComponentPatch>

/** Columns the list sorts by (decision 0443); `-` before one sorts descending. */
export const COMPONENT_SORT_FIELDS = ['id', 'name', 'ipn', 'updatedAt', 'createdAt', 'category', 'status', 'manufacturer', 'stock'] as const
export type ComponentSortField = (typeof COMPONENT_SORT_FIELDS)[number]
const SORT_KEYS = [...COMPONENT_SORT_FIELDS, ...COMPONENT_SORT_FIELDS.map((f) => `-${f}` as const)]

/** `parameter:<type name>`, `-` before it for descending: a parameter's value (decision 0443). */
export const PARAMETER_SORT = /^-?parameter:[^\u0000-\u001f]{1,100}$/

export const ComponentSort = z
  .union([z.enum(SORT_KEYS), z.string().regex(PARAMETER_SORT, { error: `a sort is one of ${SORT_KEYS.join(', ')} or parameter:<type name>, with - for descending` })])
  .meta({
    description:
      'A column, `-` before it for descending: `id`, `name`, `ipn`, `updatedAt`, `createdAt`, `category`, `status`, `manufacturer` (the first part number\'s), `stock` (total over locations) or `parameter:<type name>` (numbers by value for a `number` type, else the text). Parts without a category, manufacturer or that parameter come last either way; ties by id.',
  })
export type ComponentSort = z.infer<typeof ComponentSort>

/**
 * One parameter condition of a list query, `Type:min..max` (either bound may be
 * left out, SI prefixes allowed: `Resistance:1k..10k`, `Voltage:50..`) or
 * `Type=value` (the value as text, case-insensitive). Repeat for several; all must hold.
 */
export const ComponentParameterFilter = z.string().trim().min(3).max(300).transform((text, ctx): { type: string; eq?: string; min?: number; max?: number } => {
  const range = /^(.+):([^:]*)\.\.([^:]*)$/.exec(text)
  if (range) {
    const type = range[1]!.trim()
    const out: { type: string; min?: number; max?: number } = { type }
    for (const [bound, raw] of [['min', range[2]!.trim()], ['max', range[3]!.trim()]] as const) {
      if (!raw) continue
      const n = parseSiNumber(raw)
      if (n === null || !Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message: `${JSON.stringify(raw)} is not a number (SI prefixes like 10k or 100n are fine)` })
        return z.NEVER
      }
      out[bound] = n
    }
    if (type && (out.min !== undefined || out.max !== undefined)) return out
  }
  const eq = text.indexOf('=')
  if (eq > 0 && text.slice(0, eq).trim()) return { type: text.slice(0, eq).trim(), eq: text.slice(eq + 1).trim() }
  ctx.addIssue({ code: 'custom', message: 'a parameter condition is Type:min..max (a bound may be left out) or Type=value' })
  return z.NEVER
})
export type ComponentParameterFilter = z.output<typeof ComponentParameterFilter>

/** Which components a list takes by their deletion (decision 0444): live ones (default), both, or the trash only. */
export const DeletedFilter = z.enum(['exclude', 'include', 'only'])
export type DeletedFilter = z.infer<typeof DeletedFilter>

/** The filters of the list, its ids, the side call and the export (decisions 0444, 0620): one schema so they cannot drift. */
export const ComponentFilters = z.object({
  q: z.string().trim().min(1).max(200).optional().meta({ description: 'Text search in name, ipn, description and part numbers: each word of q starts a word of the part (`res 06` finds "Resistor 0603")' }),
  status: z.array(ComponentStatus).or(ComponentStatus.transform((s) => [s])).optional(),
  tag: z.string().trim().min(1).max(64).optional(),
  category: z.string().trim().min(1).max(200).optional().meta({ description: 'A category path; its descendants are included (`Passives` finds `Passives/Resistors/Thick film`)' }),
  manufacturer: z.string().trim().min(1).max(200).optional(),
  symbolId: idSchema('symbol').optional(),
  footprintId: idSchema('footprint').optional(),
  locationId: idSchema('location').optional(),
  updatedSince: Timestamp.optional(),
  parameter: z
    .array(ComponentParameterFilter)
    .max(20)
    .or(ComponentParameterFilter.transform((c) => [c]))
    .optional()
    .meta({ description: 'Parameter conditions, repeated: `Resistance:1k..10k` (a bound may be left out, SI prefixes allowed) or `Package=0603`; all must hold' }),
  deleted: DeletedFilter.optional().meta({ description: '`exclude` (default) lists live components, `include` deleted ones too, `only` the trash; wins over `includeDeleted`' }),
  includeDeleted: QueryBoolean.meta({ description: 'Same as `deleted=include`' }),
})
export type ComponentFilters = z.output<typeof ComponentFilters>

/** Filters of `GET /api/components`; its `limit` goes past a page's 1,000 for a full listing, streamed. */
export const ComponentListQuery = PageQuery.extend({
  limit: z.coerce.number().int().min(1).max(100_000).default(100).meta({ description: 'Items per page (default 100, up to 100000 for a full listing)' }),
  ...ComponentFilters.shape,
  sort: ComponentSort.default('id'),
})
export type ComponentListQuery = z.output<typeof ComponentListQuery>

/**
 * A filtered list counts its matches up to this many and no further: past it,
 * the total says "more than 1,000" (`totalBounded`). Counting every match of
 * a filter that holds for half of a million parts took seconds, on the one
 * thread every request shares, for a figure a person reads as "a lot"
 * (decision 0209); each part counted costs 1–3 µs at a million, so a page
 * that answers in 10 ms counts about a thousand (decision 0212). The
 * unfiltered count stays exact: triggers keep it.
 */
export const COMPONENT_COUNT_BOUND = 1_000

/** Query of `GET /api/components/ids`: the list's filters and sort; `limit` defaults to 100,000, every match of a library (decision 0444). */
export const ComponentIdsQuery = ComponentListQuery.extend({
  limit: z.coerce.number().int().min(1).max(100_000).default(100_000).meta({ description: 'Most ids answered (default and most 100000)' }),
})
export type ComponentIdsQuery = z.output<typeof ComponentIdsQuery>
export const ComponentIds = z
  .object({
    ids: z.array(z.string()),
    total: z.int().meta({ description: 'How many match, all pages together; with `totalBounded`, more than this many match' }),
    totalBounded: z
      .boolean()
      .optional()
      .meta({ description: 'Present and true when the count of a filtered list stopped at 10000: more match. A listing that fits one answer counts them all.' }),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'ComponentIds' })
export type ComponentIds = z.infer<typeof ComponentIds>

/** Most ids one `ids=a,b,…` list takes (a page of the table is fewer). */
export const ID_LIST_MAX = 500

/** Query of `GET /api/components/extras`: `ids` comma-separated. */
export const ComponentExtrasQuery = z.object({
  ids: z
    .string()
    .max(ID_LIST_MAX * 40)
    .transform((s) => [...new Set(s.split(',').map((id) => id.trim()).filter(Boolean))])
    .pipe(z.array(idSchema('component')).min(1).max(ID_LIST_MAX))
    .meta({ description: `Component ids, comma-separated, at most ${ID_LIST_MAX}` }),
})
export type ComponentExtrasQuery = z.input<typeof ComponentExtrasQuery>

/** The image the table shows for a part (decision 0445): its first attachment of kind `image` with stored bytes or a URL. */
export const ComponentImage = z
  .object({
    attachmentId: idSchema('attachment'),
    url: z.string().meta({ description: 'Where the image is: `/api/attachments/{id}/content` for stored bytes, else the attachment\'s own URL' }),
  })
  .meta({ id: 'ComponentImage' })
export type ComponentImage = z.infer<typeof ComponentImage>

/** What the library table shows beside a part's stored view (decisions 0443, 0445): its total stock and its image. */
export const ComponentExtra = z
  .object({ stock: z.int().meta({ description: 'Total quantity over all locations' }), image: ComponentImage.nullable() })
  .meta({ id: 'ComponentExtra' })
export type ComponentExtra = z.infer<typeof ComponentExtra>
export const ComponentExtras = z.record(z.string(), ComponentExtra).meta({ id: 'ComponentExtras', description: 'By component id; unknown ids are left out' })
export type ComponentExtras = z.infer<typeof ComponentExtras>

/** Query of `GET /api/exports/components`: the list's filters (decision 0620), so a file holds exactly the rows the table lists. */
export const ComponentExportQuery = ComponentFilters.extend({ format: z.enum(['csv', 'json']).default('json') })
export type ComponentExportQuery = z.output<typeof ComponentExportQuery>

/** Most ids `POST /api/exports/components` takes: every component of a library the list serves. */
export const EXPORT_IDS_MAX = 100_000

/** Body of `POST /api/exports/components`: exactly these components (deleted ones too), in this order. */
export const ComponentExportRequest = z
  .strictObject({
    format: z.enum(['csv', 'json']).default('json'),
    ids: z.array(idSchema('component')).min(1).max(EXPORT_IDS_MAX).meta({ description: `Component ids, at most ${EXPORT_IDS_MAX}; unknown ones are left out` }),
  })
  .meta({ id: 'ComponentExportRequest' })
export type ComponentExportRequest = z.input<typeof ComponentExportRequest>

/** One entry of a component's history: the full record after each change. */
export const ComponentHistoryEntry = z
  .object({
    seq: z.int(),
    componentId: idSchema('component'),
    version: z.int(),
    op: z.enum(['create', 'update', 'delete', 'restore']),
    at: Timestamp,
    changes: z.array(z.string()).meta({ description: 'Names of the fields that changed' }),
    snapshot: Component,
    actor: Actor.nullable().meta({ description: 'Who made the change; null for changes made before accounts were recorded' }),
    channel: Channel.nullable(),
    comment: z.string().nullable().meta({ description: 'The comment sent with the write (`Complib-Comment`)' }),
    revertedTo: z.int().nullable().meta({ description: 'Set when this version restored an older one' }),
  })
  .meta({ id: 'ComponentHistoryEntry' })
export type ComponentHistoryEntry = z.infer<typeof ComponentHistoryEntry>

/** One entry of the change feed (`GET /api/components/changes`). */
export const ComponentChange = z
  .object({
    seq: z.int().meta({ description: 'Monotonic; pass the last one seen as `since`' }),
    componentId: idSchema('component'),
    op: z.enum(['create', 'update', 'delete', 'restore', 'purge']),
    version: z.int(),
    at: Timestamp,
  })
  .meta({ id: 'ComponentChange' })
export type ComponentChange = z.infer<typeof ComponentChange>

/** Query of `GET /api/components/:id`. */
export const ComponentGetQuery = z.object({ includeDeleted: QueryBoolean })
export type ComponentGetQuery = z.input<typeof ComponentGetQuery>

/** Query of `GET /api/components/next-ipn`. */
export const NextIpnQuery = z.object({
  prefix: z.string().trim().min(1).max(32).regex(/^[^\s/?#]+$/, { error: 'a prefix has no spaces, slashes, ? or #' }).optional(),
})
export type NextIpnQuery = z.input<typeof NextIpnQuery>
export const NextIpn = z.object({ ipn: z.string() }).meta({ id: 'NextIpn' })
export type NextIpn = z.infer<typeof NextIpn>

/** Query of `GET /api/components/changes`. */
export const ComponentChangesQuery = z.object({
  since: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(10_000).default(1000),
})
export type ComponentChangesQuery = z.input<typeof ComponentChangesQuery>
export const ComponentChanges = z.object({ changes: z.array(ComponentChange), lastSeq: z.int() }).meta({ id: 'ComponentChanges' })
export type ComponentChanges = z.infer<typeof ComponentChanges>

/** Body of `POST /api/components/:id/duplicate`. */
export const ComponentDuplicate = z.strictObject({ name: z.string().trim().min(1).max(200).optional(), ipn: Ipn.optional() }).meta({ id: 'ComponentDuplicate' })
export type ComponentDuplicate = z.input<typeof ComponentDuplicate>

/** Body of `POST /api/components/:id/revert`. */
export const ComponentRevert = z.strictObject({ version: z.int().min(1).meta({ description: 'The version to make again (see the history)' }) }).meta({ id: 'ComponentRevert' })
export type ComponentRevert = z.infer<typeof ComponentRevert>
