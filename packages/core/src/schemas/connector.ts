import * as z from 'zod'
import { idSchema } from '../ids'
import { Name, Timestamp, recordFields } from './common'

/**
 * A Standard Webhooks signing secret: `whsec_` and the base64 of 24 to 64
 * random bytes. Checked by decoding, not only by pattern.
 */
export const SigningSecret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, { error: 'a signing secret is whsec_ followed by base64' })
  .refine(
    (s) => {
      const n = Buffer.from(s.slice(6), 'base64').length
      return n >= 24 && n <= 64
    },
    { error: 'a signing secret holds 24 to 64 bytes' },
  )
  .meta({ writeOnly: true, example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })

/** Configuration of the built-in webhook connector (decisions 0703 and 0723). */
export const WebhookConfig = z
  .strictObject({
    url: z.url({ protocol: /^https?$/ }).max(2000).meta({ example: 'http://127.0.0.1:8080/hooks/components' }),
    requestsPerSecond: z.number().positive().max(1000).default(10),
    concurrency: z.int().min(1).max(64).default(4),
    cron: z.string().trim().min(1).max(200).nullable().default(null).meta({ example: '0 */6 * * *' }),
    includeOffers: z.boolean().default(false).meta({ description: "Each component carries `offers`: its suppliers' stock and prices, as the sources last gave them" }),
  })
  .meta({ id: 'WebhookConfig' })
export type WebhookConfig = z.output<typeof WebhookConfig>

/** A connector as the API shows it: never with its whole secret, only a hint of its last characters. */
export const Connector = z
  .object({
    id: idSchema('connector'),
    type: z.string().meta({ example: 'webhook' }),
    name: z.string(),
    enabled: z.boolean(),
    config: z.record(z.string(), z.unknown()).meta({ description: 'Validated by the connector type’s config schema' }),
    secretHint: z.string().nullable().meta({ example: 'whsec_…Sw' }),
    previousSecretExpiresAt: Timestamp.nullable(),
    hasCustomCode: z.boolean(),
    nextRunAt: Timestamp.nullable(),
    ...recordFields,
  })
  .meta({ id: 'Connector' })
export type Connector = z.infer<typeof Connector>

export const ConnectorCreate = z
  .strictObject({
    type: z.string().trim().min(1).max(100).default('webhook'),
    name: Name,
    enabled: z.boolean().default(true),
    config: z.record(z.string(), z.unknown()),
    secret: SigningSecret.optional(),
    code: z.string().max(256 * 1024).optional(),
  })
  .meta({ id: 'ConnectorCreate' })
export type ConnectorCreate = z.input<typeof ConnectorCreate>

export const ConnectorPatch = z
  .strictObject({
    name: Name,
    enabled: z.boolean(),
    config: z.record(z.string(), z.unknown()),
  })
  .partial()
  .meta({ id: 'ConnectorPatch' })
export type ConnectorPatch = z.input<typeof ConnectorPatch>

/** Body of `POST /api/connectors/:id/secret/rotate`. The old secret keeps signing beside the new one for the grace period. */
export const SecretRotate = z
  .strictObject({
    secret: SigningSecret.optional(),
    graceSeconds: z.int().min(0).max(7 * 24 * 3600).default(24 * 3600),
  })
  .meta({ id: 'SecretRotate' })
export type SecretRotate = z.input<typeof SecretRotate>
