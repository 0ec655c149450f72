import {
  ComplibError,
  PeerPart,
  SourceCandidate,
  SourceError,
  SourcePart,
  createSourceHttp,
  fromZodError,
  isSourceError,
  type AnySourceDefinition,
  type SourceContext,
  type StoredSource,
} from '@complib/core'
import { LRUCache } from 'lru-cache'
import * as z from 'zod'
import { createLimiter } from './limiter'

export interface SourceServiceOptions {
  types: readonly AnySourceDefinition[]
  /** How long an answer is kept and answered again without asking the provider (default 1 h; 0 keeps none). */
  cacheTtlMs?: number | undefined
  /** One request to a provider, at most (default 15 s). */
  timeoutMs?: number | undefined
  /** The longest answer read from a provider (default 8 MiB). */
  maxBytes?: number | undefined
  /** The longest a request waits for the limiter before it is refused as over quota (default 20 s). */
  maxWaitMs?: number | undefined
  /** The clock of offers' `fetchedAt` (tests). */
  now?: (() => Date) | undefined
  /** Where a source's unexpected failure (a bug, not a provider's answer) is told. */
  log?: ((line: string) => void) | undefined
}

/** How one call goes: `signal` cancels it; `waitMs` bounds the wait for the limiter (a job waits longer than a request); `fresh` asks the provider even when the cache holds an answer. */
export interface SourceCallOptions {
  signal?: AbortSignal | undefined
  waitMs?: number | undefined
  fresh?: boolean | undefined
}

export interface SourceAnswerOf<T> {
  value: T
  cached: boolean
}

/** What one configured source keeps between calls: its limiter, what its type memoises, and its cache. Dropped when the source changes. */
interface _State {
  version: number
  limiter: ReturnType<typeof createLimiter>
  memo: Map<string, unknown>
  cache: LRUCache<string, { value: unknown }>
}

/**
 * Calls configured sources (decisions 1600 and 1605): the type's config
 * validated with the stored secrets put back, each request paced by the
 * source's limiter, bounded in time and size, answers checked against the
 * contract's schemas and cached. What fails is a SourceError (routes turn it
 * into a problem with sourceProblem).
 */
