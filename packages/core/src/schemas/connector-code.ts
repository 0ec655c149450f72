import * as z from 'zod'

/** `GET /api/connectors/:id/code`: the code the connector runs. */
export const ConnectorCode = z
  .object({ code: z.string(), isDefault: z.boolean().meta({ description: 'True while the connector runs its type’s default code' }) })
  .meta({ id: 'ConnectorCode' })
export type ConnectorCode = z.infer<typeof ConnectorCode>

/** Body of `PUT /api/connectors/:id/code`: null goes back to the type's default. */
export const ConnectorCodeUpdate = z.strictObject({ code: z.string().max(256 * 1024).nullable() }).meta({ id: 'ConnectorCodeUpdate' })
export type ConnectorCodeUpdate = z.input<typeof ConnectorCodeUpdate>

/** One connector type the server can run (`GET /api/connectors/types`). */
export const ConnectorTypeInfo = z
  .object({
    type: z.string(),
    title: z.string(),
    description: z.string(),
    configSchema: z.record(z.string(), z.unknown()),
    defaultCode: z.string().nullable().meta({ description: 'The code a new connector of this type runs; null for types loaded as packages, which run no code' }),
  })
  .meta({ id: 'ConnectorType' })
export type ConnectorTypeInfo = z.infer<typeof ConnectorTypeInfo>

/** `POST /api/connectors/:id/test`: what the code did with a sample, every send captured. */
export const DryRunResult = z
  .object({
    sent: z.array(z.object({ url: z.string(), entities: z.int(), bytes: z.int() })),
    logs: z.array(z.string()),
    error: z.string().nullable(),
  })
  .meta({ id: 'DryRunResult', description: 'What the code did with a sample of up to 3 components; every send was captured, none left the machine' })
export type DryRunResult = z.infer<typeof DryRunResult>
