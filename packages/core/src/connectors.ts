import type * as z from 'zod'
import type { Component } from './schemas'

/**
 * The connector plugin contract. A connector type says what its
 * configuration looks like and how to deliver one batch; the runtime does the
 * rest the same for every type: it freezes the ids of a run, splits them into
 * batches of at most 250, reads the components, runs batches up to the
 * config's `concurrency`, records every outcome durably, cancels, and resumes
 * after a crash without delivering an acknowledged batch again.
 *
 * Connector packages are trusted code chosen by whoever runs the server (like
 * any npm dependency), loaded at start (`complib serve --connector <module>`,
 * or `connectors` in `<data>/complib.config.json`). User-editable code, such
 * as the webhook connector's `push()`, runs in the sandbox instead.
 */
export interface ConnectorDefinition<Config extends Record<string, unknown> = Record<string, unknown>> {
  /** `kebab-case` name, unique among the loaded types: the `type` of a connector. */
  type: string
  /** Shown in `GET /api/connectors/types` (defaults to `type`). */
  title?: string | undefined
  description?: string | undefined
  /** Validates the connector's `config` (errors name `body.config.<field>`); also its JSON Schema in the API. */
  configSchema: z.ZodType<Config>
  /** Checks beyond the schema (e.g. a cron expression); throw an Error with the field in its message. */
  check?: ((config: Config) => void) | undefined
  /** Types whose behaviour is user-editable code (run in the sandbox) give the default code here. */
  defaultCode?: string | undefined
  /**
   * Delivers one batch. Resolving acknowledges it: it is recorded as sent and
   * never delivered again. Throwing (or rejecting) fails the batch with the
   * error's message. Stop promptly when `context.signal` aborts. A type that
   * delivers only some of the batch's entities resolves with how many it did
   * (`{ entitiesSent }`); otherwise the run counts the whole batch as sent.
   */
  run(batch: ConnectorBatch, context: ConnectorContext<Config>): Promise<void | ConnectorRunResult>
}

/** What `run` may resolve with: the entities of the batch it delivered, when it left some out. */
export interface ConnectorRunResult {
  entitiesSent: number
}

/** One batch of a run, as the runtime hands it to `run`. */
export interface ConnectorBatch {
  /** Position of the batch in its run, from 0. */
  index: number
  /** The batch's delivery id (`msg_…`): the same after a resume, for the receiver's idempotency. */
  deliveryId: string
  /** The batch's components, at most 250; after a resume, exactly those the first attempt was given. */
  entities: readonly Component[]
}

export interface ConnectorContext<Config> {
  config: Config
  /** The connector's signing secrets: the current one, then the previous one while a rotation's grace period lasts. */
  secrets: readonly string[]
  /** Aborted when the run is cancelled or the server stops. */
  signal: AbortSignal
  /** A line for the run record (kept bounded). */
  log(line: string): void
}

/**
 * Declares a connector type, checking its shape at load time so a broken
 * package fails with a clear message when the server starts, not mid-run.
 *
 * @example
 * export default defineConnector({
 *   type: 'jsonl-file',
 *   configSchema: z.object({ path: z.string() }),
 *   async run(batch, { config }) { await appendFile(config.path, lines(batch.entities)) },
 * })
 */
export function defineConnector<Config extends Record<string, unknown>>(definition: ConnectorDefinition<Config>): ConnectorDefinition<Config> {
  const problems: string[] = []
  if (typeof definition !== 'object' || definition === null) throw new TypeError('defineConnector: expected an object')
  if (typeof definition.type !== 'string' || !TYPE_NAME.test(definition.type) || definition.type.length < 2 || definition.type.length > 40) problems.push('`type` must be a kebab-case name of 2 to 40 characters, e.g. "jsonl-file"')
  if (!definition.configSchema || typeof (definition.configSchema as { safeParse?: unknown }).safeParse !== 'function') problems.push('`configSchema` must be a zod schema')
  if (typeof definition.run !== 'function') problems.push('`run(batch, context)` must be a function')
  if (definition.check !== undefined && typeof definition.check !== 'function') problems.push('`check` must be a function when given')
  if (definition.defaultCode !== undefined && typeof definition.defaultCode !== 'string') problems.push('`defaultCode` must be a string when given')
  for (const key of ['title', 'description'] as const) {
    if (definition[key] !== undefined && typeof definition[key] !== 'string') problems.push(`\`${key}\` must be a string when given`)
  }
  if (problems.length) throw new TypeError(`defineConnector${typeof definition.type === 'string' ? ` "${definition.type}"` : ''}: ${problems.join('; ')}`)
  const out = { ...definition }
  Object.defineProperty(out, CONNECTOR_BRAND, { value: true })
  return Object.freeze(out)
}

/** Whether `value` came from defineConnector (what a connector module must export). */
export function isConnectorDefinition(value: unknown): value is ConnectorDefinition {
  return typeof value === 'object' && value !== null && CONNECTOR_BRAND in value
}

const TYPE_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/
const CONNECTOR_BRAND = Symbol.for('complib.connector')
