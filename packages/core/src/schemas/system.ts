import * as z from 'zod'

/** `GET /api/health`: the service answers. */
export const Health = z
  .object({
    status: z.literal('ok'),
    version: z.string(),
    storage: z.string(),
    uptimeSeconds: z.int(),
    writesStopped: z
      .string()
      .optional()
      .meta({ description: 'Present once the server refuses writes (reads go on): why, and what to do. A failed flush of the embedded database to the disk stops writes until a restart.' }),
  })
  .meta({ id: 'Health' })
export type Health = z.infer<typeof Health>

/** `GET /api/version`. */
export const Version = z.object({ version: z.string().meta({ example: '1.0.0-beta.4' }) }).meta({ id: 'Version' })
export type Version = z.infer<typeof Version>

/** `GET /api/stats`: counts of everything in the library, and the size of its database. */
export const LibraryStats = z
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
    databaseBytes: z.int().meta({ description: 'Size of the database as the storage holds it (for the embedded storage: in memory, free pages included)' }),
  })
  .meta({ id: 'LibraryStats' })
export type LibraryStats = z.infer<typeof LibraryStats>
