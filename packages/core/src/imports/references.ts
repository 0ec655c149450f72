import * as z from 'zod'

/** A component's key in a peer's database, kept by an import (decision 0640). */
export const ExternalReference = z
  .object({
    source: z.string().meta({ description: 'Whose key it is: `inventree`, `partdb`, or the `source` an import was given', example: 'inventree' }),
    key: z.string().meta({ description: "The part's key there (InvenTree's part `ID`, Part-DB's `id`)", example: '101' }),
  })
  .meta({ id: 'ExternalReference' })
export type ExternalReference = z.infer<typeof ExternalReference>
