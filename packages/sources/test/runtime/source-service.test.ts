import { defineSource, isSourceError, SourceError, type SourcePart, type StoredSource } from '@complib/core'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { createSourceService } from '../../src/runtime/source-service'

const PART: SourcePart = {
  ref: 'A-1',
  manufacturer: 'Acme',
  mpn: 'A1',
  name: null,
  description: 'a part',
  categoryHints: [],
  parameters: [],
  datasheetUrl: null,
  imageUrl: null,
  productUrl: null,
  lifecycle: 'active',
  supplierStatus: null,
  package: null,
  rohs: null,
  offers: [],
}

/** A source whose behaviour each test sets, counting its calls. */
function counting() {
  const seen = { search: 0, fetch: 0, configs: [] as unknown[] }
  let answer: () => Promise<unknown> = async () => PART
  const type = defineSource({
    type: 'counting',
    configSchema: z.strictObject({ key: z.string().min(1), region: z.string().default('eu') }),
    secretFields: ['key'],
    capabilities: { search: true, offers: false, lifecycle: true },
    limits: { requestsPerMinute: null, requestsPerDay: null },
    async search(_q, context) {
      seen.search++
      seen.configs.push(context.config)
      return [{ ref: 'A-1', manufacturer: 'Acme', mpn: 'A1', description: null, imageUrl: null, productUrl: null, lifecycle: 'active', stock: null }]
    },
    async fetch(ref) {
      seen.fetch++
      return ref === 'A-1' ? ((await answer()) as SourcePart) : null
    },
  })
  return { type, seen, answer: (fn: () => Promise<unknown>) => void (answer = fn) }
}

const source = (over: Partial<StoredSource> = {}): StoredSource => ({
  id: 'src_01JD7W3T9X4QF5B8S2M6K0N1PZ',
  type: 'counting',
  name: 'Counting',
  config: {},
  secrets: { key: 'the-key' },
  refresh: null,
  createdAt: '2026-11-26T00:00:00.000Z',
  updatedAt: '2026-11-26T00:00:00.000Z',
  version: 1,
  ...over,
})

describe('the source service', () => {
  it('gives a source its config with its secrets put back, and caches answers until the source changes', async () => {
    const { type, seen } = counting()
    const service = createSourceService({ types: [type] })
    expect((await service.search(source(), 'A1', 5)).cached).toBe(false)
    expect((await service.search(source(), 'A1', 5)).cached).toBe(true)
    expect(seen.configs).toEqual([{ key: 'the-key', region: 'eu' }])
    expect((await service.fetch(source(), 'A-1')).value.mpn).toBe('A1')
    expect((await service.fetch(source(), 'A-1')).cached).toBe(true)
    expect((await service.fetch(source({ version: 2 }), 'A-1')).cached).toBe(false)
    expect(seen.fetch).toBe(2)
  })

  it('keeps nothing with a zero cache time', async () => {
    const { type, seen } = counting()
    const service = createSourceService({ types: [type], cacheTtlMs: 0 })
    await service.fetch(source(), 'A-1')
    await service.fetch(source(), 'A-1')
    expect(seen.fetch).toBe(2)
  })

  it('answers NOT_FOUND for a part the provider lacks', async () => {
    const { type } = counting()
    await expect(createSourceService({ types: [type] }).fetch(source(), 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('turns an answer outside the contract, or a bug of the source, into a bad-answer naming no secret', async () => {
    const { type, answer } = counting()
    const logged: string[] = []
    const service = createSourceService({ types: [type], cacheTtlMs: 0, log: (line) => logged.push(line) })
    answer(async () => ({ ...PART, mpn: '' }))
    const outside = await service.fetch(source(), 'A-1').catch((e: unknown) => e)
    expect(isSourceError(outside) && outside.kind).toBe('bad-answer')
    expect((outside as Error).message).toContain('answer.mpn')
    answer(async () => {
      throw new TypeError('cannot read x of undefined')
    })
    const bug = await service.fetch(source(), 'A-1').catch((e: unknown) => e)
    expect(isSourceError(bug) && bug.kind).toBe('bad-answer')
    expect(logged.join('\n')).toContain('cannot read x of undefined')
    answer(async () => {
      throw new SourceError('quota', 'slow down', { retryAfter: 9 })
    })
    expect(await service.fetch(source(), 'A-1').catch((e: unknown) => e)).toMatchObject({ kind: 'quota', retryAfter: 9 })
  })

  it('refuses a stored config its type no longer takes, and an unknown type, as conflicts of the request', async () => {
    const { type } = counting()
    const service = createSourceService({ types: [type] })
    await expect(service.fetch(source({ secrets: {} }), 'A-1')).rejects.toMatchObject({ code: 'CONFLICT' })
    await expect(service.fetch(source({ type: 'gone' }), 'A-1')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
  })
})
