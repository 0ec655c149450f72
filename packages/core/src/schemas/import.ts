import * as z from 'zod'
import { PageQuery, QueryBoolean } from './common'

/**
 * What a column of an import becomes. `parameter` makes the column a parameter
 * named after it (a header `Capacitance [µF]` gives the unit); `parameterUnit`
 * (a column `<X> unit`) is the unit of parameter column `<X>`. Several
 * `manufacturer`/`partNumber` columns pair up in order, one MPN each. The list
 * targets (`tags`, `mpns`, `parameters`, `symbols`, `footprints`, `stock`,
 * `attachments`) read a JSON file's lists, a CSV cell's `; `-separated items,
 * or flattened columns (`parameters.0.name`). The KiCad flags
 * (`excludeFromBom`, `excludeFromBoard`, `excludeFromSim`) read `true`/`false`,
 * `yes`/`no`, `1`/`0`. Decisions 0601 and 0632.
 *
 * A peer's export names records by its own keys (decision 0640):
 * `sourceKey` is the row's own key there (InvenTree's part `ID`, Part-DB's
 * `id`), kept as the component's external reference under the session's
 * `source`; `partKey` names the part a row belongs to by that key (InvenTree's
 * manufacturer-part and supplier-part exports): the row updates that part and
 * never creates one, and a key the library does not hold is a row error;
 * `manufacturerKey` names the MPN's manufacturer by the peer's company key,
 * resolved by a company export imported before or after. `offers` (a list of
 * SupplierOffer) are the supplier offers a peer holds for the row's part: kept
 * under the session's `source`, replacing what that source gave before, and
 * only on rows with a `sourceKey` (decision 1609).
 */
export const ImportTarget = z.enum([
  'name',
  'ipn',
  'description',
  'status',
  'category',
  'tags',
  'manufacturer',
  'partNumber',
  'mpns',
  'parameter',
  'parameterUnit',
  'parameters',
  'symbols',
  'footprints',
  'stock',
  'location',
  'quantity',
  'datasheet',
  'attachments',
  'kicadValue',
  'excludeFromBom',
  'excludeFromBoard',
  'excludeFromSim',
  'offers',
  'sourceKey',
  'partKey',
  'manufacturerKey',
  'ignore',
])
export type ImportTarget = z.infer<typeof ImportTarget>

/** How an imported row finds the component it updates. */
export const UpsertKey = z.enum(['ipn', 'mpn', 'name'])
export type UpsertKey = z.infer<typeof UpsertKey>

/** Query of `POST /api/imports` (the body is the file). */
export const ImportCreateQuery = z.object({
  format: z.enum(['csv', 'json']).optional(),
  name: z.string().max(255).optional(),
  upsertKey: UpsertKey.default('ipn'),
  source: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,59}$/, { error: 'a source is lower-case letters, digits, `.`, `_` or `-`, at most 60' })
    .optional()
    .meta({ description: 'Whose keys the file\'s key columns hold (decision 0640); default: the recognised peer (`inventree`, `partdb`). Name one per server when importing from two of the same kind' }),
})
export type ImportCreateQuery = z.input<typeof ImportCreateQuery>

/** A field of a component that an import can set; the per-field summary and a row's changes name these. */
export const ImportField = z.enum([
  'name',
  'ipn',
  'description',
  'status',
  'category',
  'tags',
  'parameters',
  'mpns',
  'symbols',
  'footprints',
  'stock',
  'attachments',
  'kicadValue',
  'excludeFromBom',
  'excludeFromBoard',
  'excludeFromSim',
  'offers',
])
export type ImportField = z.infer<typeof ImportField>

/** What committing does with a row: `unchanged` is an update whose every value equals the stored one (the commit leaves it alone). */
export const ImportOutcome = z.enum(['create', 'update', 'unchanged', 'invalid'])
export type ImportOutcome = z.infer<typeof ImportOutcome>

/** How many parts the commit gives a field (create), changes it on (update), and leaves it as stored on (unchanged). */
export const ImportFieldCounts = z
  .object({
    create: z.int().meta({ description: 'New parts that get a value for the field from the file' }),
    update: z.int().meta({ description: 'Existing parts whose value changes' }),
    unchanged: z.int().meta({ description: 'Existing parts that keep their value: the file gives the same one, or none' }),
  })
  .meta({ id: 'ImportFieldCounts' })
export type ImportFieldCounts = z.infer<typeof ImportFieldCounts>

/** The per-field summary of an import: one entry per ImportField. */
export const ImportFieldSummary = z
  .object(Object.fromEntries(ImportField.options.map((f) => [f, ImportFieldCounts])) as Record<ImportField, typeof ImportFieldCounts>)
  .meta({ id: 'ImportFieldSummary', description: 'For each field, how many parts the commit creates it on, changes it on, and leaves it alone on (counted per part: rows of one part count once)' })
export type ImportFieldSummary = z.infer<typeof ImportFieldSummary>

/** Query of `GET /api/imports/:id/rows`. */
export const ImportRowsQuery = PageQuery.extend({
  limit: z.coerce.number().int().min(1).max(1000).default(100).meta({ description: 'Rows per page (default 100, at most 1000: every row of an import)' }),
  outcome: ImportOutcome.optional().meta({ description: 'Only rows with this outcome' }),
})
export type ImportRowsQuery = z.input<typeof ImportRowsQuery>

