import * as z from 'zod'
import { QueryBoolean } from './common'

/**
 * What a column of an import becomes. `parameter` makes the column a parameter
 * named after it (a header `Capacitance [µF]` gives the unit); `parameterUnit`
 * (a column `<X> unit`) is the unit of parameter column `<X>`. Several
 * `manufacturer`/`partNumber` columns pair up in order, one MPN each. The list
 * targets (`tags`, `mpns`, `parameters`, `symbols`, `footprints`, `stock`,
 * `attachments`) read a JSON file's lists, a CSV cell's `; `-separated items,
 * or flattened columns (`parameters.0.name`). docs/decisions.md, "Imports".
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
  'ignore',
])
export type ImportTarget = z.infer<typeof ImportTarget>

/** How an imported row finds the component it updates. */
export const UpsertKey = z.enum(['ipn', 'mpn', 'name'])
export type UpsertKey = z.infer<typeof UpsertKey>

/** Query of `POST /api/imports` (the body is the file). */
export const ImportCreateQuery = z.object({ format: z.enum(['csv', 'json']).optional(), name: z.string().max(255).optional(), upsertKey: UpsertKey.default('ipn') })
export type ImportCreateQuery = z.input<typeof ImportCreateQuery>

/** An uploaded file, how its columns map to component fields, and what committing would do. */
export const ImportSession = z
  .object({
    id: z.string(),
    status: z.enum(['pending', 'committed']),
    format: z.enum(['csv', 'json']),
    fileName: z.string().nullable(),
    rowCount: z.int(),
    encoding: z.string().meta({ description: 'How the file was read: `utf-8`, `utf-16le`, `utf-16be` or `windows-1252`' }),
    delimiter: z.string().nullable().meta({ description: 'The CSV delimiter found in the header row (`,` `;` or a tab); null for JSON' }),
    preset: z.string().meta({ description: 'Which known format the columns were recognised as (`complib`, `inventree-parts`, `inventree-manufacturer-parts`, `inventree-supplier-parts`, `partdb`, `spreadsheet`); it proposed the mapping' }),
    columns: z.array(z.string()),
    mapping: z.record(z.string(), ImportTarget),
    upsertKey: UpsertKey,
    summary: z.object({ create: z.int(), update: z.int(), invalid: z.int() }),
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
    result: z.object({ created: z.int(), updated: z.int() }).nullable(),
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
