import { ComplibError, fromZodError, type ConnectorDefinition } from '@complib/core'
import { webhookConnector } from '@complib/connector-webhook'

/** A kind of connector the server can run: a definition from defineConnector. */
export type ConnectorType = ConnectorDefinition

export const BUILT_IN_CONNECTOR_TYPES: readonly ConnectorType[] = [webhookConnector as unknown as ConnectorType]

/** The connector type named `type`, or a 400 naming `body.type`. */
export function getConnectorType(types: readonly ConnectorType[], type: string): ConnectorType {
  const found = types.find((t) => t.type === type)
  if (!found) {
    const message = `unknown connector type "${type}" (known: ${types.map((t) => t.type).join(', ')})`
    throw new ComplibError('VALIDATION_FAILED', `body.type: ${message}`, { errors: [{ path: 'body.type', message }] })
  }
  return found
}

/** Validates a config with its type's schema and check; errors name `body.config.<field>`. */
export function parseConnectorConfig(type: ConnectorType, config: unknown): Record<string, unknown> {
  const result = type.configSchema.safeParse(config)
  if (!result.success) throw fromZodError(result.error, 'body.config')
  const parsed = result.data
  try {
    type.check?.(parsed)
  } catch (error) {
    // A plugin's check throws plain Errors: still a 400, never a 500.
    if (error instanceof ComplibError) throw error
    const message = error instanceof Error ? error.message : String(error)
    throw new ComplibError('VALIDATION_FAILED', `body.config: ${message}`, { errors: [{ path: 'body.config', message }] })
  }
  return parsed
}

/** The code a connector of this type runs by default, or a 409 for types that run none. */
export function defaultCodeOf(type: ConnectorType): string {
  if (type.defaultCode === undefined) throw new ComplibError('CONFLICT', `connectors of type "${type.type}" run no code: their package delivers directly`)
  return type.defaultCode
}
