import { nextRunAt } from '@complib/connector-webhook'
import { ComplibError, fromZodError, mergePatch, type AnySourceDefinition, type Source, type StoredSource } from '@complib/core'

/**
 * A source's config as given (secrets inside) validated by its type and split
 * in two (decision 1604): the secret fields, stored apart and never answered,
 * and the rest. Errors name `body.config.<field>`.
 */
export function splitSourceConfig(type: AnySourceDefinition, given: unknown): { config: Record<string, unknown>; secrets: Record<string, string> } {
  const result = type.configSchema.safeParse(given)
  if (!result.success) throw fromZodError(result.error, 'body.config')
  const config: Record<string, unknown> = { ...(result.data as Record<string, unknown>) }
  const secrets: Record<string, string> = {}
  for (const field of type.secretFields) {
    const value = config[field]
    delete config[field]
    if (value === undefined || value === null) continue
    if (typeof value !== 'string') throw new ComplibError('VALIDATION_FAILED', `body.config.${field}: a secret field is a string`, { errors: [{ path: `body.config.${field}`, message: 'a secret field is a string' }] })
    secrets[field] = value
  }
  return { config, secrets }
}

/** A PATCH's `config` merged (RFC 7396) into the source's whole config, secrets included: a secret left out keeps its value. */
export function patchSourceConfig(type: AnySourceDefinition, current: StoredSource, patch: Record<string, unknown>) {
  return splitSourceConfig(type, mergePatch({ ...current.config, ...current.secrets }, patch))
}

/** A stored source as the API shows it: each secret only as a hint (its last 4 characters, when it is long enough that they give little away). */
export function toSourceView(s: StoredSource): Source {
  const secretHints: Record<string, string> = {}
  for (const [field, value] of Object.entries(s.secrets)) secretHints[field] = value.length >= 16 ? `…${value.slice(-4)}` : '…'
  return {
    id: s.id,
    type: s.type,
    name: s.name,
    config: s.config,
    secretHints,
    refresh: s.refresh,
    nextRefreshAt: s.refresh ? nextRunAt(s.refresh.cron) : null,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    version: s.version,
  }
}
