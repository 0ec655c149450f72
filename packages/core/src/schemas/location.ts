import * as z from 'zod'
import { idSchema } from '../ids'
import { Description, PageQuery, Timestamp, identifierSchema, recordFields } from './common'

/** A stock location; locations nest (`parentId`), `path` is the names from the root, joined by ` / `. */
export const Location = z
  .object({
    id: idSchema('location'),
    name: z.string(),
    parentId: idSchema('location').nullable(),
    path: z.string(),
    description: z.string().nullable(),
    ...recordFields,
  })
  .meta({ id: 'Location' })
export type Location = z.infer<typeof Location>

export type LocationTreeNode = Location & { children: LocationTreeNode[] }
export const LocationTreeNode: z.ZodType<LocationTreeNode> = Location.extend({
  get children() {
    return z.array(LocationTreeNode)
  },
}).meta({ id: 'LocationTreeNode' })

const writable = { name: identifierSchema(200), parentId: idSchema('location').nullable(), description: Description }
export const LocationCreate = z
  .strictObject({ name: writable.name, parentId: writable.parentId.optional(), description: writable.description.optional() })
  .meta({ id: 'LocationCreate' })
export type LocationCreate = z.input<typeof LocationCreate>
export const LocationPatch = z.strictObject(writable).partial().meta({ id: 'LocationPatch' })
export type LocationPatch = z.input<typeof LocationPatch>

/** How many of one component sit in one location (`GET /api/components/:id/locations`). */
export const StockEntry = z
  .object({
    componentId: idSchema('component'),
    locationId: idSchema('location'),
    locationName: z.string(),
    path: z.string(),
    quantity: z.int().min(0),
    updatedAt: Timestamp,
  })
  .meta({ id: 'StockEntry' })
export type StockEntry = z.infer<typeof StockEntry>

const Quantity = z.int().min(0).max(1_000_000_000)
export const StockSet = z.strictObject({ quantity: Quantity }).meta({ id: 'StockSet' })
export type StockSet = z.input<typeof StockSet>

/** Body of `POST /api/stock/adjust`: add (or, negative, take) `delta`; stock never goes below zero. */
export const StockAdjust = z
  .strictObject({
    componentId: idSchema('component'),
    locationId: idSchema('location'),
    delta: z.int().min(-1_000_000_000).max(1_000_000_000).refine((n) => n !== 0, { error: 'delta cannot be 0' }),
    reason: z.string().max(500).optional(),
  })
  .meta({ id: 'StockAdjust' })
export type StockAdjust = z.input<typeof StockAdjust>

/** Body of `POST /api/stock/move`. */
export const StockMove = z
  .strictObject({
    componentId: idSchema('component'),
    fromLocationId: idSchema('location'),
    toLocationId: idSchema('location'),
    quantity: Quantity.refine((n) => n > 0, { error: 'quantity must be at least 1' }),
  })
  .refine((b) => b.fromLocationId !== b.toLocationId, { error: 'from and to are the same location', path: ['toLocationId'] })
  .meta({ id: 'StockMove' })
export type StockMove = z.input<typeof StockMove>

/** Query of `GET /api/locations`: `parentId=root` lists the top level, a location id its children. */
export const LocationListQuery = PageQuery.extend({
  q: z.string().trim().min(1).max(200).optional(),
  parentId: z.union([z.literal('root'), idSchema('location')]).optional(),
})
export type LocationListQuery = z.output<typeof LocationListQuery>

/** `POST /api/stock/move`: both entries after the move. */
export const StockMoveResult = z.object({ from: StockEntry, to: StockEntry }).meta({ id: 'StockMoveResult' })
export type StockMoveResult = z.infer<typeof StockMoveResult>
