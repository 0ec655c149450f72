import type * as z from 'zod'
import type { Component } from './schemas/component'

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
export interface ConnectorDefinition<Config extends Record<string, unknown> = Record<string, unknown>, Session = undefined> {
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
   * Once per run, when it starts or resumes: what every batch of the run
   * shares (a sandbox, a throttle, a connection). It is `context.session` in
   * `run`. Throwing fails the run with the error's message.
   */
  setup?: ((context: ConnectorContext<Config>) => Session | Promise<Session>) | undefined
  /** Once the run ends, however it ends: releases what `setup` made. */
  dispose?: ((session: Session) => void | Promise<void>) | undefined
  /**
   * Delivers one batch. Resolving acknowledges it: it is recorded as sent and
   * never delivered again. Throwing (or rejecting) fails the batch with the
   * error's message. Stop promptly when `context.signal` aborts. A type that
   * delivers only some of the batch's entities resolves with how many it did
   * (`{ entitiesSent }`); otherwise the run counts the whole batch as sent.
   */
  run(batch: ConnectorBatch, context: ConnectorRunContext<Config, Session>): Promise<void | ConnectorRunResult>
}

/** A definition of any config and session: what the runtime and the loaders hold. */
export type AnyConnectorDefinition = ConnectorDefinition<any, any>

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
  /** The run, and how many batches it has (a receiver that saw them all has seen the whole push). */
  runId: string
  batches: number
  /** How many entities the batch holds (without parsing them). */
  count: number
  /**
   * The entities as the JSON text of their array in UTF-8 bytes, exactly as
   * stored (what `JSON.stringify(entities)` gives): a type that passes them on
   * untouched sends these bytes and decodes nothing.
   */
  bytes: Uint8Array
  /** The same JSON text as a string (decoded from `bytes` on first use). */
  readonly json: string
  /** The batch's components, at most 250 (parsed on first use); after a resume, exactly those the first attempt was given. */
  readonly entities: readonly Component[]
}

export interface ConnectorContext<Config> {
  config: Config
  /** The connector's code, for types whose behaviour is user-editable code (`defaultCode`); null when it has none of its own. */
  code: string | null
  /** The connector's signing secrets: the current one, then the previous one while a rotation's grace period lasts. */
  secrets: readonly string[]
  /** Aborted when the run is cancelled or the server stops. */
  signal: AbortSignal
  /** A line for the run record (kept bounded). */
  log(line: string): void
}

/** What `run` gets beside the batch: the context, what `setup` made, and the run record's hooks. */
export interface ConnectorRunContext<Config, Session = undefined> extends ConnectorContext<Config> {
  session: Session
  /**
   * Records, before they leave, the exact bytes about to be delivered (a
   * string is kept as its UTF-8 bytes), so that a delivery made again after a
   * crash is byte-identical. Bytes equal to `{"entities":` + the batch as
   * read + `}`, or to what was kept before, cost nothing.
   */
  keep(body: string | Uint8Array): Promise<void>
  /** Records one delivery attempt in the run record (its status, time, error, and Retry-After). */
  attempt(attempt: ConnectorAttempt): void
}

export interface ConnectorAttempt {
  /** HTTP status, or null when none came (or the type speaks no HTTP). */
  status: number | null
  durationMs: number
  error: string | null
  retryAfter?: number | undefined
}

/**
 * A batch from its entities' JSON text in UTF-8 bytes; `json` and `entities`
 * are decoded and parsed from them on first use.
 *
 * @example
 * createConnectorBatch({ index: 0, deliveryId: 'msg_…', runId: 'run_…', batches: 1, bytes: Buffer.from('[…]'), count: 2 })
 */
export function createConnectorBatch(fields: Omit<ConnectorBatch, 'entities' | 'json'>): ConnectorBatch {
  let text: string | undefined
  let parsed: readonly Component[] | undefined
  const json = () => (text ??= new TextDecoder().decode(fields.bytes))
  return {
    ...fields,
    get json() {
      return json()
    },
    get entities() {
      return (parsed ??= JSON.parse(json()) as Component[])
    },
  }
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
export function defineConnector<Config extends Record<string, unknown>, Session = undefined>(definition: ConnectorDefinition<Config, Session>): ConnectorDefinition<Config, Session> {
  const problems: string[] = []
  if (typeof definition !== 'object' || definition === null) throw new TypeError('defineConnector: expected an object')
  if (typeof definition.type !== 'string' || !TYPE_NAME.test(definition.type) || definition.type.length < 2 || definition.type.length > 40) problems.push('`type` must be a kebab-case name of 2 to 40 characters, e.g. "jsonl-file"')
  if (!definition.configSchema || typeof (definition.configSchema as { safeParse?: unknown }).safeParse !== 'function') problems.push('`configSchema` must be a zod schema')
  if (typeof definition.run !== 'function') problems.push('`run(batch, context)` must be a function')
  for (const key of ['check', 'setup', 'dispose'] as const) {
    if (definition[key] !== undefined && typeof definition[key] !== 'function') problems.push(`\`${key}\` must be a function when given`)
  }
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
export function isConnectorDefinition(value: unknown): value is AnyConnectorDefinition {
  return typeof value === 'object' && value !== null && CONNECTOR_BRAND in value
}

const TYPE_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/
const CONNECTOR_BRAND = Symbol.for('complib.connector')
