import type { Connector, StoredConnector } from '@complib/core'
import { nextRunAt } from '@complib/connector-webhook'

/**
 * A stored connector as the API shows it: the secret only as a hint of its
 * last four characters: a secret never leaves the server whole (decision 0722).
 */
export function toConnectorView(c: StoredConnector, now: Date = new Date()): Connector {
  const previousLive = c.previousSecret && c.previousSecretExpiresAt && new Date(c.previousSecretExpiresAt) > now
  const cron = typeof c.config.cron === 'string' ? c.config.cron : null
  return {
    id: c.id,
    type: c.type,
    name: c.name,
    enabled: c.enabled,
    config: c.config,
    secretHint: c.secret ? `whsec_…${c.secret.slice(-4)}` : null,
    previousSecretExpiresAt: previousLive ? c.previousSecretExpiresAt : null,
    hasCustomCode: c.code !== null,
    nextRunAt: c.enabled ? nextRunAt(cron, now) : null,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    version: c.version,
  }
}
