import * as z from 'zod'
import { ComponentStatus } from '../status'
import { Timestamp } from './common'
import { UpsertKey } from './import'
import { SourceParameter, SupplierOffer } from './source'

/**
 * One part of a peer's library (InvenTree, Part-DB) as its source type reads
 * it for a pull (decision 1609): everything the library can hold of it, in
 * the library's terms, keyed by the peer's own primary key. A pull turns each
 * into one import row (`sourceKey` = `key`), so a second pull finds the
 * components the first made by their external references.
 */
export const PeerPart = z
  .object({
    key: z.string().trim().min(1).max(100).meta({ description: "The part's primary key at the peer, as text", example: '417' }),
    name: z.string().trim().min(1).max(200),
    ipn: z.string().trim().min(1).max(100).nullable(),
    description: z.string().max(10_000).nullable(),
    categoryPath: z.array(z.string().trim().min(1).max(200)).max(20).meta({ description: "The peer's category, broadest first; empty: none" }),
    tags: z.array(z.string().trim().min(1).max(100)).max(100),
    status: ComponentStatus.nullable().meta({ description: "The peer's lifecycle in the library's statuses; null: the peer says nothing usable" }),
    parameters: z.array(SourceParameter).max(500),
    mpns: z.array(z.object({ manufacturer: z.string().trim().min(1).max(200), partNumber: z.string().trim().min(1).max(200) })).max(50),
    offers: z.array(SupplierOffer).max(50).meta({ description: "The peer's supplier parts: supplier, SKU, link, prices as the peer holds them" }),
    stock: z
      .array(z.object({ path: z.array(z.string().trim().min(1).max(200)).min(1).max(20), quantity: z.int().min(0).max(1_000_000_000) }))
      .max(500)
      .meta({ description: 'Stock per storage location, the location as its path of names from the root (the same location twice adds up)' }),
    attachments: z
      .array(z.object({ name: z.string().trim().min(1).max(255), url: z.string().max(2000), kind: z.enum(['datasheet', 'image', 'cad', 'document', 'other']) }))
      .max(100)
      .meta({ description: "Links to the part's files at the peer (or where the peer links to)" }),
    kicad: z
      .object({
        symbol: z.string().max(300).nullable().meta({ description: '`Library:Name`' }),
        footprint: z.string().max(300).nullable().meta({ description: '`Library:Name`' }),
        value: z.string().max(200).nullable(),
        excludeFromBom: z.boolean().nullable(),
        excludeFromBoard: z.boolean().nullable(),
        excludeFromSim: z.boolean().nullable(),
      })
      .meta({ description: 'KiCad fields where the peer keeps them; null: not set there' }),
    modifiedAt: Timestamp.nullable().meta({ description: "When the peer last changed the part, where it says so" }),
  })
  .meta({ id: 'PeerPart' })
export type PeerPart = z.infer<typeof PeerPart>

/** Body of `POST /api/sources/{id}/pulls`. */
export const SourcePullCreate = z
  .strictObject({
    upsertKey: UpsertKey.default('ipn').meta({
      description: "How a peer part the library holds no reference for yet finds its component (a library imported from the peer's files before): by `ipn` (default), `mpn` or `name`",
    }),
  })
  .meta({ id: 'SourcePullCreate' })
export type SourcePullCreate = z.input<typeof SourcePullCreate>
