import * as z from 'zod'
import { idSchema } from '../ids'
import { PageQuery, recordFields } from './common'

export const AttachmentKind = z.enum(['datasheet', 'image', 'cad', 'document', 'other'])
export type AttachmentKind = z.infer<typeof AttachmentKind>

/** A file name as stored: no path separators, no NUL, no leading dot-dot tricks. */
export const FileName = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[^/\\\0]+$/, { error: 'a file name has no slashes or NUL' })
  .refine((s) => s !== '.' && s !== '..', { error: 'a file name cannot be . or ..' })

/**
 * A file linked to a component (or not yet linked). Either its bytes are
 * stored in the data folder (`sha256`, `size` set) or it records an external
 * `url` (for example a manufacturer's datasheet link).
 */
export const Attachment = z
  .object({
    id: idSchema('attachment'),
    componentId: idSchema('component').nullable(),
    name: z.string(),
    kind: AttachmentKind,
    contentType: z.string(),
    size: z.int().nullable(),
    sha256: z.string().nullable(),
    url: z.string().nullable(),
    ...recordFields,
  })
  .meta({ id: 'Attachment' })
export type Attachment = z.infer<typeof Attachment>

/** Metadata given with an upload (query parameters of `POST /api/attachments`). */
export const AttachmentUploadMeta = z.object({
  componentId: idSchema('component').optional(),
  name: FileName.optional(),
  kind: AttachmentKind.optional(),
})

/** Body of `POST /api/attachments/from-url`. */
export const AttachmentFromUrl = z
  .strictObject({
    url: z.url({ protocol: /^https?$/ }).max(2000),
    name: FileName.optional(),
    componentId: idSchema('component').nullable().optional(),
    kind: AttachmentKind.optional(),
    contentType: z.string().max(200).optional(),
  })
  .meta({ id: 'AttachmentFromUrl' })
export type AttachmentFromUrl = z.input<typeof AttachmentFromUrl>

export const AttachmentPatch = z
  .strictObject({
    name: FileName,
    kind: AttachmentKind,
    componentId: idSchema('component').nullable(),
  })
  .partial()
  .meta({ id: 'AttachmentPatch' })
export type AttachmentPatch = z.input<typeof AttachmentPatch>

/** Query of `GET /api/attachments`. */
export const AttachmentListQuery = PageQuery.extend({ componentId: idSchema('component').optional(), kind: AttachmentKind.optional() })
export type AttachmentListQuery = z.output<typeof AttachmentListQuery>
