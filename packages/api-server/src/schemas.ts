import * as z from 'zod'

/**
 * Response schemas that belong to the HTTP surface rather than to a stored
 * resource (the resources' schemas live in @complib/core).
 */
export const LibraryStatsSchema = z
  .object({
    components: z.int(),
    deletedComponents: z.int(),
    symbols: z.int(),
    footprints: z.int(),
    attachments: z.int(),
    manufacturers: z.int(),
    mpns: z.int(),
    parameterTypes: z.int(),
    tags: z.int(),
    locations: z.int(),
    connectors: z.int(),
    runs: z.int(),
  })
  .meta({ id: 'LibraryStats' })

/** A recorded bulk operation (`GET /api/jobs/:id`). */
export const JobSchema = z
  .object({
    id: z.string(),
    kind: z.string().meta({ example: 'bulk-patch' }),
    status: z.string().meta({ example: 'succeeded' }),
    data: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.int(),
  })
  .meta({ id: 'Job' })
