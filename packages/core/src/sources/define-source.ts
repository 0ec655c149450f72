import type * as z from 'zod'
import type { PeerPart } from '../schemas/peer-part'
import type { SourceCandidate, SourceCapabilities, SourceLimits, SourcePart } from '../schemas/source'
import type { SourceHttp } from './http'

/**
 * The inbound contract, beside defineConnector (decision 1600): a source type
 * says what its configuration looks like, which of its fields are secrets,
 * what it can do and within which limits, and how to search its provider and
 * fetch one part, normalised. The server does the rest the same for every
 * type: it keeps secrets write-only, paces requests within `limits`, caches
 * answers, turns a SourceError into a problem, and maps the part onto the
 * library (parameter types, statuses, offers, provenance).
 *
 * Source packages are trusted code chosen by whoever runs the server, loaded
 * like connector packages (`complib serve --source <module>`, or `sources` in
 * `<data>/complib.config.json`).
 */
export interface SourceDefinition<Config extends Record<string, unknown> = Record<string, unknown>> {
  /** `kebab-case` name, unique among the loaded types: the `type` of a source. */
  type: string
  /** Shown in `GET /api/sources/types` (defaults to `type`). */
  title?: string | undefined
  description?: string | undefined
  /** The provider's API documentation, where its credentials are had. */
  documentation?: string | undefined
  /** Validates the source's `config` (errors name `body.config.<field>`); also its JSON Schema in the API. */
  configSchema: z.ZodType<Config>
  /** Config fields that are credentials: write-only, answered as hints, left out of backups and copies. */
  secretFields: readonly (keyof Config & string)[]
  capabilities: SourceCapabilities
  /** The provider's documented limits; the server's limiter keeps every configured source of this type within them. */
  limits: SourceLimits
  /** Parts matching an MPN or keywords, best first, at most `limit`. */
  search(query: string, context: SourceContext<Config>, limit: number): Promise<SourceCandidate[]>
  /** One part by the `ref` a search gave, or null when the provider has no such part. */
  fetch(ref: string, context: SourceContext<Config>): Promise<SourcePart | null>
  /**
   * A peer's whole library, part by part, in the peer's key order
   * (`capabilities.pull`; decision 1609): what a pull imports, and imports
   * again to sync. `onProgress` may be told how many parts of how many
   * (null: not known) have been read so far.
   */
  pull?(context: SourceContext<Config>, onProgress?: (done: number, total: number | null) => void): AsyncIterable<PeerPart>
}

/** A definition of any config: what the server and the loaders hold. */
export type AnySourceDefinition = SourceDefinition<any>

export interface SourceContext<Config> {
  config: Config
  /** The provider's API, bounded and paced (the only way a source should reach it). */
  http: SourceHttp
  /** Aborted when the caller goes away or the server stops. */
  signal: AbortSignal
  /** What a source may remember between calls of the same configured source (an OAuth2 token until it expires). */
  memo: Map<string, unknown>
  /** The time the answer is as of: `fetchedAt` of every offer. */
  now(): Date
}

/**
 * Declares a source type, checking its shape at load time so a broken
 * package fails with a clear message when the server starts.
 *
 * @example
 * export default defineSource({
 *   type: 'my-distributor',
 *   configSchema: z.strictObject({ apiKey: z.string().min(1) }),
 *   secretFields: ['apiKey'],
 *   capabilities: { search: true, offers: true, lifecycle: false },
 *   limits: { requestsPerMinute: 60, requestsPerDay: null },
 *   async search(q, { http, config }) { … },
 *   async fetch(ref, { http, config }) { … },
 * })
 */
export function defineSource<Config extends Record<string, unknown>>(definition: SourceDefinition<Config>): SourceDefinition<Config> {
  const problems: string[] = []
  if (typeof definition !== 'object' || definition === null) throw new TypeError('defineSource: expected an object')
  if (typeof definition.type !== 'string' || !TYPE_NAME.test(definition.type) || definition.type.length < 2 || definition.type.length > 40) problems.push('`type` must be a kebab-case name of 2 to 40 characters, e.g. "my-distributor"')
  if (!definition.configSchema || typeof (definition.configSchema as { safeParse?: unknown }).safeParse !== 'function') problems.push('`configSchema` must be a zod schema')
  if (!Array.isArray(definition.secretFields) || definition.secretFields.some((f) => typeof f !== 'string')) problems.push('`secretFields` must be an array of config field names')
  for (const key of ['search', 'fetch'] as const) if (typeof definition[key] !== 'function') problems.push(`\`${key}\` must be a function`)
  const caps = definition.capabilities as Partial<SourceCapabilities> | undefined
  if (!caps || typeof caps.search !== 'boolean' || typeof caps.offers !== 'boolean' || typeof caps.lifecycle !== 'boolean') problems.push('`capabilities` must say `search`, `offers` and `lifecycle` as booleans')
  const limits = definition.limits as Partial<SourceLimits> | undefined
  if (!limits || !_positiveOrNull(limits.requestsPerMinute) || !_positiveOrNull(limits.requestsPerDay)) problems.push('`limits` must give `requestsPerMinute` and `requestsPerDay`, each a positive number or null')
  if (caps && caps.pull !== undefined && typeof caps.pull !== 'boolean') problems.push('`capabilities.pull` must be a boolean when given')
  if (caps?.pull === true && typeof definition.pull !== 'function') problems.push('`pull` must be a function when `capabilities.pull` is true')
  for (const key of ['title', 'description', 'documentation'] as const) {
    if (definition[key] !== undefined && typeof definition[key] !== 'string') problems.push(`\`${key}\` must be a string when given`)
  }
  if (problems.length) throw new TypeError(`defineSource${typeof definition.type === 'string' ? ` "${definition.type}"` : ''}: ${problems.join('; ')}`)
  const out = { ...definition, secretFields: Object.freeze([...definition.secretFields]) }
  Object.defineProperty(out, SOURCE_BRAND, { value: true })
  return Object.freeze(out)
}

/** Whether `value` came from defineSource (what a source module must export). */
export function isSourceDefinition(value: unknown): value is AnySourceDefinition {
  return typeof value === 'object' && value !== null && SOURCE_BRAND in value
}

function _positiveOrNull(value: unknown): boolean {
  return value === null || (typeof value === 'number' && Number.isFinite(value) && value > 0)
}

const TYPE_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/
const SOURCE_BRAND = Symbol.for('complib.source')
