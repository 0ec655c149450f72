import * as z from 'zod'
import { idSchema } from '../ids'
import { PageQuery, identifierSchema, recordFields } from './common'

/** A manufacturer part number of one component, as its own record. */
export const Mpn = z
  .object({
    id: idSchema('mpn'),
    componentId: idSchema('component'),
    manufacturerId: idSchema('manufacturer'),
    manufacturer: z.string(),
    partNumber: z.string(),
    ...recordFields,
  })
  .meta({ id: 'Mpn' })
export type Mpn = z.infer<typeof Mpn>

const manufacturer = identifierSchema(200).meta({ description: 'Manufacturer name (created when new)' })
const partNumber = z.string().trim().min(1).max(200)
/** A manufacturer looked up, never created: compared by foldKey, so nothing is refused. */
const manufacturerQuery = z.string().trim().min(1).max(200)

export const MpnCreate = z.strictObject({ manufacturer, partNumber }).meta({ id: 'MpnCreate' })
export type MpnCreate = z.input<typeof MpnCreate>
export const MpnPatch = z.strictObject({ manufacturer, partNumber }).partial().meta({ id: 'MpnPatch' })
export type MpnPatch = z.input<typeof MpnPatch>

/** Body of `POST /api/mpns/resolve`: a BOM's part numbers, answered in the same order. */
export const MpnResolveRequest = z
  .strictObject({
    items: z
      .array(z.strictObject({ partNumber, manufacturer: manufacturerQuery.optional() }))
      .min(1)
      .max(5000),
  })
  .meta({ id: 'MpnResolveRequest' })
export type MpnResolveRequest = z.input<typeof MpnResolveRequest>

export const MpnResolveResult = z
  .object({
    partNumber: z.string(),
    manufacturer: z.string().nullable(),
    matches: z.array(z.object({ componentId: z.string(), ipn: z.string(), name: z.string(), manufacturer: z.string(), partNumber: z.string() })),
  })
  .meta({ id: 'MpnResolveResult' })
export type MpnResolveResult = z.infer<typeof MpnResolveResult>

/** Query of `GET /api/mpns`. */
export const MpnListQuery = PageQuery.extend({ q: z.string().trim().min(1).max(200).optional(), manufacturerId: idSchema('manufacturer').optional() })
export type MpnListQuery = z.output<typeof MpnListQuery>
