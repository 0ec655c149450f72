import fc from 'fast-check'

/** A JSON Schema node of the OpenAPI document (3.1: JSON Schema 2020-12). */
export type Schema = Record<string, any>

/** What generated values may point at: ids of a seeded library, by prefix. */
export interface ValueContext {
  resolve(schema: Schema): Schema
  ids: Record<string, string[]>
  ipns: string[]
}

/** JSON text spliced into a body as is: nesting too deep to build as a value, numbers JSON cannot hold. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Strings that have broken parsers, databases, headers and file systems. */
export const HOSTILE_STRINGS = [
  ' ', '\u0000', 'a\u0000b', '\uD800', '\uDFFF', 'x\uDC00y', '\uD83D', '\u202Eevil\u202C.pdf', '\u200F\u05D0\u05D1\u05D2', '\uFEFFbom', '\u200B',
  'e\u0301\u0301\u0301\u0301', '😀', '👩‍👩‍👧‍👦', '\r\n', 'a\r\nSet-Cookie: x=1', '../../../../etc/passwd', '..\\..\\windows\\win.ini', '%2e%2e%2f',
  '%00', '%', '%ZZ', '<script>alert(1)</script>', "' OR 1=1 --", '"; DROP TABLE components; --', '"', '*', 'NEAR(a b)', 'a OR b', 'a AND NOT b',
  '"unterminated', '^', 'name:x', '\\', '{{7*7}}', '${7*7}', '__proto__', 'constructor', 'prototype', 'null', 'true', '-1', '1e309', 'NaN',
  '=cmd|" /c calc"!A1', '@SUM(1+1)', 'Ω', 'ﬀ', 'İı', '\u0085', '\u2028\u2029', '\t', 'ok', 'R 10k', 'SEED-001', 'cmp_', '0'.repeat(40),
]
const HOSTILE_UNITS = ['\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\u202E', '\u200F', '\u200B', '\uFEFF', '\u0301', '\r', '\n', '\t', '"', "'", '\\', '/', '..', '%', '<', '&', '*', '?', '#', ' ', '😀', '\u{10FFFF}', 'ß', 'İ', '\u2028', '=', '@', '`', '$', '{', '(', ':', '^', '~', '\u0085']
const unit = fc.oneof(
  { weight: 5, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_UNITS) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
)

/** Hostile text within `[min, max]` UTF-16 units: unicode, control characters, injections, sometimes as long as allowed. */
export function hostileString(min = 0, max = 100_000): fc.Arbitrary<string> {
  const fits = (s: string) => s.length >= min && s.length <= max
  const known = HOSTILE_STRINGS.filter(fits)
  const long = Math.min(max, 200_000)
  return fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit, minLength: min, maxLength: Math.max(min, Math.min(max, 24)) }).filter(fits) },
    ...(known.length ? [{ weight: 3, arbitrary: fc.constantFrom(...known) }] : []),
    ...(long > 24 ? [{ weight: 1, arbitrary: fc.tuple(fc.constantFrom(...HOSTILE_UNITS, 'x', 'é'), fc.integer({ min: Math.max(min, 25), max: long })).map(([u, n]) => u.repeat(Math.ceil(n / u.length)).slice(0, n)).filter(fits) }] : []),
  )
}

