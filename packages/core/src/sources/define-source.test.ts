import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { defineSource, isSourceDefinition } from './define-source'

const valid = {
  type: 'my-distributor',
  configSchema: z.strictObject({ apiKey: z.string() }),
  secretFields: ['apiKey'] as const,
  capabilities: { search: true, offers: true, lifecycle: false },
  limits: { requestsPerMinute: 30, requestsPerDay: 1000 },
  search: async () => [],
  fetch: async () => null,
}

describe('defineSource', () => {
  it('brands and freezes a well-formed definition', () => {
    const d = defineSource(valid)
    expect(isSourceDefinition(d)).toBe(true)
    expect(isSourceDefinition({ ...valid })).toBe(false)
    expect(Object.isFrozen(d)).toBe(true)
  })

  it('names every problem of a broken one, with its type', () => {
    const broken = { ...valid, type: 'My Source', secretFields: 'apiKey', capabilities: { search: true }, limits: { requestsPerMinute: 0, requestsPerDay: null }, fetch: 1 }
    expect(() => defineSource(broken as never)).toThrow(/defineSource "My Source": `type` must be a kebab-case.*`secretFields`.*`fetch` must be a function.*`capabilities`.*`limits`/)
  })
})
