import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { PeerPart } from '../schemas/peer-part'
import { SourceCandidate, SourcePart } from '../schemas/source'
import { isSourceDefinition, type SourceContext, type SourceDefinition } from '../sources/define-source'
import { createSourceHttp } from '../sources/http'
import { isSourceError } from '../sources/source-error'

export interface SourceSuiteOptions {
  /** A valid configuration (before defaults) pointing at the test's fake of the provider. */
  config: () => Record<string, unknown> | Promise<Record<string, unknown>>
  /** A configuration the type must refuse. */
  invalidConfig: unknown
  /** A valid configuration whose credentials the fake refuses. */
  badCredentials: () => Record<string, unknown> | Promise<Record<string, unknown>>
  /** A query the fake answers with at least one part. */
  query: string
  /** A query the fake answers with none. */
  emptyQuery: string
  /** A part the fake holds, with offers. */
  ref: string
  /** A ref the fake holds no part for. */
  unknownRef: string
  /** For a type that pulls (`capabilities.pull`): how many parts the fake's library holds. */
  pulledParts?: number
}

/** The time every suite call is as of: offers' `fetchedAt` must be it. */
const NOW = new Date('2026-11-26T12:00:00.000Z')

/**
 * The shared suite every source type passes, built-in or from a package,
 * against a fake of its provider (decision 1600): its definition is well
 * formed, its config validates and describes itself with its secret fields in
 * it, a search answers valid candidates whose refs fetch, a fetch answers one
 * normalised part, an unknown part is null, refused credentials are an `auth`
 * SourceError, a cancelled call stops, and no credential appears in an answer
 * or an error.
 *
 * @example
 * testSource(mouserSource, { config: () => ({ apiKey: KEY, baseUrl: fake.url }), … })
 */
export function testSource<Config extends Record<string, unknown>>(definition: SourceDefinition<Config>, options: SourceSuiteOptions): void {
  const secretsOf = (config: Record<string, unknown>) => definition.secretFields.map((f) => config[f]).filter((v): v is string => typeof v === 'string')
  const context = async (raw?: Record<string, unknown>, signal = new AbortController().signal): Promise<SourceContext<Config>> => {
    const input = raw ?? (await options.config())
    return {
      config: definition.configSchema.parse(input),
      http: createSourceHttp({ signal, secrets: secretsOf(input), timeoutMs: 5_000 }),
      signal,
      memo: new Map(),
      now: () => NOW,
    }
  }
  const expectNoSecret = async (value: unknown, raw?: Record<string, unknown>) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    for (const secret of secretsOf(raw ?? (await options.config()))) expect(text).not.toContain(secret)
  }

  describe(`source type "${definition.type}"`, () => {
    it('is a source definition with a kebab-case type', () => {
      expect(isSourceDefinition(definition)).toBe(true)
      expect(definition.type).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/)
    })

    it('accepts its valid config and refuses the invalid one', async () => {
      expect(definition.configSchema.safeParse(await options.config()).success).toBe(true)
      expect(definition.configSchema.safeParse(options.invalidConfig).success).toBe(false)
    })

    it('describes its config as JSON Schema, its secret fields among its properties', () => {
      const schema = z.toJSONSchema(definition.configSchema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> }
      expect(schema).toBeTypeOf('object')
      for (const field of definition.secretFields) expect(Object.keys(schema.properties ?? {})).toContain(field)
    })

    it('answers a search with valid candidates, each fetchable by its ref', async () => {
      const ctx = await context()
      const candidates = await definition.search(options.query, ctx, 10)
      expect(candidates.length).toBeGreaterThan(0)
      expect(candidates.length).toBeLessThanOrEqual(10)
      for (const c of candidates) SourceCandidate.parse(c)
      expect(new Set(candidates.map((c) => c.ref)).size).toBe(candidates.length)
      const first = await definition.fetch(candidates[0]!.ref, ctx)
      expect(first).not.toBeNull()
      expect(first!.mpn).toBe(candidates[0]!.mpn)
      await expectNoSecret(candidates)
    })

    it('answers a search that matches nothing with no candidates', async () => {
      expect(await definition.search(options.emptyQuery, await context(), 10)).toEqual([])
    })

    it('fetches one part, normalised, its offers as of the call', async () => {
      const part = await definition.fetch(options.ref, await context())
      expect(part).not.toBeNull()
      const parsed = SourcePart.parse(part)
      expect(parsed.mpn.length).toBeGreaterThan(0)
      if (definition.capabilities.offers) {
        expect(parsed.offers.length).toBeGreaterThan(0)
        for (const offer of parsed.offers) expect(offer.fetchedAt).toBe(NOW.toISOString())
      }
      if (definition.capabilities.lifecycle) expect(parsed.lifecycle).not.toBe('unknown')
      await expectNoSecret(part)
    })

    it('answers null for a part the provider does not have', async () => {
      expect(await definition.fetch(options.unknownRef, await context())).toBeNull()
    })

    it('fails with an `auth` SourceError, naming no credential, when the provider refuses the credentials', async () => {
      const raw = await options.badCredentials()
      const error = await definition.fetch(options.ref, await context(raw)).then(
        () => null,
        (e: unknown) => e,
      )
      expect(isSourceError(error), `expected a SourceError, got ${String(error)}`).toBe(true)
      expect((error as { kind: string }).kind).toBe('auth')
      await expectNoSecret((error as Error).message, raw)
      await expectNoSecret((error as Error).message)
    })

    if (definition.capabilities.pull) {
      it('pulls the whole library: every part valid, each key once, progress told', async () => {
        expect(definition.pull, 'capabilities.pull without a pull function').toBeTypeOf('function')
        const seen = new Set<string>()
        const progress: number[] = []
        for await (const part of definition.pull!(await context(), (done) => progress.push(done))) {
          const parsed = PeerPart.safeParse(part)
          expect(parsed.success, `part ${JSON.stringify((part as { key?: unknown }).key)}: ${parsed.error?.message}`).toBe(true)
          expect(seen.has(part.key), `key ${part.key} pulled twice`).toBe(false)
          seen.add(part.key)
          await expectNoSecret(part)
        }
        if (options.pulledParts !== undefined) expect(seen.size).toBe(options.pulledParts)
        expect(progress.length).toBeGreaterThan(0)
        expect(progress.at(-1)).toBe(seen.size)
      })

      it('fails a pull with an `auth` SourceError when the peer refuses the credentials', async () => {
        const raw = await options.badCredentials()
        const error = await (async () => {
          for await (const _part of definition.pull!(await context(raw))) void _part
        })().then(
          () => null,
          (e: unknown) => e,
        )
        expect(isSourceError(error), `expected a SourceError, got ${String(error)}`).toBe(true)
        expect((error as { kind: string }).kind).toBe('auth')
        await expectNoSecret((error as Error).message, raw)
      })
    }

    it('stops when the call is cancelled', async () => {
      const controller = new AbortController()
      controller.abort()
      const error = await definition.search(options.query, await context(undefined, controller.signal), 10).then(
        () => null,
        (e: unknown) => e,
      )
      expect(isSourceError(error), `expected a SourceError, got ${String(error)}`).toBe(true)
    })
  })
}
