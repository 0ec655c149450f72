import { ComplibError, WebhookConfig, fromZodError } from '@complib/core'
import { DEFAULT_WEBHOOK_CODE, assertValidCron } from '@complib/connector-webhook'
import * as z from 'zod'

/** A kind of connector the server can run: its config schema and default code. */
export interface ConnectorType {
  type: string
  title: string
  description: string
  configSchema: z.ZodType
  defaultCode: string
  /** Checks beyond the schema (e.g. the cron expression); throws a 400. */
  check?: ((config: Record<string, unknown>) => void) | undefined
}

export const BUILT_IN_CONNECTOR_TYPES: readonly ConnectorType[] = [
  {
    type: 'webhook',
    title: 'Components → Webhook',
    description: 'Pushes every non-deleted component to a receiver URL as Standard-Webhooks-signed JSON batches of at most 250.',
    configSchema: WebhookConfig,
    defaultCode: DEFAULT_WEBHOOK_CODE,
    check: (config) => {
      if (typeof config.cron === 'string') assertValidCron(config.cron)
    },
  },
]

/** The connector type named `type`, or a 400 naming `body.type`. */
export function getConnectorType(types: readonly ConnectorType[], type: string): ConnectorType {
  const found = types.find((t) => t.type === type)
  if (!found) {
    const message = `unknown connector type "${type}" (known: ${types.map((t) => t.type).join(', ')})`
    throw new ComplibError('VALIDATION_FAILED', `body.type: ${message}`, { errors: [{ path: 'body.type', message }] })
  }
  return found
}

/** Validates a config with its type's schema; errors name `body.config.<field>`. */
export function parseConnectorConfig(type: ConnectorType, config: unknown): Record<string, unknown> {
  const result = type.configSchema.safeParse(config)
  if (!result.success) throw fromZodError(result.error, 'body.config')
  const parsed = result.data as Record<string, unknown>
  type.check?.(parsed)
  return parsed
}
