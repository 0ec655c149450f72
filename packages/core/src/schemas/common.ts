import * as z from 'zod'
import { findRefusedCharacter } from '../identifiers'

/** An ISO 8601 timestamp in UTC, e.g. `2026-11-23T06:18:00.000Z`. */
export const Timestamp = z.iso.datetime().meta({ example: '2026-11-23T06:18:00.000Z' })

/** Fields every stored record has. `version` starts at 1, bumps on every change, and is the ETag. */
export const recordFields = {
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: z.int().min(1).meta({ description: 'Bumps on every change; sent as the ETag' }),
}

/** `{ id, name }` of a linked record, as embedded in a component. */
export const LinkSummary = z.object({ id: z.string(), name: z.string() }).meta({ id: 'LinkSummary' })
export type LinkSummary = z.infer<typeof LinkSummary>

/** A short single-line name. */
export const Name = z.string().trim().min(1).max(200)
/**
 * An identifier: an ipn or the unique name of a tag, manufacturer (and
 * alias), location or parameter type. Stored as typed after NFC and trimming;
 * invisible and bidirectional control characters are refused, naming the
 * character. Compared with foldKey (decisions 0420 and 0421).
 *
 * @example
 * const TagName = identifierSchema(64)
 */
export function identifierSchema(max: number) {
  return z
    .string()
    .normalize('NFC')
    .trim()
    .min(1)
    .max(max)
    .check((ctx) => {
      const refused = findRefusedCharacter(ctx.value)
      if (refused) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message: `contains ${refused}, an invisible or bidirectional control character`,
        })
      }
    })
}

/** Free text, may be absent or null. */
export const Description = z.string().max(10_000).nullable()

/** `true`/`false`/`1`/`0` in a query string. */
export const QueryBoolean = z.stringbool().default(false)

/**
 * `limit` and `cursor` of every list route. A page holds at most 1,000 items,
 * in the schema each route publishes, so a larger `limit` is a 400 naming
 * `query.limit` rather than a shorter page than asked; the components list
 * alone widens it for a full listing, ComponentListQuery (decision 0502).
 */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100).meta({ description: 'Items per page (default 100, at most 1000)' }),
  cursor: z.string().min(1).max(500).optional().meta({ description: 'Opaque cursor from the `Link: rel="next"` header' }),
})
export type PageQuery = z.infer<typeof PageQuery>
