import * as z from 'zod'
import { idSchema } from '../ids'
import { PageQuery, identifierSchema, recordFields } from './common'

export const Manufacturer = z
  .object({
    id: idSchema('manufacturer'),
    name: z.string(),
    website: z.string().nullable(),
    aliases: z.array(z.string()),
    partCount: z.int().meta({ description: 'MPNs of non-deleted components made by this manufacturer' }),
    ...recordFields,
  })
  .meta({ id: 'Manufacturer' })
export type Manufacturer = z.infer<typeof Manufacturer>

const writable = {
  name: identifierSchema(200),
  website: z.url({ protocol: /^https?$/ }).max(2000).nullable(),
  aliases: z.array(identifierSchema(200)).max(50),
}
export const ManufacturerCreate = z
  .strictObject({ name: writable.name, website: writable.website.optional(), aliases: writable.aliases.optional() })
  .meta({ id: 'ManufacturerCreate' })
export type ManufacturerCreate = z.input<typeof ManufacturerCreate>
export const ManufacturerPatch = z.strictObject(writable).partial().meta({ id: 'ManufacturerPatch' })
export type ManufacturerPatch = z.input<typeof ManufacturerPatch>

/** Body of `POST /api/manufacturers/:id/merge`: the others are folded into `:id` and deleted. */
export const ManufacturerMerge = z
  .strictObject({ sourceIds: z.array(idSchema('manufacturer')).min(1).max(100) })
  .meta({ id: 'ManufacturerMerge' })
export type ManufacturerMerge = z.input<typeof ManufacturerMerge>

/** Query of `GET /api/manufacturers`. */
export const ManufacturerListQuery = PageQuery.extend({ q: z.string().trim().min(1).max(200).optional() })
export type ManufacturerListQuery = z.output<typeof ManufacturerListQuery>
