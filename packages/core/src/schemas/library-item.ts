import * as z from 'zod'
import { idSchema } from '../ids'
import { Description, Name, PageQuery, recordFields } from './common'

/**
 * Symbols and footprints share one shape: a named entry of a CAD library
 * (`library:name` is how KiCad refers to it), with an optional file body
 * (a `.kicad_sym` / `.kicad_mod` text, up to 4 MiB) served by `GET …/:id/file`.
 */
function defineLibraryItem(kind: 'symbol' | 'footprint', title: 'Symbol' | 'Footprint') {
  const record = z
    .object({
      id: idSchema(kind),
      name: z.string(),
      library: z.string().nullable().meta({ description: 'CAD library nickname, e.g. `Device`' }),
      description: z.string().nullable(),
      fileName: z.string().nullable(),
      fileSize: z.int().nullable(),
      ...recordFields,
    })
    .meta({ id: title })

  const writable = {
    name: Name,
    // KiCad's LIB_ID reads a reference as `Library:Name`, split at the first `:`: a library without one.
    library: z.string().trim().min(1).max(200).regex(/^[^:]+$/, { error: 'a library nickname has no `:`' }),
    description: Description,
    fileName: z.string().trim().min(1).max(255).regex(/^[^/\\\0]+$/, { error: 'a file name has no slashes' }).nullable(),
    content: z.string().max(4 * 1024 * 1024).nullable().meta({ description: 'File body as text' }),
  }
  // A reference KiCad cannot use (`LM358`, no library) is refused on write, not sent to KiCad (decision 0630).
  const create = z
    .strictObject({
      name: writable.name,
      library: writable.library.optional().meta({ description: 'CAD library nickname, e.g. `Device`; may be left out when `name` is `Library:Name`' }),
      description: writable.description.optional(),
      fileName: writable.fileName.optional(),
      content: writable.content.optional(),
    })
    .superRefine((v, ctx) => {
      if (v.library === undefined && !/^[^:]+:.+$/.test(v.name)) ctx.addIssue({ code: 'custom', path: ['library'], message: 'KiCad refers to a symbol or footprint as Library:Name: give `library`, or `name` as Library:Name' })
    })
    .transform((v) => {
      if (v.library !== undefined) return v
      const at = v.name.indexOf(':')
      return { ...v, library: v.name.slice(0, at).trim(), name: v.name.slice(at + 1).trim() }
    })
    .meta({ id: `${title}Create` })
  const patch = z.strictObject(writable).partial().meta({ id: `${title}Patch` })
  return { record, create, patch }
}

const symbol = defineLibraryItem('symbol', 'Symbol')
export const Symbol = symbol.record
export const SymbolCreate = symbol.create
export const SymbolPatch = symbol.patch
export type Symbol = z.infer<typeof Symbol>
export type SymbolCreate = z.input<typeof SymbolCreate>
export type SymbolPatch = z.input<typeof SymbolPatch>

const footprint = defineLibraryItem('footprint', 'Footprint')
export const Footprint = footprint.record
export const FootprintCreate = footprint.create
export const FootprintPatch = footprint.patch
export type Footprint = z.infer<typeof Footprint>
export type FootprintCreate = z.input<typeof FootprintCreate>
export type FootprintPatch = z.input<typeof FootprintPatch>

/** What symbols and footprints have in common, for code that serves both. */
export type LibraryItem = Symbol | Footprint
export type LibraryItemCreate = Omit<z.output<typeof SymbolCreate>, 'library'> & { library?: string | null | undefined }
// The storage contract still takes a symbol without a library (rows written before KiCad references were checked); the API refuses one.
export type LibraryItemPatch = Omit<z.output<typeof SymbolPatch>, 'library'> & { library?: string | null | undefined }

/** Query of `GET /api/symbols` and `GET /api/footprints`. */
export const LibraryItemListQuery = PageQuery.extend({ q: z.string().trim().min(1).max(200).optional(), library: z.string().trim().min(1).max(200).optional() })
export type LibraryItemListQuery = z.output<typeof LibraryItemListQuery>