/** Deep nesting, as JSON text (building it as a value would overflow our own stack first). */
export const deepJson = fc.tuple(fc.integer({ min: 64, max: 200_000 }), fc.boolean()).map(([n, arrays]) => new RawJson(arrays ? `${'['.repeat(n)}${']'.repeat(n)}` : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`))

const LOOPBACK_URLS = ['http://127.0.0.1:9/hooks', 'http://127.0.0.1:1/x?y=1#z', 'http://[::1]:9/hooks', 'http://localhost:9/%2e%2e/secret']

/**
 * Values shaped like `schema` wants (types, enums, lengths, patterns, required
 * keys) but filled with hostile text, real and unknown ids: mostly valid,
 * sometimes not (lengths count differently, ids may be missing).
 */
export function validish(schema: Schema, ctx: ValueContext, key?: string, depth = 0): fc.Arbitrary<unknown> {
  const s = ctx.resolve(schema)
  if (depth > 8) return fc.constant(null)
  if (s.const !== undefined) return fc.constant(s.const)
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum)
  const union = s.anyOf ?? s.oneOf
  if (Array.isArray(union)) return fc.oneof(...union.map((b: Schema) => validish(b, ctx, key, depth + 1)))
  if (key === 'config') return _connectorConfig
  if (key === 'url' || s.format === 'uri') return fc.constantFrom(...LOOPBACK_URLS, 'https://example.com/ds/a.pdf', 'file:///etc/passwd')
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ['object'] : []
  if (types.length === 0) return fc.oneof(fc.jsonValue({ maxDepth: 3 }), deepJson)
  if (types.length > 1) return fc.oneof(...types.map((type) => validish({ ...s, type }, ctx, key, depth + 1)))
  switch (types[0]) {
    case 'string':
      return _string(s, ctx, key)
    case 'integer':
      return _integer(s.minimum, s.maximum)
    case 'number':
      return fc.double({ min: s.minimum ?? -1e12, max: s.maximum ?? 1e12, noNaN: true, noDefaultInfinity: true })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array': {
      const min = s.minItems ?? 0
      return fc.array(validish(s.items ?? {}, ctx, key, depth + 1), { minLength: min, maxLength: Math.min(s.maxItems ?? 4, min + 4) })
    }
    default: {
      const props = Object.entries<Schema>(s.properties ?? {})
      const record = fc.record(Object.fromEntries(props.map(([k, v]) => [k, validish(v, ctx, k, depth + 1)])), { requiredKeys: s.required ?? [] })
      if (!s.additionalProperties || typeof s.additionalProperties !== 'object') return record
      const extra = fc.dictionary(hostileString(1, 40), validish(s.additionalProperties, ctx, undefined, depth + 1), { maxKeys: 3 })
      return fc.tuple(record, extra).map(([r, e]) => ({ ...e, ...r }))
    }
  }
}

/**
 * Values `schema` must refuse, or null when it accepts anything. Each is one
 * defect on an otherwise plausible value: a wrong JSON type, an enum miss, a
 * length, pattern or range violation, too many or too few items, a missing
 * required key, an unknown key where none is allowed, or a nested one of these.
 */
export function invalid(schema: Schema, ctx: ValueContext, key?: string, depth = 0): fc.Arbitrary<unknown> | null {
  const branches = _branches(schema, ctx)
  if (branches === null || depth > 6) return null
  const allowed = new Set(branches.map((b) => (b.type === 'integer' ? 'number' : b.type)))
  const options: fc.Arbitrary<unknown>[] = []
  const wrong = _JSON_TYPES.filter((t) => !allowed.has(t))
  if (wrong.length) options.push(fc.constantFrom(...wrong).chain((t) => _sampleOfType(t)))
  for (const type of new Set(branches.map((b) => b.type))) {
    const same = branches.filter((b) => b.type === type)
    // A value of this type is refused only when every branch of that type refuses it: keep to a single branch.
    if (same.length !== 1) continue
    const option = _invalidOfType(same[0]!, ctx, key, depth)
    if (option) options.push(option)
  }
  return options.length ? fc.oneof(...options) : null
}

/** JSON text of a value; RawJson is spliced in, `__proto__` and friends are plain keys. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`
  if (value && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(',')}}`
  return JSON.stringify(value) ?? 'null'
}

/** An own enumerable key, even `__proto__` (assignment would set the prototype instead). */
export function withKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out = { ...target }
  Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true })
  return out
}

const _JSON_TYPES = ['string', 'number', 'boolean', 'null', 'array', 'object'] as const

function _sampleOfType(type: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return hostileString(0, 64)
    case 'number':
      return fc.oneof(fc.constantFrom(0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2), fc.double({ noNaN: true, noDefaultInfinity: true }))
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.oneof(fc.constant([]), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }), deepJson.filter((r) => r.text.startsWith('[')))
    default:
      return fc.oneof(fc.constant({}), fc.dictionary(hostileString(1, 20), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), deepJson.filter((r) => r.text.startsWith('{')))
  }
}

/** Single-type branches of a schema (anyOf/oneOf/type lists flattened), or null for "anything goes". */
function _branches(schema: Schema, ctx: ValueContext): Schema[] | null {
  const s = ctx.resolve(schema)
  const union = s.anyOf ?? s.oneOf
  if (Array.isArray(union)) {
    const parts = union.map((b: Schema) => _branches(b, ctx))
    return parts.some((p: Schema[] | null) => p === null) ? null : (parts as Schema[][]).flat()
  }
  if (Array.isArray(s.enum)) {
    const types = [...new Set(s.enum.map((v: unknown) => (v === null ? 'null' : typeof v)))]
    return types.length === 1 && types[0] === 'string' ? [{ ...s, type: 'string' }] : null
  }
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ['object'] : []
  if (types.length === 0) return null
  return types.map((type) => ({ ...s, type }))
}

function _invalidOfType(s: Schema, ctx: ValueContext, key: string | undefined, depth: number): fc.Arbitrary<unknown> | null {
  const options: fc.Arbitrary<unknown>[] = []
  switch (s.type) {
    case 'string': {
      if (Array.isArray(s.enum)) options.push(fc.constantFrom('bogus', '', String(s.enum[0]).toUpperCase() + '!', `${s.enum[0]}\u0000`).filter((v) => !s.enum.includes(v)))
      // Plain ASCII with no edge whitespace: lengths count the same in every unit, and no .trim() rescues it.
      if (typeof s.maxLength === 'number' && s.maxLength < 5_000_000) options.push(fc.integer({ min: s.maxLength + 1, max: s.maxLength + 64 }).map((n) => 'x'.repeat(n)))
      if ((s.minLength ?? 0) > 0) options.push(fc.constant(''))
      if (s.pattern) {
        const re = new RegExp(s.pattern)
        const misses = ['/', 'a/b', 'a b', '../x', 'a\u0000b', '#', '?x', 'cmp_0', 'CMP_01JD7W3T9X4QF5B8S2M6K0N1PZ', 'cmp_01jd7w3t9x4qf5b8s2m6k0n1pz', 'whsec_!!', '%2F'].filter((v) => !re.test(v))
        if (misses.length) options.push(fc.constantFrom(...misses))
      }
      if (s.format === 'uri') options.push(fc.constantFrom('not a url', 'x', '://'))
      if (s.format === 'date-time') options.push(fc.constantFrom('yesterday', '2026-13-45T00:00:00Z', '2026-01-01'))
      break
    }
    case 'integer':
      options.push(fc.constantFrom(1.5, -0.25))
      if (typeof s.minimum === 'number') options.push(fc.constant(s.minimum - 1))
      if (typeof s.maximum === 'number' && s.maximum < Number.MAX_SAFE_INTEGER) options.push(fc.constant(s.maximum + 1))
      options.push(fc.constant(new RawJson('1e309')))
      break
    case 'number':
      if (typeof s.minimum === 'number') options.push(fc.constant(s.minimum - 1))
      if (typeof s.maximum === 'number') options.push(fc.constant(s.maximum + 1))
      options.push(fc.constant(new RawJson('-1e309')))
      break
    case 'array': {
      const min = s.minItems ?? 0
      const item = validish(s.items ?? {}, ctx, key, depth + 1)
      if (typeof s.maxItems === 'number' && s.maxItems <= 5000) options.push(item.map((v) => Array.from({ length: s.maxItems + 1 }, () => v)))
      if (min > 0) options.push(fc.constant([]))
      const bad = s.items ? invalid(s.items, ctx, key, depth + 1) : null
      if (bad) {
        options.push(
          fc.tuple(fc.array(item, { minLength: 0, maxLength: Math.min(3, s.maxItems ?? 3) }), bad, fc.nat()).map(([items, b, at]) => {
            const out = items.slice(0, Math.max(0, (s.maxItems ?? 4) - 1))
            out.splice(at % (out.length + 1), 0, b)
            return out
          }),
        )
      }
      break
    }
    case 'object': {
      const base = validish(s, ctx, key, depth + 1) as fc.Arbitrary<Record<string, unknown>>
      const required: string[] = s.required ?? []
      if (required.length) options.push(fc.tuple(base, fc.constantFrom(...required)).map(([v, k]) => Object.fromEntries(Object.entries(v).filter(([name]) => name !== k))))
      const known = new Set(Object.keys(s.properties ?? {}))
      if (s.additionalProperties === false) {
        const unknown = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'descripton', 'ID', ''), hostileString(1, 30)).filter((k) => !known.has(k))
        options.push(fc.tuple(base, unknown, fc.jsonValue({ maxDepth: 1 })).map(([v, k, x]) => withKey(v, k, x)))
      }
      for (const [name, prop] of Object.entries<Schema>(s.properties ?? {})) {
        const bad = invalid(prop, ctx, name, depth + 1)
        if (bad) options.push(fc.tuple(base, bad).map(([v, b]) => withKey(v, name, b)))
      }
      if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        const bad = invalid(s.additionalProperties, ctx, undefined, depth + 1)
        if (bad) options.push(fc.tuple(base, hostileString(1, 20).filter((k) => !known.has(k)), bad).map(([v, k, b]) => withKey(v, k, b)))
      }
      break
    }
  }
  return options.length ? fc.oneof(...options) : null
}

function _string(s: Schema, ctx: ValueContext, key: string | undefined): fc.Arbitrary<string> {
  const min = s.minLength ?? 0
  const max = s.maxLength ?? 100_000
  if (s.format === 'date-time') return fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString())
  if (key === 'secret' || (s.pattern ?? '').startsWith('^whsec_')) return fc.oneof(fc.integer({ min: 24, max: 64 }).map((n) => `whsec_${Buffer.alloc(n, n).toString('base64')}`), fc.stringMatching(/^whsec_[A-Za-z0-9+/]{4,40}$/))
  if (s.pattern) {
    const idPrefix = /^\^(\w+)_\[0-9A-HJKMNP-TV-Z\]\{26\}\$$/.exec(s.pattern)?.[1]
    const matching = fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= min && v.length <= max)
    const known = idPrefix ? ctx.ids[idPrefix] : key === 'ipn' ? ctx.ipns : undefined
    return known?.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: matching }) : matching
  }
  return hostileString(min, max)
}

function _integer(minimum: number | undefined, maximum: number | undefined): fc.Arbitrary<number> {
  const min = Math.max(minimum ?? -1_000_000, -(2 ** 31))
  const max = Math.min(maximum ?? 1_000_000, 2 ** 31 - 1)
  const edges = [minimum, maximum].filter((v): v is number => typeof v === 'number')
  return edges.length ? fc.oneof({ weight: 4, arbitrary: fc.integer({ min, max }) }, { weight: 1, arbitrary: fc.constantFrom(...edges) }) : fc.integer({ min, max })
}

// Connector configs always point at loopback (nothing here may send traffic elsewhere), with
// throttle and schedule values around their bounds and sometimes free-form extras.
const _connectorConfig = fc.record(
  {
    url: fc.constantFrom(...LOOPBACK_URLS),
    concurrency: fc.integer({ min: 0, max: 70 }),
    requestsPerSecond: fc.oneof(fc.integer({ min: 0, max: 1100 }), fc.double({ min: 0, max: 10, noNaN: true })),
    cron: fc.constantFrom(null, '0 */6 * * *', '0 0 1 1 *', '61 * * * *', 'not a cron', '* * * * * * *'),
    extra: fc.oneof(fc.jsonValue({ maxDepth: 3 }), deepJson),
  },
  { requiredKeys: ['url'] },
)