/** One row of an imported file and what committing does with it. */
export const ImportRowOutcome = z
  .object({
    row: z.int().meta({ description: 'Row number as a spreadsheet shows it (the first row after the header is 2; the first object of a JSON file is 2)' }),
    outcome: ImportOutcome,
    rows: z.array(z.int()).meta({ description: 'Every row of the file that makes up the same part (rows with the same upsert key merge), this one included' }),
    componentId: z.string().nullable().meta({ description: 'The component updated, or created once committed; null before' }),
    ipn: z.string().nullable().meta({ description: 'Its ipn, when known (a created part without one gets it at commit)' }),
    name: z.string().nullable(),
    errors: z.array(
      z.object({
        field: z.string().meta({ description: 'The field (or `field.index.key`) the error is about; `(row)` for the row as a whole' }),
        column: z.string().nullable().meta({ description: 'The column of the file it comes from, when one is known' }),
        message: z.string(),
      }),
    ),
    changes: z
      .array(z.object({ field: ImportField, before: z.unknown(), after: z.unknown() }))
      .meta({ description: 'For an update, each field that changes, with the stored value and the value after the commit' }),
  })
  .meta({ id: 'ImportRowOutcome' })
export type ImportRowOutcome = z.infer<typeof ImportRowOutcome>

/**
 * Where a session is: `planning` (a large file being read and planned, as a
 * job), `pending` (planned: it can be changed or committed), `committing`
 * (applied chunk by chunk, as a job), `committed`, or `failed` (a commit that
 * failed and was undone; it can be committed again). Decision 0616.
 */
export const ImportStatus = z.enum(['planning', 'pending', 'committing', 'committed', 'failed'])
export type ImportStatus = z.infer<typeof ImportStatus>

/** How far a job of a large import is: rows read, planned or applied of `total`. */
export const ImportProgress = z
  .object({
    phase: z.enum(['pulling', 'reading', 'planning', 'committing', 'undoing']).meta({ description: '`pulling`: a pull reads the parts from the peer (decision 1609); `reading`: a large file\'s rows are stored' }),
    done: z.int(),
    total: z.int(),
  })
  .meta({ id: 'ImportProgress' })
export type ImportProgress = z.infer<typeof ImportProgress>

/** A mapping that imports, but probably not as meant (decision 0617). */
export const ImportWarning = z
  .object({ column: z.string().nullable().meta({ description: 'The column it is about; null for the mapping as a whole' }), message: z.string() })
  .meta({ id: 'ImportWarning' })
export type ImportWarning = z.infer<typeof ImportWarning>

/** An uploaded file, how its columns map to component fields, and what committing would do. */
export const ImportSession = z
  .object({
    id: z.string(),
    status: ImportStatus,
    progress: ImportProgress.nullable().meta({ description: 'While a large file is planned or committed as a job: how far it is; null otherwise' }),
    failure: z.string().nullable().meta({ description: 'Why the last commit failed (status `failed`): nothing of it was applied' }),
    warnings: z.array(ImportWarning).meta({ description: 'What looks wrong in the mapping: it still imports, but probably not as meant' }),
    format: z.enum(['csv', 'json']),
    fileName: z.string().nullable(),
    rowCount: z.int(),
    encoding: z.string().meta({ description: 'How the file was read: `utf-8`, `utf-16le`, `utf-16be` or `windows-1252`' }),
    delimiter: z.string().nullable().meta({ description: 'The CSV delimiter found in the header row (`,` `;` or a tab); null for JSON' }),
    preset: z.string().meta({ description: 'Which known format the columns were recognised as (`complib`, `inventree-parts`, `inventree-manufacturer-parts`, `inventree-supplier-parts`, `inventree-companies`, `partdb`, `spreadsheet`), or `pull` for a pull from a peer (`POST /api/sources/{id}/pulls`); it proposed the mapping' }),
    source: z.string().nullable().meta({ description: 'Whose keys the key columns (`sourceKey`, `partKey`, `manufacturerKey`) hold; null when the file is no peer\'s' }),
    columns: z.array(z.string()),
    unknownColumns: z
      .array(z.string())
      .meta({ description: 'Columns the preset does not know: a peer\'s preset maps them to `ignore` (change the mapping to keep one), a plain spreadsheet to `parameter`' }),
    mapping: z.record(z.string(), ImportTarget),
    upsertKey: UpsertKey,
    summary: z
      .object({ create: z.int(), update: z.int(), unchanged: z.int(), invalid: z.int() })
      .meta({ description: 'Parts the commit creates, changes, finds already as the file says (left alone), and rows that are invalid' }),
    fieldSummary: ImportFieldSummary,
    preview: z.array(
      z.object({
        row: z.int(),
        rows: z.array(z.int()).optional().meta({ description: 'Every row of the file merged into this component (rows with the same upsert key are one part)' }),
        action: z.enum(['create', 'update']),
        componentId: z.string().nullable(),
        input: z.record(z.string(), z.unknown()),
      }),
    ),
    errors: z.array(z.object({ row: z.int(), path: z.string(), message: z.string() })),
    result: z.object({ created: z.int(), updated: z.int(), unchanged: z.int() }).nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.int(),
  })
  .meta({ id: 'ImportSession', description: 'An uploaded file, how its columns map to component fields, and what committing would do' })
export type ImportSession = z.infer<typeof ImportSession>

/** Body of `PATCH /api/imports/:id`: the preview is recomputed. */
export const ImportPatch = z.strictObject({ mapping: z.record(z.string(), ImportTarget).optional(), upsertKey: UpsertKey.optional() }).meta({ id: 'ImportPatch' })
export type ImportPatch = z.input<typeof ImportPatch>

/** Query of `GET /api/exports/components`. */
export const ExportQuery = z.object({ format: z.enum(['csv', 'json']).default('json'), includeDeleted: QueryBoolean })
export type ExportQuery = z.output<typeof ExportQuery>
