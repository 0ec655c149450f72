import * as z from 'zod'
import { idSchema } from '../ids'
import { Description, PageQuery, recordFields } from './common'
import { TagName } from './component'

export const Tag = z
  .object({
    id: idSchema('tag'),
    name: z.string(),
    color: z.string().nullable(),
    description: z.string().nullable(),
    count: z.int().meta({ description: 'Non-deleted components carrying the tag' }),
    ...recordFields,
  })
  .meta({ id: 'Tag' })
export type Tag = z.infer<typeof Tag>

const writable = {
  name: TagName,
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, { error: 'a color is #rrggbb' }).nullable(),
  description: Description,
}
export const TagCreate = z
  .strictObject({ name: writable.name, color: writable.color.optional(), description: writable.description.optional() })
  .meta({ id: 'TagCreate' })
export type TagCreate = z.input<typeof TagCreate>
export const TagPatch = z.strictObject(writable).partial().meta({ id: 'TagPatch' })
export type TagPatch = z.input<typeof TagPatch>
export const TagMerge = z.strictObject({ sourceIds: z.array(idSchema('tag')).min(1).max(100) }).meta({ id: 'TagMerge' })
export type TagMerge = z.input<typeof TagMerge>

/** Query of `GET /api/tags`. */
export const TagListQuery = PageQuery.extend({ q: z.string().trim().min(1).max(64).optional() })
export type TagListQuery = z.output<typeof TagListQuery>