export function createSourceService(options: SourceServiceOptions) {
  const ttl = options.cacheTtlMs ?? 60 * 60 * 1000
  const states = new Map<string, _State>()
  const now = options.now ?? (() => new Date())
  const log = options.log ?? (() => {})

  const typeOf = (type: string): AnySourceDefinition => {
    const found = options.types.find((t) => t.type === type)
    if (!found) {
      const message = `unknown source type "${type}" (known: ${options.types.map((t) => t.type).join(', ') || 'none'})`
      throw new ComplibError('VALIDATION_FAILED', `body.type: ${message}`, { errors: [{ path: 'body.type', message }] })
    }
    return found
  }

  const stateOf = (source: StoredSource, type: AnySourceDefinition): _State => {
    const had = states.get(source.id)
    if (had && had.version === source.version) return had
    const state: _State = {
      version: source.version,
      limiter: createLimiter({ ...type.limits, maxWaitMs: options.maxWaitMs }),
      memo: new Map(),
      cache: new LRUCache({ max: 2000, ttl: Math.max(1, ttl) }),
    }
    // A changed source keeps the quota it spent: the provider counts per credential, not per version.
    if (had) state.limiter = had.limiter
    states.set(source.id, state)
    return state
  }

  const contextOf = (source: StoredSource, type: AnySourceDefinition, state: _State, { signal, waitMs }: SourceCallOptions): SourceContext<Record<string, unknown>> => {
    const parsed = type.configSchema.safeParse({ ...source.config, ...source.secrets })
    if (!parsed.success) throw new ComplibError('CONFLICT', `source ${source.id}'s config is no longer valid for its type "${source.type}": change it (PATCH /api/sources/${source.id})`)
    return {
      config: parsed.data,
      http: createSourceHttp({ signal, timeoutMs: options.timeoutMs, maxBytes: options.maxBytes, beforeRequest: () => state.limiter.take(waitMs), secrets: Object.values(source.secrets) }),
      signal: signal ?? new AbortController().signal,
      memo: state.memo,
      now,
    }
  }

  /** What a source's failure becomes: its own SourceError or ComplibError as thrown; a bug of the source a `bad-answer`, its stack logged. */
  const failureOf = (source: StoredSource, error: unknown): unknown => {
    if (isSourceError(error) || error instanceof ComplibError) return error
    // A source's own bug: the caller gets a 502 naming the source, the log the stack.
    log(`[sources] ${source.type} source ${source.id} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    return new SourceError('bad-answer', 'the source failed to read the provider\'s answer', { cause: error })
  }

  const call = async <T>(source: StoredSource, key: string, callOptions: SourceCallOptions, run: (type: AnySourceDefinition, context: SourceContext<Record<string, unknown>>) => Promise<T>): Promise<SourceAnswerOf<T>> => {
    const type = typeOf(source.type)
    const state = stateOf(source, type)
    const hit = ttl > 0 && !callOptions.fresh ? state.cache.get(key) : undefined
    if (hit) return { value: structuredClone(hit.value) as T, cached: true }
    const context = contextOf(source, type, state, callOptions)
    let value: T
    try {
      value = await run(type, context)
    } catch (error) {
      throw failureOf(source, error)
    }
    if (ttl > 0) state.cache.set(key, { value: structuredClone(value) })
    return { value, cached: false }
  }

  return {
    types: options.types,
    typeOf,

    /** Parts matching `query` at the source, at most `limit`. */
    async search(source: StoredSource, query: string, limit: number, options: SourceCallOptions = {}): Promise<SourceAnswerOf<SourceCandidate[]>> {
      return await call(source, `search\n${limit}\n${query}`, options, async (type, context) => {
        if (!type.capabilities.search) throw new ComplibError('CONFLICT', `sources of type "${type.type}" cannot search`)
        const found = await type.search(query, context, limit)
        return _checked(z.array(SourceCandidate), found, source).slice(0, limit)
      })
    },

    /** One part by its ref; NOT_FOUND when the provider has none. */
    async fetch(source: StoredSource, ref: string, options: SourceCallOptions = {}): Promise<SourceAnswerOf<SourcePart>> {
      const answer = await call(source, `fetch\n${ref}`, options, async (type, context) => {
        const part = await type.fetch(ref, context)
        return part === null ? null : _checked(SourcePart, part, source)
      })
      if (answer.value === null) throw new ComplibError('NOT_FOUND', `source "${source.name}" has no part "${ref}"`)
      return answer as SourceAnswerOf<SourcePart>
    },

    /**
     * A peer's whole library, part by part, each checked against the
     * contract (decision 1609). Never cached: a pull is asked for to see the
     * peer as it is now. Paced by the source's limiter like every call.
     */
    async *pull(source: StoredSource, callOptions: SourceCallOptions = {}, onProgress?: (done: number, total: number | null) => void): AsyncGenerator<PeerPart> {
      const type = typeOf(source.type)
      if (!type.capabilities.pull || !type.pull) throw new ComplibError('CONFLICT', `sources of type "${type.type}" cannot pull a library (the types that can: ${options.types.filter((t) => t.capabilities.pull).map((t) => t.type).join(', ') || 'none'})`)
      const context = contextOf(source, type, stateOf(source, type), callOptions)
      try {
        for await (const part of type.pull(context, onProgress)) yield _checked(PeerPart, part, source)
      } catch (error) {
        throw failureOf(source, error)
      }
    },

    /** Forgets what a deleted source kept. */
    forget(sourceId: string): void {
      states.delete(sourceId)
    },
  }
}

export type SourceService = ReturnType<typeof createSourceService>

/** An answer of the type checked against the contract: a source that breaks it is a `bad-answer`, never a 500. */
function _checked<T>(schema: z.ZodType<T>, value: unknown, source: StoredSource): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const problem = fromZodError(result.error, 'answer')
  throw new SourceError('bad-answer', `the ${source.type} source answered outside the contract (${problem.detail})`)
}
